"""The ``strategy-calc`` command line: parse, call one library function, render.

One module per family of commands (``hand``, ``game``, ``count``, ...), each declaring
its commands (functions named ``*_command``) on its own ``commands`` app;
:mod:`~strategy_calc.cli.root` holds the root app, the table of commands by family (a
command line loads only its family), the ``count`` alias of ``baccarat count`` and the
runners; :mod:`~strategy_calc.cli.command` the decorator that declares a command and
spreads its option groups; :mod:`~strategy_calc.cli.options` the options shared by several
commands, declared once; :mod:`~strategy_calc.cli.respond` the skeleton every command
runs (``respond(compute, render)``: bad input is one ``error:`` line and exit status 2).

Every analysis takes ``--rules NAME|FILE``, a repeatable ``--set FIELD=VALUE`` and
``--decks N`` the same way (``sweep`` varies ``decks`` with ``--vary`` instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from strategy_calc.cli.root import main, run, run_captured, run_script

if TYPE_CHECKING:
    import typer

    app: typer.Typer
    """The whole app, every command in it (built on first use: :func:`root.full_app`)."""

__all__ = ["app", "main", "run", "run_captured", "run_script"]


def __getattr__(name: str) -> Any:
    """``app``: the whole app (every family's commands), made on first use."""
    if name == "app":
        from strategy_calc.cli.root import full_app

        return full_app()
    raise AttributeError(f"module 'strategy_calc.cli' has no attribute {name!r}")
