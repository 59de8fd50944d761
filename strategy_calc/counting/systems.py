"""Card-counting systems as data: a tag per rank, balanced or not, side counts, and how the
running count becomes a true count (the divisor and the rounding).

The built-in systems (:data:`COUNT_SYSTEMS`) carry their published tags and their source;
a user's system is a TOML file (:func:`read_system`)::

    name = "my-count"
    tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }
    divisor = "deck"        # or "half-deck": the true count is per half deck left
    rounding = "exact"      # or "floor", "truncate", "round"
    source = "where the tags come from"
    [side_counts]
    aces = ["A"]            # ranks counted apart (listed; no analysis reads them yet)

*Running count*: the sum of the tags of the cards seen. *Balanced*: a whole deck's tags sum
to 0 (so a full shoe's running count ends at 0). *True count*: the running count per deck
(or half deck) of unseen cards, rounded as the system says.

>>> HILO.tag(Rank.FIVE), HILO.deck_sum, HILO.balanced
(1, 0, True)
>>> find_system("KO").deck_sum, find_system("ko").balanced  # unbalanced: +4 a deck
(4, False)
>>> find_system("halves").true_count(7.5, 78)  # 7.5 per 1.5 decks left
5.0
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from strategy_calc.cards import RANKS, Card, Rank
from strategy_calc.errors import InputError

ONE_DECK_COUNTS = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
"""Cards of each rank in one deck, ace first, ten-valued last."""
DIVISORS = {"deck": 52, "half-deck": 26}
"""The true count's divisor: cards per deck, or per half deck."""
ROUNDINGS = ("exact", "floor", "truncate", "round")
"""How a true count is rounded: not at all, down, towards 0, to the nearest (halves up)."""
DECK_ESTIMATIONS = ("exact", "half", "whole")
"""How the decks unseen a true count divides by are judged (``count --deck-estimation``):
exactly (cards unseen / 52), or from the discard tray to the nearest half deck or deck
(:func:`estimated_decks`)."""
RED_SUITS = frozenset("hd")
"""Hearts and diamonds (the suit letters of :data:`strategy_calc.cards.SUITS`)."""
RANK_KEYS = tuple(r.symbol for r in RANKS)
"""The tag table's keys: ``A``, ``2`` .. ``9``, ``T``."""


def estimated_decks(unseen_cards: int, estimation: str) -> float:
    """The decks unseen as a player judges them from the discard tray, in decks of 52:
    ``exact``: ``unseen_cards / 52``; ``half``: to the nearest half deck (26 cards), a tie
    (13, 39, 65, ... cards) rounded up to the larger estimate, and never below half a
    deck (the end of a shoe, 0 to 38 cards, reads as half a deck); ``whole``: to the
    nearest deck, a tie (26, 78, ... cards) rounded up, never below one deck (0 to 77
    cards read as one).

    >>> [estimated_decks(n, "half") for n in (30, 12, 13, 38, 39, 65, 156)]
    [0.5, 0.5, 0.5, 0.5, 1.0, 1.5, 3.0]
    >>> [estimated_decks(n, "whole") for n in (30, 77, 78, 129, 130)]
    [1.0, 1.0, 2.0, 2.0, 3.0]
    >>> estimated_decks(30, "tenth")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: unknown --deck-estimation 'tenth': choose from exact, ...
    """
    if estimation == "exact":
        return unseen_cards / 52
    if estimation == "half":
        return max(1, (unseen_cards + 13) // 26) / 2
    if estimation == "whole":
        return float(max(1, (unseen_cards + 26) // 52))
    raise InputError(f"unknown --deck-estimation {estimation!r}: choose from"
                     f" {', '.join(DECK_ESTIMATIONS)}")


@dataclass(frozen=True, slots=True)
class CountSystem:
    """A card-counting system: a tag per rank (ace first, ten-valued last), in whole or
    half points.

    ``red_seven``: Red 7's rule, a red seven's tag (``tags`` then holds a black seven's);
    a seven whose suit is not known counts the mean of the two. ``side_counts``: ranks
    counted apart, by name (e.g. ``{"aces": (1,)}``). ``irc`` and ``pivot``, for an
    unbalanced system: the initial running count per deck of the shoe plus a constant
    (``irc = (per_deck, constant)``: KO's 4 - 4 x decks is ``(-4, 4)``) and the running
    count at which it is read as the published key count.
    """

    name: str
    tags: tuple[float, ...]
    divisor: str = "deck"
    rounding: str = "exact"
    source: str = ""
    red_seven: float | None = None
    side_counts: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    irc: tuple[float, float] | None = None
    pivot: float | None = None

    def __post_init__(self) -> None:
        where = f"count system {self.name!r}"
        if len(self.tags) != len(RANKS):
            raise InputError(f"{where}: {len(RANKS)} tags needed (A..T), not {len(self.tags)}")
        for t in (*self.tags, *(() if self.red_seven is None else (self.red_seven,))):
            if not math.isfinite(t) or t * 2 != round(t * 2) or abs(t) > 16:
                raise InputError(f"{where}: a tag is a whole or half number from -16 to 16,"
                                 f" not {t}")
        if not any(self.tags) and not self.red_seven:
            raise InputError(f"{where}: every tag is 0")
        if self.divisor not in DIVISORS:
            raise InputError(f"{where}: divisor is one of {', '.join(DIVISORS)},"
                             f" not {self.divisor!r}")
        if self.rounding not in ROUNDINGS:
            raise InputError(f"{where}: rounding is one of {', '.join(ROUNDINGS)},"
                             f" not {self.rounding!r}")
        for side, ranks in self.side_counts.items():
            if not ranks or any(not 1 <= r <= 10 for r in ranks):
                raise InputError(f"{where}: side count {side!r} needs ranks among A..T")

    def tag(self, rank: Rank) -> float:
        """The tag of one card of ``rank`` whose suit is not known (for Red 7's seven: the
        mean of a red and a black one's); whole tags are ``int``."""
        value = self.tags[rank - 1]
        if rank is Rank.SEVEN and self.red_seven is not None:
            value = (value + self.red_seven) / 2
        return int(value) if value == int(value) else value

    def tag_card(self, card: Card) -> float:
        """The tag of ``card`` (its suit read for Red 7's seven)."""
        if card.rank is Rank.SEVEN and self.red_seven is not None and card.suit is not None:
            return self.red_seven if card.suit in RED_SUITS else self.tags[6]
        return self.tag(card.rank)

    def side_weights(self, effects: Sequence[float]) -> dict[str, float]:
        """Per side count, the running-count points one card of its ranks seen is worth
        when bets are sized (Griffin's linear model, *The Theory of Blackjack*): the ranks
        outside every side count fix the scale ``s`` of the tags, the least-squares slope of
        the effects of removal on them (``sum n t e / sum n t^2``, ``n`` cards of a rank
        in a deck, ``e`` the effect on the game's EV of removing one card of it, in the
        order A..T); a rank's ideal tag is ``e / s``, and a side count carries what its
        ranks' ideal tags add to their tags in the main count (their mean over the cards).
        The bet's running count is then ``running + weight * (seen - expected seen)`` for
        each side count. With effects proportional to Hi-Lo's tags (the ace's included), a
        Hi-Opt I-like count's ace side count carries exactly Hi-Lo's ace tag, -1:

        >>> hi_opt = CountSystem("x", (0, 0, 1, 1, 1, 1, 0, 0, 0, -1), side_counts={"a": (1,)})
        >>> hi_opt.side_weights([0.001 * t for t in HILO.tags])
        {'a': -1.0}
        """
        sided = {r for ranks in self.side_counts.values() for r in ranks}
        pairs = [(n, t, e) for rank, (n, t, e) in enumerate(
            zip(ONE_DECK_COUNTS, self.tags, effects, strict=True), start=1) if rank not in sided]
        scale = (sum(n * t * e for n, t, e in pairs) / sum(n * t * t for n, t, _e in pairs)
                 if any(t for _n, t, _e in pairs) else 0.0)
        if scale <= 0.0:
            raise InputError(f"count system {self.name!r}: its tags do not follow the effects"
                             " of removal (no positive scale), so its side counts cannot be"
                             " weighed")
        out: dict[str, float] = {}
        for name, ranks in self.side_counts.items():
            cards = sum(ONE_DECK_COUNTS[r - 1] for r in ranks)
            out[name] = sum(ONE_DECK_COUNTS[r - 1] * (effects[r - 1] / scale - self.tags[r - 1])
                            for r in ranks) / cards
        return out

    @property
    def deck_sum(self) -> float:
        """The tags of one deck summed (0 for a balanced system; Red 7: two red sevens)."""
        return _deck_sum(self.tags, self.red_seven)

    @property
    def balanced(self) -> bool:
        """A whole deck's tags sum to 0."""
        return self.deck_sum == 0

    def true_count(self, running: float, unseen_cards: int,
                   estimation: str = "exact") -> float:
        """The running count per deck (or half deck) of ``unseen_cards``, rounded as the
        system says; ``estimation``: the decks unseen as a player judges them
        (:func:`estimated_decks`; ``exact``: ``unseen_cards / 52``).

        >>> [CountSystem("x", HILO.tags, rounding=r).true_count(-7, 78) for r in ROUNDINGS]
        [-4.666666666666667, -5, -4, -5]
        >>> CountSystem("x", HILO.tags, divisor="half-deck").true_count(7, 78)
        2.3333333333333335
        >>> HILO.true_count(3, 70, "half"), HILO.true_count(3, 70, "whole")  # 1.35 decks
        (2.0, 3.0)
        """
        if estimation == "exact":
            value = running * DIVISORS[self.divisor] / unseen_cards
        else:
            value = running * DIVISORS[self.divisor] / (52 * estimated_decks(unseen_cards,
                                                                               estimation))
        if self.rounding == "floor":
            return math.floor(value)
        if self.rounding == "truncate":
            return math.trunc(value)
        if self.rounding == "round":
            return math.floor(value + 0.5)
        return value

    def true_counts(self, running: np.ndarray, unseen_cards: np.ndarray) -> np.ndarray:
        """:meth:`true_count` of many counts at once, the decks unseen known exactly: the
        same floating-point operations element by element, so the same values.

        >>> system = CountSystem("x", HILO.tags, rounding="round")
        >>> running, unseen = np.array([-7.0, 3.0, 2.5]), np.array([78, 70, 52])
        >>> system.true_counts(running, unseen).tolist() == [
        ...     system.true_count(r, u) for r, u in zip([-7.0, 3.0, 2.5], [78, 70, 52])]
        True
        """
        value: np.ndarray = running * DIVISORS[self.divisor] / unseen_cards
        if self.rounding == "floor":
            value = np.floor(value)
        elif self.rounding == "truncate":
            value = np.trunc(value)
        elif self.rounding == "round":
            value = np.floor(value + 0.5)
        return value

    def initial_running_count(self, decks: int) -> float:
        """The running count before the first card: 0, or an unbalanced system's IRC."""
        if self.irc is None:
            return 0
        per_deck, constant = self.irc
        return per_deck * decks + constant

    def require_balanced(self, what: str) -> CountSystem:
        """This system, or one ``error:`` line saying ``what`` needs a balanced one."""
        if not self.balanced:
            raise InputError(f"count system {self.name!r} is unbalanced (a deck sums to"
                             f" {self.deck_sum:+g}): {what} reads a true count, which needs a"
                             " balanced system (strategy-calc counts lists them)")
        return self

    def as_dict(self) -> dict[str, Any]:
        """The ``counts --json`` entry (the contract's keys, plus rounding and, where
        they apply, the red seven's tag, the IRC and the pivot)."""
        out: dict[str, Any] = {
            "tags": {k: _num(t) for k, t in zip(RANK_KEYS, self.tags, strict=True)},
            "balanced": self.balanced, "deck_sum": self.deck_sum,
            "side_counts": {k: [Rank(r).symbol for r in v] for k, v in self.side_counts.items()},
            "divisor": self.divisor, "rounding": self.rounding, "source": self.source,
        }
        if self.red_seven is not None:
            out["red_seven"] = _num(self.red_seven)
        if self.irc is not None:
            out["irc"] = {"per_deck": _num(self.irc[0]), "constant": _num(self.irc[1])}
        if self.pivot is not None:
            out["pivot"] = _num(self.pivot)
        return out


def _num(x: float) -> float:
    return int(x) if x == int(x) else x


_BRE = "Blackjack Review Network's count encyclopedia; QFIT"
HILO = CountSystem("hilo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
                   source="Harvey Dubner (1963); Stanford Wong, Professional Blackjack")
"""Hi-Lo: 2-6 count +1, 7-9 count 0, ten-valued cards and aces count -1."""

COUNT_SYSTEMS: Mapping[str, CountSystem] = {s.name: s for s in (
    HILO,
    CountSystem("ko", (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1), irc=(-4, 4), pivot=4,
                source="Vancura and Fuchs, Knock-Out Blackjack (1998): IRC 4 - 4 x decks,"
                       " key count +4"),
    CountSystem("hiopt1", (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
                source="Hi-Opt I (Humble and Cooper, The World's Greatest Blackjack Book);"
                       f" {_BRE}"),
    CountSystem("hiopt2", (0, 1, 1, 2, 2, 1, 1, 0, 0, -2), side_counts={"aces": (1,)},
                source=f"Hi-Opt II (Lance Humble); {_BRE}; played with an ace side count"),
    CountSystem("omega2", (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
                source=f"Omega II (Bryce Carlson, Blackjack for Blood); {_BRE}"),
    CountSystem("zen", (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
                source=f"Zen Count (Arnold Snyder, Blackbelt in Blackjack); {_BRE}"),
    CountSystem("halves", (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1),
                source=f"Wong Halves (Stanford Wong, Professional Blackjack); {_BRE}"),
    CountSystem("red7", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), red_seven=1, irc=(-2, 0),
                pivot=0, source="Red Seven (Arnold Snyder, Blackbelt in Blackjack): red sevens"
                                " +1, black 0; IRC -2 x decks, pivot 0"),
    CountSystem("uston-apc", (0, 1, 2, 2, 3, 2, 2, 1, -1, -3), side_counts={"aces": (1,)},
                source=f"Uston Advanced Point Count (Ken Uston, Million Dollar Blackjack);"
                       f" {_BRE}; played with an ace side count"),
)}
"""The built-in systems by name."""

ALIASES = {"hiopti": "hiopt1", "hioptii": "hiopt2", "omegaii": "omega2", "wonghalves": "halves",
           "knockout": "ko", "redseven": "red7", "apc": "uston-apc", "zencount": "zen"}
"""Other spellings than the names (case, spaces, dashes and underscores are ignored)."""


def find_system(spec: str) -> CountSystem:
    """The built-in system called ``spec`` (case, spaces, ``-`` and ``_`` ignored), or the
    system in the TOML file ``spec`` (a path ending ``.toml``, or one that exists).

    >>> find_system("Hi-Lo").name, find_system("Wong Halves").name
    ('hilo', 'halves')
    >>> find_system("hi-lo-lite")
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: unknown count system 'hi-lo-lite' (built in: hilo, ko, \
hiopt1, hiopt2, omega2, zen, halves, red7, uston-apc; or a TOML file)
    """
    key = "".join(c for c in spec.strip().lower() if c not in " -_")
    for name in COUNT_SYSTEMS:
        if key == name.replace("-", ""):
            return COUNT_SYSTEMS[name]
    if key in ALIASES:
        return COUNT_SYSTEMS[ALIASES[key]]
    path = Path(spec)
    if spec.endswith(".toml") or path.exists():
        return read_system(path)
    raise InputError(f"unknown count system {spec!r} (built in: {', '.join(COUNT_SYSTEMS)};"
                     " or a TOML file)")


_FILE_KEYS = {"name", "tags", "divisor", "rounding", "source", "red_seven", "side_counts"}


def read_system(path: Path) -> CountSystem:
    """The count system of a TOML file (format: the module's doc); any fault in it is one
    :class:`~strategy_calc.errors.InputError` naming the file."""
    where = f"count system file {str(path)!r}"
    if path.is_dir():
        raise InputError(f"{where} is a folder, not a TOML file")
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{where}: {' '.join(str(exc).split())}") from None
    unknown = sorted(set(table) - _FILE_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}"
                         f" (keys: {', '.join(sorted(_FILE_KEYS))})")
    values = _file_tags(table.get("tags"), where)
    strings = {k: table.get(k, d) for k, d in (("name", path.stem), ("divisor", "deck"),
                                                 ("rounding", "exact"), ("source", str(path)))}
    for k, v in strings.items():
        if not isinstance(v, str):
            raise InputError(f"{where}: {k} is a string, not {v!r}")
    red = table.get("red_seven")
    if red is not None and (isinstance(red, bool) or not isinstance(red, int | float)):
        raise InputError(f"{where}: red_seven is a number, not {red!r}")
    return CountSystem(strings["name"], values, strings["divisor"], strings["rounding"],
                       strings["source"], red, _file_side_counts(table.get("side_counts", {}),
                                                                  where))


def _file_tags(tags: object, where: str) -> tuple[float, ...]:
    """A file's ``tags`` table, ace first."""
    if not isinstance(tags, dict):
        raise InputError(f"{where}: needs a tags table, e.g. tags = {{ A = -1, 2 = 1, ... }}")
    keys = {str(k).upper(): v for k, v in tags.items()}
    if "10" in keys and "T" not in keys:
        keys["T"] = keys.pop("10")
    missing = [k for k in RANK_KEYS if k not in keys]
    extra = sorted(set(keys) - set(RANK_KEYS))
    if missing or extra:
        raise InputError(f"{where}: tags needs exactly A, 2..9, T"
                         + (f"; missing {', '.join(missing)}" if missing else "")
                         + (f"; unknown {', '.join(extra)}" if extra else ""))
    values: list[float] = []
    for k in RANK_KEYS:
        v = keys[k]
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise InputError(f"{where}: the tag of {k} is a number, not {v!r}")
        values.append(v)
    return tuple(values)


def _file_side_counts(sides: object, where: str) -> dict[str, tuple[int, ...]]:
    """A file's ``side_counts`` table: name -> ranks."""
    if not isinstance(sides, dict):
        raise InputError(f"{where}: side_counts is a table of rank lists")
    side_counts: dict[str, tuple[int, ...]] = {}
    for side, ranks in sides.items():
        if not isinstance(ranks, list) or not all(
                isinstance(r, str | int) and str(r).upper() in (*RANK_KEYS, "10") for r in ranks):
            raise InputError(f"{where}: side count {side!r} is a list of ranks, e.g. [\"A\"]")
        side_counts[side] = tuple(10 if str(r).upper() in ("T", "10")
                                  else RANK_KEYS.index(str(r).upper()) + 1 for r in ranks)
    return side_counts


__all__ = ["COUNT_SYSTEMS", "HILO", "CountSystem", "find_system", "read_system"]


@functools.lru_cache(maxsize=64)
def _deck_sum(tags: tuple[float, ...], red_seven: float | None) -> float:
    """:attr:`CountSystem.deck_sum` of these tags, exact (read before every round of a
    count: made once per system)."""
    total = sum(Fraction(t) * n for t, n in zip(tags, ONE_DECK_COUNTS, strict=True))
    if red_seven is not None:
        total += 2 * (Fraction(red_seven) - Fraction(tags[6]))
    return int(total) if total.denominator == 1 else float(total)
