"""strategy_calc: exact optimal strategy and odds for casino card games.

The library API, by these names (other tools call them):

- :func:`blackjack_rules` (``strategy_calc.rules``): a built-in or TOML
  ruleset, with ``FIELD=VALUE`` overrides;
- :func:`analyse_hand` (``strategy_calc.blackjack.hand_analysis``): every action's exact EV
  for one hand against an up card;
- :func:`analyse_game` (``strategy_calc.blackjack.game_analysis``): the basic-strategy chart
  and the house edge under it and under optimal play.

>>> import strategy_calc as sc
>>> rules = sc.blackjack_rules("deluxe", ["decks=1", "max_split_hands=4", "surrender=none"])
>>> game = sc.analyse_game(rules)
>>> abs(game.ev_optimal - 0.001839) < 1e-5  # Wizard of Odds appendix 9: 1 deck S17 DAS
True
>>> sc.analyse_hand("T,6", "T", sc.blackjack_rules("deluxe")).best
'hit'

The names load their modules on first use, so ``import strategy_calc`` stays
light. The engine's Python face is :mod:`strategy_calc.engine`; the compiled
module ``strategy_calc._engine`` is private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from strategy_calc.blackjack.game_analysis import analyse_game
    from strategy_calc.blackjack.hand_analysis import analyse_hand
    from strategy_calc.rules import blackjack_rules

__all__ = ["__version__", "analyse_game", "analyse_hand", "blackjack_rules"]

_HOMES = {
    "analyse_game": "strategy_calc.blackjack.game_analysis",
    "analyse_hand": "strategy_calc.blackjack.hand_analysis",
    "blackjack_rules": "strategy_calc.rules",
}


def __getattr__(name: str) -> Any:
    """Load ``analyse_game``, ``analyse_hand`` and ``blackjack_rules`` on first use."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'strategy_calc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
