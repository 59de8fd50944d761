"""Rulesets: one immutable value per game variant, loaded from TOML.

The built-in rulesets are TOML files shipped in ``strategy_calc/rules/rulesets``;
a user's own file has the same shape (``game``, ``name``, ``description`` and
one key per field). Single fields can be overridden with ``FIELD=VALUE``
strings, as the CLI's ``--set`` does.

The modules: :mod:`~strategy_calc.rules.blackjack` and
:mod:`~strategy_calc.rules.baccarat` (the rules records), :mod:`~strategy_calc.rules.registry`
(the built-in rulesets), :mod:`~strategy_calc.rules.files` (TOML files, bases, overrides),
:mod:`~strategy_calc.rules.describe` (a ruleset field by field) and
:mod:`~strategy_calc.rules.fields` (the fields' checks and coercion). Their public names
are also this package's.

>>> from strategy_calc.rules import blackjack_rules
>>> rules = blackjack_rules("macau-1983")
>>> rules.hole_card, rules.decks, rules.double_on
('enhc', 6, '11')
>>> str(blackjack_rules("deluxe", ["decks=2", "surrender=late"]))
'deluxe: 2D S17 peek 3:2 DA DAS split-2 LS'
>>> blackjack_rules("deluxe", ["max_split=3"])
Traceback (most recent call last):
...
strategy_calc.rules.RulesError: unknown field 'max_split' for blackjack rules
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from strategy_calc.rules.baccarat import BET_NAMES, BETS, BaccaratRules
    from strategy_calc.rules.blackjack import BlackjackRules, double_allowed_totals, inert_overrides
    from strategy_calc.rules.describe import FieldInfo, RulesetInfo, describe_ruleset
    from strategy_calc.rules.fields import RulesError
    from strategy_calc.rules.files import (
        baccarat_rules,
        blackjack_rules,
        build_rules,
        load_ruleset,
        read_ruleset,
    )
    from strategy_calc.rules.registry import (
        BUILTIN_RULESETS,
        DEFAULT_BACCARAT,
        DEFAULT_BLACKJACK,
        RULESETS,
        Ruleset,
        find_ruleset,
    )

__all__ = [
    "BETS",
    "BET_NAMES",
    "BUILTIN_RULESETS",
    "DEFAULT_BACCARAT",
    "DEFAULT_BLACKJACK",
    "RULESETS",
    "BaccaratRules",
    "BlackjackRules",
    "FieldInfo",
    "RulesError",
    "Ruleset",
    "RulesetInfo",
    "baccarat_rules",
    "blackjack_rules",
    "build_rules",
    "describe_ruleset",
    "double_allowed_totals",
    "find_ruleset",
    "inert_overrides",
    "load_ruleset",
    "read_ruleset",
]

_HOMES: dict[str, str] = {
    "BETS": "baccarat",
    "BET_NAMES": "baccarat",
    "BUILTIN_RULESETS": "registry",
    "BaccaratRules": "baccarat",
    "BlackjackRules": "blackjack",
    "DEFAULT_BACCARAT": "registry",
    "DEFAULT_BLACKJACK": "registry",
    "FieldInfo": "describe",
    "RULESETS": "registry",
    "RulesError": "fields",
    "Ruleset": "registry",
    "RulesetInfo": "describe",
    "baccarat_rules": "files",
    "blackjack_rules": "files",
    "build_rules": "files",
    "describe_ruleset": "describe",
    "double_allowed_totals": "blackjack",
    "find_ruleset": "registry",
    "inert_overrides": "blackjack",
    "load_ruleset": "files",
    "read_ruleset": "files",
}
"""Each public name and the module of this package that defines it (loaded on first use,
so a command loads only the modules it reads: ``hand`` needs no ruleset description)."""


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (:data:`_HOMES`)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'strategy_calc.rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"strategy_calc.rules.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
