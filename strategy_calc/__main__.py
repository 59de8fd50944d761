"""``python -m strategy_calc`` and the ``strategy-calc`` script: the command line.

``strategy-calc --version`` is answered here, before the CLI library is imported (it
costs more than the rest of the answer); everything else goes to
:func:`strategy_calc.cli.main`.
"""

import sys


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["--version"]:
        from strategy_calc import __version__

        print(f"strategy-calc {__version__}")
        raise SystemExit(0)
    from strategy_calc.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
