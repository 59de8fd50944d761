"""The built-in rulesets, in one registry (:func:`find_ruleset` looks names up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from strategy_calc.rules.fields import RulesError

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A built-in ruleset: its name, its game and the package TOML file that holds it."""

    name: str
    game: Literal["blackjack", "baccarat"]
    file: str
    description: str
    aliases: tuple[str, ...] = ()


RULESETS: tuple[Ruleset, ...] = (
    Ruleset("macau-1983", "blackjack", "macau-1983.toml",
            "Macau's approved blackjack rules (1983): no hole card, double on 11, suited "
            "6-7-8 / 7-7-7 bonus", ("macau",)),
    Ruleset("deluxe", "blackjack", "deluxe.toml",
            "Deluxe live-dealer blackjack: 8 decks, peek, surrender vs 2-9, pair side bet"),
    Ruleset("macau-baccarat", "baccarat", "macau-baccarat.toml",
            "Macau baccarat: Banker 5% commission, Tie 8:1, pairs 11:1", ("baccarat",)),
)
"""Every built-in ruleset, in one registry (:func:`find_ruleset` looks names up)."""


BUILTIN_RULESETS: dict[str, str] = {r.name: r.file for r in RULESETS}
"""Built-in ruleset names and the package file that holds each."""


def builtin_ruleset(name: str) -> Ruleset | None:
    """The built-in ruleset called ``name`` (case-insensitive; aliases allowed), or None."""
    key = name.strip().lower()
    return next((r for r in RULESETS if key == r.name or key in r.aliases), None)


def find_ruleset(name: str, game: str | None = None) -> Ruleset:
    """The built-in ruleset called ``name`` (case-insensitive; aliases allowed).

    ``game``: also require it to be of that game.

    >>> find_ruleset("Deluxe").file, find_ruleset("macau").name
    ('deluxe.toml', 'macau-1983')
    >>> find_ruleset("deluxe", game="baccarat")
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: ruleset 'deluxe' is for blackjack, not baccarat
    """
    ruleset = builtin_ruleset(name)
    if ruleset is not None:
        if game is not None and ruleset.game != game:
            raise RulesError(f"ruleset {ruleset.name!r} is for {ruleset.game}, not {game}")
        return ruleset
    names = ", ".join(r.name for r in RULESETS if game is None or r.game == game)
    raise RulesError(f"unknown ruleset {name!r}: the built-in ones are {names}")


DEFAULT_BLACKJACK = "macau-1983"


DEFAULT_BACCARAT = "macau-baccarat"
"""The built-in baccarat ruleset used when none is named."""
