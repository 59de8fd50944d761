"""A ruleset described field by field: value, meaning, allowed values, rule text."""

from __future__ import annotations

import dataclasses
import itertools
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from strategy_calc.cards import MAX_BACCARAT_DECKS, MAX_DECKS
from strategy_calc.rules.files import baccarat_rules, blackjack_rules, read_ruleset

if TYPE_CHECKING:
    from strategy_calc.rules.bonus_hands import BonusHand


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One rules field of a ruleset: its value, what it means and what it may be."""

    name: str
    value: Any
    meaning: str
    allowed: str
    source: str
    """The rule text the field comes from (the ruleset's ``[sources]`` table), or ""."""
    set_by: str = ""
    """The ruleset that set the value: the file itself, or the base it inherits it from."""


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """A ruleset described field by field (:func:`describe_ruleset`)."""

    name: str
    game: str
    description: str
    summary: str
    fields: tuple[FieldInfo, ...]
    bonus_table: tuple[BonusHand, ...] = ()
    """Blackjack: every bonus row that pays, the shorthands' (``bonus_suited_678``,
    ``bonus_777``) and ``bonus_hands``' alike."""


def _field_docs(cls: type) -> dict[str, str]:
    """Each dataclass field's docstring (the string literal under its annotation)."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs = {}
    for a, b in itertools.pairwise(body.body):
        if (isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
                and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)):
            docs[a.target.id] = " ".join(b.value.value.split())
    return docs


def _allowed(name: str, hint: Any, game: str = "blackjack") -> str:
    if typing.get_origin(hint) is Literal:
        return ", ".join(map(str, typing.get_args(hint)))
    if hint is bool:
        return "true, false"
    if name == "decks":
        if game == "baccarat":
            return f"1 to {MAX_BACCARAT_DECKS}"
        return f"1 to {MAX_DECKS}, or inf"
    if name == "max_split_hands":
        return "1 to 4"
    if name == "bonus_hands":
        return ('rows {cards = "6-7-8", pays = 3, suited, settles, split_hands} (--set:'
                ' "suited 6-7-8=3; 7-7-7=3 plays-on not-split"), or [] (none)')
    if typing.get_origin(hint) is tuple:
        return "[LOW, HIGH] cards (--set: LOW-HIGH), or [] (none)"
    if typing.get_origin(hint) is not None:  # a number or a word
        words = [w for a in typing.get_args(hint) for w in typing.get_args(a)]
        return f"a whole number, or {', '.join(words)}"
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number, or a ratio such as 6:5"
    return "text"


def _value(value: Any) -> Any:
    """A field's value as JSON takes it (a bonus table: a list of its rows' keys)."""
    if isinstance(value, tuple) and value and hasattr(value[0], "as_dict"):
        return [row.as_dict() for row in value]
    return value


def describe_ruleset(spec: str, overrides: Sequence[str] = (),
                     decks: int | str | None = None) -> RulesetInfo:
    """Every field of a ruleset (built-in name or TOML file) with its value and meaning,
    after ``FIELD=VALUE`` overrides and ``decks`` (as ``--set`` and ``--decks`` give them:
    such a field's ``set_by`` is ``--set`` or ``--decks``).

    >>> info = describe_ruleset("deluxe")
    >>> field = next(f for f in info.fields if f.name == "surrender")
    >>> field.value, field.allowed
    ('2-9', 'none, late, early, not_vs_ace, 2-9, late_vs_ten_ace')
    >>> field.source
    'only vs 2-9, on the first two cards'
    >>> info = describe_ruleset("macau-1983", ["bonus_hands=6-7-8=2"], decks=2)
    >>> [(f.value, f.set_by) for f in info.fields if f.name in ("decks", "bonus_hands")]
    [(2, '--decks'), ([{'cards': '6-7-8', 'pays': 2.0, 'suited': False, 'settles': True, \
'split_hands': True}], '--set')]
    >>> [str(row) for row in info.bonus_table]
    ['suited 6-7-8=3', '7-7-7=3', '6-7-8=2']
    """
    read = read_ruleset(spec)
    table = read.table
    game = table.get("game", "blackjack")
    rules: Any = (blackjack_rules(spec, overrides, decks) if game == "blackjack"
                  else baccarat_rules(spec, overrides, decks))
    set_by = dict(read.set_by)
    for text in overrides:
        set_by[text.split("=", 1)[0].strip()] = "--set"
    if decks is not None:
        set_by["decks"] = "--decks"
    cls = type(rules)
    hints = typing.get_type_hints(cls)
    docs = _field_docs(cls)
    fields = tuple(FieldInfo(f.name, _value(getattr(rules, f.name)), docs.get(f.name, ""),
                             _allowed(f.name, hints[f.name], game), read.sources.get(f.name, ""),
                             set_by.get(f.name, ""))
                   for f in dataclasses.fields(cls) if f.name != "name")
    bonus = rules.bonus_table if game == "blackjack" else ()
    return RulesetInfo(rules.name, game, str(table.get("description", "")), str(rules), fields,
                       bonus)
