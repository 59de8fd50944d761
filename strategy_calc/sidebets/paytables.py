"""Side bets as TOML: an event of :mod:`~strategy_calc.sidebets.events` with pay tables,
each pricing every line the event settles on, and where the bet and its tables come from.

A side bet file::

    name = "21+3"                 # the bet's name (letters, digits, + and -)
    event = "poker3"              # an event of strategy_calc.sidebets.events
    description = "..."
    default = "common"            # the pay table used unless --paytable names another
    [paytables.common]            # one table per name: every line of the event, its pay
    straight_flush = 9            # "X to 1": the bet wins X units; -1 loses, 0 pushes
    ...
    [sources]                     # where the bet and each table come from (text)
    event = "..."
    common = "..."

The built-ins are package data (``builtin/*.toml``, :data:`BUILTIN_FILES`); a user's file
is read by :func:`read_sidebet`. Anything wrong is a :class:`SideBetError`.

>>> bet = builtin_sidebet("21+3")
>>> bet.event.name, bet.default, bet.paytables["common"]["flush"]
('poker3', 'common', Fraction(9, 1))
"""

from __future__ import annotations

import math
import pkgutil
import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from strategy_calc.errors import InputError
from strategy_calc.sidebets.events import Event, find_event

BUILTIN_FILES: dict[str, str] = {
    "21+3": "21plus3.toml",
    "lucky-ladies": "lucky-ladies.toml",
    "deluxe-pair": "deluxe-pair.toml",
    "pair-square": "pair-square.toml",
    "buster": "buster.toml",
    "lucky6": "lucky6.toml",
    "lucky6-vegas": "lucky6-vegas.toml",
    "super6": "super6.toml",
    "dragon-bonus-player": "dragon-bonus-player.toml",
    "dragon-bonus-banker": "dragon-bonus-banker.toml",
    "dragon7": "dragon7.toml",
    "panda8": "panda8.toml",
    **{f"egalite-{point}": f"egalite-{point}.toml" for point in range(10)},
    "player-pair": "player-pair.toml",
    "banker-pair": "banker-pair.toml",
    **{f"natural{point}-{side}": f"natural{point}-{side}.toml" for point in (8, 9)
       for side in ("player", "banker")},
    "big-tiger": "big-tiger.toml",
    "three-card-win-player": "three-card-win-player.toml",
    "three-card-win-banker": "three-card-win-banker.toml",
}
"""The built-in side bets, by name, and their files in ``builtin/``."""

RESERVED = ("pair", "bet")
"""Names a side bet may not take (``sidebet pair`` and ``sidebet bet`` are commands)."""

_KEYS = {"name", "game", "event", "description", "default", "paytables", "sources"}
_NAME = re.compile(r"[a-z0-9][a-z0-9+\-]*")


class SideBetError(InputError):
    """A side bet that cannot be read or priced (unknown name, bad TOML, bad pay table)."""


@dataclass(frozen=True, slots=True)
class SideBet:
    """A side bet: a name, the event it is settled on, its pay tables and their sources."""

    name: str
    """The bet's name (``21+3``)."""
    event: Event
    """The event it is settled on."""
    description: str
    """What the bet is, in a line."""
    default: str
    """The pay table used unless another is named."""
    paytables: dict[str, dict[str, Fraction]]
    """Per pay table, per line of the event: what the line wins per unit bet."""
    sources: dict[str, str]
    """Where the bet (``event``) and each pay table (by its name) come from."""

    def paytable(self, name: str | None = None) -> dict[str, Fraction]:
        """The pay table ``name`` (the default if None); an unknown one is an error.

        >>> builtin_sidebet("21+3").paytable("nine")
        Traceback (most recent call last):
        ...
        strategy_calc.sidebets.paytables.SideBetError: 21+3 has no pay table 'nine' (its \
tables: common, version-3)
        """
        chosen = self.default if name is None else name
        if chosen not in self.paytables:
            raise SideBetError(f"{self.name} has no pay table {chosen!r} (its tables:"
                               f" {', '.join(self.paytables)})")
        return self.paytables[chosen]


def _pays(where: str, line: str, value: object) -> Fraction:
    """A line's pay: a finite number, -1 (loses) or more."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
            value):
        raise SideBetError(f"{where}: {line} must be a number (X for X to 1), not {value!r}")
    pays = Fraction(value).limit_denominator(10**6)
    if pays < -1:
        raise SideBetError(f"{where}: {line} = {value}: a line pays -1 (loses) or more")
    return pays


def parse_sidebet(table: dict[str, Any], where: str) -> SideBet:
    """A side bet from its TOML table (``where`` names it in the errors).

    >>> parse_sidebet({"name": "x", "event": "pair", "default": "t",
    ...                "paytables": {"t": {"perfect": 25, "coloured": 12}}}, "x.toml")
    Traceback (most recent call last):
    ...
    strategy_calc.sidebets.paytables.SideBetError: x.toml: pay table t does not price mixed \
(every line of event pair: perfect, coloured, mixed)
    """
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise SideBetError(f"{where}: unknown key {unknown[0]!r} (a side bet has"
                           f" {', '.join(sorted(_KEYS))})")
    for key in ("name", "event", "default", "paytables"):
        if key not in table:
            raise SideBetError(f"{where}: no {key!r}")
    name = table["name"]
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name in RESERVED:
        raise SideBetError(f"{where}: name {name!r} must be lower-case letters, digits, + and"
                           f" - (and not {' or '.join(RESERVED)})")
    if not isinstance(table["event"], str):
        raise SideBetError(f"{where}: event must be an event's name, not"
                           f" {table['event']!r}")
    try:
        event = find_event(table["event"])
    except ValueError as exc:
        raise SideBetError(f"{where}: {exc}") from None
    if table.get("game", event.game) != event.game:
        raise SideBetError(f"{where}: event {event.name} is on the cards of {event.game},"
                           f" not {table['game']!r}")
    raw = table["paytables"]
    if not isinstance(raw, dict) or not raw:
        raise SideBetError(f"{where}: [paytables] must hold at least one table")
    paytables: dict[str, dict[str, Fraction]] = {}
    for title, lines in raw.items():
        if not isinstance(lines, dict):
            raise SideBetError(f"{where}: paytables.{title} must be a table of line = pays")
        extra = [line for line in lines if line not in event.lines]
        if extra:
            raise SideBetError(f"{where}: pay table {title}: event {event.name} has no line"
                               f" {extra[0]!r} (its lines: {', '.join(event.lines)})")
        missing = [line for line in event.lines if line not in lines]
        if missing:
            raise SideBetError(f"{where}: pay table {title} does not price {missing[0]}"
                               f" (every line of event {event.name}:"
                               f" {', '.join(event.lines)})")
        paytables[title] = {line: _pays(f"{where}: pay table {title}", line, lines[line])
                            for line in event.lines}
    if table["default"] not in paytables:
        raise SideBetError(f"{where}: default {table['default']!r} is not one of its pay"
                           f" tables ({', '.join(paytables)})")
    sources = table.get("sources", {})
    if not isinstance(sources, dict) or not all(isinstance(v, str) for v in sources.values()):
        raise SideBetError(f"{where}: [sources] must be a table of texts")
    return SideBet(name, event, str(table.get("description", "")), table["default"],
                   paytables, dict(sources))


def builtin_sidebet(name: str) -> SideBet:
    """A built-in side bet by name (:data:`BUILTIN_FILES`).

    >>> builtin_sidebet("lucky-ladies").paytable()["qh_pair_dealer_blackjack"]
    Fraction(1000, 1)
    """
    if name not in BUILTIN_FILES:
        raise SideBetError(f"unknown side bet {name!r} (built-in: {', '.join(BUILTIN_FILES)};"
                           " or give a file with --sidebet FILE)")
    data = pkgutil.get_data("strategy_calc.sidebets", f"builtin/{BUILTIN_FILES[name]}")
    if data is None:  # pragma: no cover - a loader that cannot read package data
        raise SideBetError(f"built-in side bet {name} cannot be read here")
    return parse_sidebet(tomllib.loads(data.decode("utf-8")), f"built-in {name}")


def read_sidebet(path: str | Path) -> SideBet:
    """A user's side bet file (TOML)."""
    file = Path(path)
    if not file.is_file():
        raise SideBetError(f"--sidebet {path}: no such file")
    try:
        table = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SideBetError(f"invalid side bet file {path}: {exc}") from None
    return parse_sidebet(table, str(path))


def find_sidebet(name: str, files: tuple[str | Path, ...] = ()) -> SideBet:
    """The side bet ``name``: one of the ``files`` (``--sidebet``) or a built-in."""
    for path in files:
        bet = read_sidebet(path)
        if bet.name == name:
            return bet
    if files and name not in BUILTIN_FILES:
        raise SideBetError(f"unknown side bet {name!r}: not a built-in"
                           f" ({', '.join(BUILTIN_FILES)}) nor in {', '.join(map(str, files))}")
    return builtin_sidebet(name)
