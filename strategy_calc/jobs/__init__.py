"""The project's own jobs: the timed workloads of ``bench`` and the generated files in
``tables/``."""
