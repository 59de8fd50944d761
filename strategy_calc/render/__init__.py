"""The one render layer: JSON objects for other tools, text tables and pages for people, one
module per family of commands.

Every command's output is built here from the results the compute modules return;
no compute module imports this package (or rich).

Start-up (issue 29): the standard modules only some renderings use (html, textwrap,
fractions) are imported in the functions that use them, and the project's only from the
vocabulary and the rules, so that ``edge --json`` loads neither baccarat, the one-hand
analysis nor sampling (tests/test_startup_imports.py); rich is imported where a table is
drawn: JSON output never loads it.
"""
