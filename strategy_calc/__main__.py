"""``python -m strategy_calc`` and the ``strategy-calc`` script: the command line.

``strategy-calc --version`` is answered here, before the CLI library is imported (it
costs more than the rest of the answer); everything else goes to
:func:`strategy_calc.cli.run`.

Two start-up costs are cut here, for the script only (``cli.run`` called in a process of
its own keeps Python's defaults; see docs/PERFORMANCE.md, "Start-up and Eric Farmer's analyzer"):

- the cyclic garbage collector's first generation is collected every
  :data:`GC_GEN0_THRESHOLD` new container objects, not every 700: start-up creates tens
  of thousands of long-lived objects (modules, classes, typer's parameters, the game's
  tables), and collecting them over and over found nothing to free;
- a finished command exits at once, with ``os._exit``, after flushing its output and
  running the ``atexit`` functions, instead of tearing the interpreter down (freeing
  every module and object one by one: about 15 ms for ``edge``). It does so only when no
  other non-daemon thread is alive and the output flushed cleanly; otherwise the
  ordinary exit runs.
"""

import os
import sys

GC_GEN0_THRESHOLD = 50_000
"""New container objects between two collections of the youngest generation (Python's
default: 700); the older generations keep their default ratios."""


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["--version"]:
        from strategy_calc import __version__

        print(f"strategy-calc {__version__}")
        raise SystemExit(0)
    import gc

    gc.set_threshold(GC_GEN0_THRESHOLD, *gc.get_threshold()[1:])
    from strategy_calc.cli import run_script

    exit_now(run_script())


def exit_now(code: int) -> None:
    """End the process with status ``code`` without the interpreter's teardown, once
    stdout and stderr are flushed and the ``atexit`` functions have run; raise
    ``SystemExit(code)`` instead (the ordinary exit) while another non-daemon thread is
    alive or if flushing fails (a closed pipe: Python reports it as usual)."""
    threading = sys.modules.get("threading")
    if threading is not None and any(
            t is not threading.main_thread() and not t.daemon and t.is_alive()
            for t in threading.enumerate()):
        raise SystemExit(code)
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    os._exit(code)


if __name__ == "__main__":
    main()
