"""Bonus hands as data: a ruleset's table of hands paid at once (Macau 1983 Art. 9's
suited 6-7-8 and 7-7-7 are two of its rows), read from TOML or ``--set`` text.

A row is a multiset of ranks (three or more cards, hard total at most 21: a hand that is
still live when it is made), whether its cards must be of one suit, the payout (a
multiple of the hand's bet), whether the paid hand is settled or also stands against the
dealer, and whether split hands count. A hand is paid when its cards, as dealt, are
exactly a row's ranks (a doubled hand never: doubling takes its one card, no bonus); a
hand that matches two rows (a suited 6-7-8 under rows for "suited 6-7-8" and "6-7-8")
is paid the higher payout once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from strategy_calc.cards import RANK_SYMBOLS, SUITED_RANKS
from strategy_calc.rules.fields import RulesError, coerce

SUITED_ROW = tuple(int(r) for r in SUITED_RANKS)
"""The one multiset a suited row may have today: the engine tracks suits for the 6-7-8
(and a split 6, 7 or 8's) only (docs/MODEL.md, "Bonus hands")."""

BonusRows = tuple[tuple[tuple[int, ...], float, bool], ...]
"""The engine's form of a hand's bonus rows of any suits: ``(cards of each rank 1..10,
payout in units of the bet, the paid hand also stands)`` each."""

ROW_KEYS = ("cards", "pays", "suited", "settles", "split_hands")
"""The keys of a TOML row (``{cards = "6-7-8", pays = 3, suited = true}``)."""


@dataclass(frozen=True, slots=True)
class BonusHand:
    """One row of a bonus table: a hand paid ``pays`` times its bet at once.

    >>> row = BonusHand((7, 7, 7), 5.0, suited=False)
    >>> str(row), row.counts
    ('7-7-7=5', (0, 0, 0, 0, 0, 0, 3, 0, 0, 0))
    """

    ranks: tuple[int, ...]
    """The hand's ranks (1 = ace .. 10 = ten-valued), in rank order, three or more."""
    pays: float
    """The bonus, a multiple of the hand's bet (> 0), paid at once when the hand is made
    (also against a dealer ace or his blackjack)."""
    suited: bool = False
    """The cards must all be of one suit (else any suits)."""
    settles: bool = True
    """The paid hand is settled; false: it also stands (takes no more cards) and is
    settled against the dealer like any standing hand of its total."""
    split_hands: bool = True
    """Split hands are paid too."""

    def __post_init__(self) -> None:
        ranks = tuple(sorted(self.ranks))
        object.__setattr__(self, "ranks", ranks)
        if len(ranks) < 3 or not all(isinstance(r, int) and 1 <= r <= 10 for r in ranks):
            raise RulesError(f"a bonus hand has three or more cards of ranks A, 2..9, T,"
                             f" not {self.ranks!r}")
        if sum(ranks) > 21:
            raise RulesError(f"bonus hand {self.cards} is bust (hard total over 21): it is"
                             " never made")
        if isinstance(self.pays, bool) or not math.isfinite(self.pays) or self.pays <= 0:
            raise RulesError(f"a bonus hand pays a finite number > 0, not {self.pays!r}")
        if self.suited and ranks != SUITED_ROW:
            raise RulesError(f"suited bonus hand {self.cards}: only a suited 6-7-8 is"
                             " modelled (suits are tracked for 6, 7 and 8); a row of any"
                             " suits (suited = false) takes any ranks")

    @property
    def cards(self) -> str:
        """The ranks as text: ``6-7-8``."""
        return "-".join(RANK_SYMBOLS[r - 1] for r in self.ranks)

    @property
    def counts(self) -> tuple[int, ...]:
        """Cards of each rank 1..10 (the engine's form of the hand)."""
        return tuple(self.ranks.count(r) for r in range(1, 11))

    def matches(self, ranks: Sequence[int], suits: Sequence[object], split: bool) -> bool:
        """Whether a hand of these ranks and suits (``None``: unknown) is paid by this row.

        >>> BonusHand((6, 7, 8), 3.0, suited=True).matches([8, 6, 7], ["s", "s", "s"], False)
        True
        """
        if split and not self.split_hands:
            return False
        if tuple(sorted(ranks)) != self.ranks:
            return False
        return not self.suited or (len(set(suits)) == 1 and None not in suits)

    def as_dict(self) -> dict[str, Any]:
        """The row as TOML/JSON keys."""
        return {"cards": self.cards, "pays": self.pays, "suited": self.suited,
                "settles": self.settles, "split_hands": self.split_hands}

    def __str__(self) -> str:
        words = (["suited"] if self.suited else []) + [f"{self.cards}={self.pays:g}"]
        words += ([] if self.settles else ["plays-on"]) + (
            [] if self.split_hands else ["not-split"])
        return " ".join(words)


def engine_rows(rows: Sequence[BonusHand]) -> BonusRows:
    """Rows of any suits in the engine's form (:data:`BonusRows`).

    >>> engine_rows([BonusHand((7, 7, 7), 3.0, settles=False)])
    (((0, 0, 0, 0, 0, 0, 3, 0, 0, 0), 3.0, True),)
    """
    return tuple((row.counts, row.pays, not row.settles) for row in rows)


def _ranks(text: str, raw: Any) -> tuple[int, ...]:
    """``6-7-8`` (or ``6,7,8``, ``678``) as ranks; J, Q, K and 10 read as T."""
    symbols = text.upper().replace("10", "T").replace(",", " ").replace("-", " ").split()
    if len(symbols) == 1:
        symbols = list(symbols[0])
    ranks = []
    for s in symbols:
        s = "T" if s in ("J", "Q", "K") else s
        if s not in RANK_SYMBOLS:
            raise RulesError(f"invalid bonus hand {raw!r}: unknown rank {s!r} (ranks A, 2..9,"
                             " T; e.g. \"suited 6-7-8=3; 7-7-7=3\")")
        ranks.append(RANK_SYMBOLS.index(s) + 1)
    return tuple(ranks)


def parse_row(text: str) -> BonusHand:
    """One row from text: ``[suited ]CARDS=PAYS[ plays-on][ not-split]``.

    >>> parse_row("suited 6-7-8=3 plays-on")
    BonusHand(ranks=(6, 7, 8), pays=3.0, suited=True, settles=False, split_hands=True)
    """
    words = text.split()
    suited = bool(words) and words[0].lower() == "suited"
    words = words[1:] if suited else words
    flags = {w.lower() for w in words[1:]}
    if not words or "=" not in words[0] or flags - {"plays-on", "not-split"}:
        raise RulesError(f"invalid bonus hand {text!r} (expected [suited ]CARDS=PAYS"
                         " [plays-on] [not-split], e.g. \"suited 6-7-8=3\")")
    cards, _, pays = words[0].partition("=")
    return BonusHand(_ranks(cards, text), coerce("bonus hand pays", float, pays, True), suited,
                     "plays-on" not in flags, "not-split" not in flags)


def _row_from_table(raw: Any) -> BonusHand:
    """One row from a TOML table (keys :data:`ROW_KEYS`) or a text row."""
    if isinstance(raw, str):
        return parse_row(raw)
    if not isinstance(raw, dict) or set(raw) - set(ROW_KEYS) or not {"cards", "pays"} <= set(raw):
        raise RulesError(f"invalid bonus hand {raw!r} (a table with cards and pays, and"
                         " optionally suited, settles, split_hands; or text such as"
                         " \"suited 6-7-8=3\")")
    flags = {k: coerce(f"bonus hand {k}", bool, raw.get(k, d), False)
             for k, d in (("suited", False), ("settles", True), ("split_hands", True))}
    if not isinstance(raw["cards"], str):
        raise RulesError(f"invalid bonus hand {raw!r}: cards is text such as \"6-7-8\"")
    return BonusHand(_ranks(raw["cards"], raw), coerce("bonus hand pays", float, raw["pays"],
                                                       False), **flags)


def parse_bonus_hands(raw: Any, from_text: bool) -> tuple[BonusHand, ...]:
    """A bonus table: ``--set`` text (rows separated by ``;``, ``none`` or empty for no
    rows) or a TOML array (of tables or text rows).

    >>> [str(r) for r in parse_bonus_hands("suited 7-6-8=5; 7-7-7=3 not-split", True)]
    ['suited 6-7-8=5', '7-7-7=3 not-split']
    >>> parse_bonus_hands([{"cards": "A-A-A", "pays": 2}], False)[0].ranks
    (1, 1, 1)
    """
    if from_text:
        text = str(raw).strip()
        rows = [] if text.lower() in ("", "none", "[]") else [
            parse_row(part) for part in text.split(";") if part.strip()]
    elif isinstance(raw, list):
        rows = [_row_from_table(item) for item in raw]
    else:
        raise RulesError(f"invalid value {raw!r} for bonus_hands (an array of rows such as"
                         " {cards = \"6-7-8\", pays = 3, suited = true})")
    check_table(rows)
    return tuple(rows)


def check_table(rows: Sequence[BonusHand]) -> None:
    """Refuse a row given twice, and rows of one multiset that settle differently (the
    paid hand is settled or stands: one rule per hand)."""
    seen: dict[tuple[int, ...], BonusHand] = {}
    for row in rows:
        other = seen.get(row.ranks)
        if other is not None and other.suited == row.suited:
            raise RulesError(f"bonus hand {row.cards} ({'suited' if row.suited else 'any'}"
                             " suits) is given twice")
        if other is not None and other.settles != row.settles:
            raise RulesError(f"the rows for {row.cards} must agree on settles (a paid hand"
                             " is settled or stands)")
        suited, plain = (row, other) if row.suited else (other, row)
        if suited is not None and plain is not None and suited.pays <= plain.pays:
            raise RulesError(f"the suited row for {row.cards} must pay more than its row of"
                             " any suits (a suited hand is paid the higher row)")
        seen[row.ranks] = row
