"""strategy_calc: exact optimal strategy and odds for casino card games.

The public modules: :mod:`strategy_calc.cards` (cards and shoes),
:mod:`strategy_calc.rules` (rulesets), :mod:`strategy_calc.blackjack`
(blackjack expectations) and :mod:`strategy_calc.baccarat` (baccarat odds).
The compiled engine ``strategy_calc._engine`` is private.
"""

__version__ = "0.1.0"
