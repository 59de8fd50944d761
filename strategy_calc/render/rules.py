"""Rulesets, field by field, and the list of built-ins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from strategy_calc.render.text import render

if TYPE_CHECKING:
    from strategy_calc.rules import Ruleset, RulesetInfo


def rules_dict(info: RulesetInfo) -> dict[str, Any]:
    """The ``rules NAME --json`` object: every field with its value, meaning, allowed values;
    for blackjack, ``bonus_table``: every bonus row that pays (the shorthands' included)."""
    out: dict[str, Any] = {
        "name": info.name, "game": info.game, "description": info.description,
        "ruleset": info.summary,
        "fields": {f.name: {"value": f.value, "meaning": f.meaning, "allowed": f.allowed,
                            "rule_text": f.source, "set_by": f.set_by}
                   for f in info.fields}}
    if info.game == "blackjack":
        out["bonus_table"] = [row.as_dict() for row in info.bonus_table]
    return out


def rules_text(info: RulesetInfo) -> str:
    """Every field of a ruleset: ``field = value (allowed)``, its meaning and rule text,
    and for a field the file inherits, the base that set it."""
    from rich.padding import Padding

    lines: list[Any] = [f"{info.name} ({info.game}): {info.description}", info.summary]
    if info.game == "blackjack":
        rows = [str(row) for row in info.bonus_table]
        lines.append(f"bonus hands paid: {'; '.join(rows) if rows else 'none'}")
    lines.append("")
    for f in info.fields:
        value = (str(f.value).lower() if isinstance(f.value, bool)
                 else list(f.value) if isinstance(f.value, tuple) else f.value)
        by = ("" if f.set_by in ("", info.name) else f"; from {f.set_by}"
              if f.set_by.startswith("--") else f"; from base {f.set_by}")
        lines.append(f"{f.name} = {value}    (allowed: {f.allowed}{by})")
        if f.meaning:
            lines.append(Padding(f.meaning.replace("``", ""), (0, 0, 0, 4)))
        if f.source:
            lines.append(Padding(f"rule text: {f.source}", (0, 0, 0, 4)))
    lines.append("")
    lines.append("Change any field with --set FIELD=VALUE, e.g. --set decks=2.")
    return render(*lines)


def rulesets_dict(rulesets: Sequence[Ruleset]) -> dict[str, Any]:
    """The ``rules --json`` object (no name): every built-in ruleset."""
    return {"rulesets": [{"name": r.name, "game": r.game, "description": r.description,
                          "aliases": list(r.aliases)} for r in rulesets]}


def rulesets_text(rulesets: Sequence[Ruleset]) -> str:
    """The built-in rulesets, one line each (``rules`` without a name)."""
    lines = [f"{r.name} ({r.game}{', alias ' + ', '.join(r.aliases) if r.aliases else ''}):"
             f" {r.description}" for r in rulesets]
    lines.append("strategy-calc rules NAME shows every field of one.")
    return render(*lines)
