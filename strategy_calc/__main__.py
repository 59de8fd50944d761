"""``python -m strategy_calc`` runs the command line."""

from strategy_calc.cli import main

main()
