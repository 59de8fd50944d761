"""The exact odds of a side bet for any shoe: every line's probability, the EV, SD and the
effects of removal.

The shoe is counted per card (face and suit), a :class:`~strategy_calc.cards.FaceShoe`:
``known[f][s]`` cards of face ``f`` and suit ``s`` not known to be out, and ``unknown[f]``
more of face ``f`` out with their suits unknown. The enumeration runs over the distinct
cards (the 52 card types), each sequence of the cards an event looks at weighted by the
probability of drawing it without replacement. For a sequence holding ``m_t`` cards of type
``t`` (``j_f`` of face ``f``) drawn from ``N`` cards:

``P = prod_t ff(known_t, m_t) * prod_f ff(A_f, j_f) / ff(K_f, j_f) / ff(N, k)``

with ``ff(n, m) = n (n-1) .. (n-m+1)``, ``K_f`` the known cards of face ``f`` and ``A_f =
K_f - unknown_f`` those left: a given set of ``j_f`` physical cards of the face is still in
the shoe with probability ``ff(A_f, j_f) / ff(K_f, j_f)`` whatever their suits (the cards
out of unknown suit are a uniform random subset of the face's), which averages the unknown
suits out exactly (the pair bet's derivation, :class:`strategy_calc.blackjack.pair_bet.
PairShoe`). Without removals of unknown suit it is the plain draw ``c_1/N * c_2/(N-1)...``.

A baccarat event on how the round ends (:attr:`~strategy_calc.sidebets.events.Event.
settle_end`: each side's cards and point) needs up to six cards, too many for that walk:
the compiled engine counts every ordered 6-card deal of the cards left per face by how the
round ends (the baccarat bets' own count, :func:`strategy_calc.baccarat.odds.analyse`),
exactly in integers, and a line's probability is its deals over all of them. Suits do not
enter a baccarat round, so cards out of unknown suit only lower their face's count.

>>> from strategy_calc.sidebets.paytables import builtin_sidebet
>>> odds = price(builtin_sidebet("deluxe-pair"), FaceShoe.full(8))
>>> round(odds.ev * 415, 9)  # the pair bet's -17/415 (blackjack.pair_bet)
-17.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from strategy_calc.errors import missing_engine

try:
    from strategy_calc import _engine
except ImportError as _missing:  # the source tree without a build, most often
    raise missing_engine(_missing) from None
from strategy_calc.cards import (
    FACES,
    SUITS,
    CardError,
    FaceShoe,
    check_decks,
    decks_holding,
    parse_counts,
    parse_face,
    parse_face_cards,
)
from strategy_calc.engine import BACCARAT_CELLS
from strategy_calc.sidebets.events import LOSE, MORE, End, Event
from strategy_calc.sidebets.paytables import SideBet

TYPES = len(FACES) * len(SUITS)
"""The distinct cards: 13 faces times 4 suits."""


@dataclass(frozen=True, slots=True)
class Sequence:
    """One sequence of card types an event settles on a paying line, precomputed."""

    line: str
    """The line it settles on."""
    types: tuple[tuple[int, int], ...]
    """``(card type, how many)`` of the sequence."""
    faces: tuple[tuple[int, int], ...]
    """``(face, how many)`` of the sequence."""
    length: int
    """Cards in the sequence."""


@cache
def settled(event: Event) -> tuple[Sequence, ...]:
    """Every sequence of card types the event settles on a line (not :data:`LOSE`), whatever
    the shoe: a depth-first walk over the 52 types, each prefix settled or extended."""
    found: list[Sequence] = []
    settle = event.settle
    if settle is None:
        raise ValueError(f"event {event.name} is not settled on a sequence of cards")

    def walk(prefix: tuple[int, ...]) -> None:
        for t in range(TYPES):
            cards = (*prefix, t)
            outcome = settle(cards)
            if outcome == MORE:
                walk(cards)
            elif outcome != LOSE:
                types = Counter(cards)
                faces = Counter(c // len(SUITS) for c in cards)
                found.append(Sequence(outcome, tuple(types.items()), tuple(faces.items()),
                                      len(cards)))

    walk(())
    return tuple(found)


def falling(n: int, m: int) -> int:
    """``n (n-1) .. (n-m+1)``, 0 when ``m > n``."""
    return math.perm(n, m) if 0 <= m <= n else 0


@cache
def end_cells(event: Event) -> dict[str, tuple[int, ...]]:
    """Per line of a baccarat event (:attr:`Event.settle_end`), the cells of the engine's
    deal grid (:data:`strategy_calc.engine.BACCARAT_CELLS`) that settle on it."""
    settle = event.settle_end
    if settle is None:
        raise ValueError(f"event {event.name} is not settled on a baccarat round's end")
    cells: dict[str, list[int]] = {line: [] for line in event.lines}
    for i, cell in enumerate(BACCARAT_CELLS):
        outcome = settle(End(*cell))
        if outcome != LOSE:
            cells[outcome].append(i)
    return {line: tuple(found) for line, found in cells.items()}


BACCARAT_CARDS = 6
"""The most cards a baccarat round deals: a shoe must hold at least this many."""


def end_probabilities(event: Event, shoe: FaceShoe) -> dict[str, float]:
    """The probability of each line of a baccarat ``event`` for a round dealt from
    ``shoe``, and of ``lose``: the engine counts every ordered 6-card deal of the cards
    left by how the round ends (each side's cards and point), exactly, in integers."""
    counts = shoe.face_counts
    if sum(counts) < BACCARAT_CARDS:
        raise CardError(f"only {sum(counts)} cards left: a baccarat round needs"
                        f" {BACCARAT_CARDS}")
    deals, _, grid = _engine.baccarat_deal_counts(counts)
    wins = {line: sum(grid[i] for i in cells) for line, cells in end_cells(event).items()}
    sums = {line: n / deals for line, n in wins.items()}
    sums[LOSE] = (deals - sum(wins.values())) / deals
    return sums


def line_probabilities(event: Event, shoe: FaceShoe) -> dict[str, float]:
    """The probability of each line of ``event`` for the cards dealt from ``shoe``, and of
    ``lose`` (the rest)."""
    if event.settle_end is not None:
        return end_probabilities(event, shoe)
    n = shoe.cards_left
    if event.game == "baccarat" and n < BACCARAT_CARDS:
        raise CardError(f"only {n} cards left: a baccarat round needs {BACCARAT_CARDS}")
    known = [count for row in shoe.known for count in row]
    face_known = [sum(row) for row in shoe.known]
    face_left = [k - u for k, u in zip(face_known, shoe.unknown, strict=True)]
    terms: dict[str, list[float]] = {line: [] for line in event.lines}
    unknown = any(shoe.unknown)
    for seq in settled(event):
        draws = falling(n, seq.length)
        if draws == 0:
            raise CardError(f"only {n} cards left: {event.name} looks at {seq.length}")
        weight = 1
        for t, m in seq.types:
            weight *= falling(known[t], m)
        if weight == 0:
            continue
        p = weight / draws
        if unknown:
            for f, j in seq.faces:
                p *= falling(face_left[f], j) / falling(face_known[f], j)
        terms[seq.line].append(p)
    sums = {line: math.fsum(values) for line, values in terms.items()}
    sums[LOSE] = 1.0 - math.fsum(sums.values())
    return sums


@dataclass(frozen=True, slots=True)
class SideBetOdds:
    """A side bet's exact odds for one shoe, priced by one of its pay tables."""

    bet: SideBet
    """The bet."""
    paytable: str
    """The pay table's name."""
    shoe: FaceShoe
    """The shoe the round is dealt from."""
    probabilities: dict[str, float]
    """Per line of the event (best first), then ``lose``: its probability."""

    @property
    def pays(self) -> dict[str, float]:
        """Per line, what it wins per unit bet (``lose``: -1)."""
        table = self.bet.paytable(self.paytable)
        return {**{line: float(p) for line, p in table.items()}, LOSE: -1.0}

    @property
    def ev(self) -> float:
        """The EV per unit bet."""
        pays = self.pays
        return math.fsum(p * pays[line] for line, p in self.probabilities.items())

    @property
    def house_edge(self) -> float:
        """The house edge per unit bet (``-ev``)."""
        return -self.ev

    @property
    def sd(self) -> float:
        """The standard deviation of one unit bet's result."""
        pays = self.pays
        second = math.fsum(p * pays[line] ** 2 for line, p in self.probabilities.items())
        return math.sqrt(max(second - self.ev ** 2, 0.0))


def price(bet: SideBet, shoe: FaceShoe, paytable: str | None = None) -> SideBetOdds:
    """The exact odds of ``bet`` (its pay table ``paytable``, else its default) for
    ``shoe``."""
    chosen = bet.default if paytable is None else paytable
    bet.paytable(chosen)
    return SideBetOdds(bet, chosen, shoe, line_probabilities(bet.event, shoe))


def make_shoe(decks: int, removed: str | Iterable[str] = (), faces: str | None = None
              ) -> FaceShoe:
    """The shoe of ``decks`` full decks, or of ``faces`` (``--shoe A=N,...,K=N``: per face,
    suits unknown), less ``removed`` (cards such as ``5,Kh``; without a suit, a card of
    that face whose suit is unknown).

    >>> make_shoe(1, "Qh,Q").face_counts[11], make_shoe(6, faces="A=1,2=0,3=0,4=0,5=0,"
    ...     "6=0,7=0,8=0,9=0,T=0,J=0,Q=2,K=0").cards_left
    (2, 3)
    """
    if faces is None:
        shoe = FaceShoe.full(check_decks(decks))
    else:
        counts = parse_counts(faces, FACES, lambda t: _face_symbol(t), "face",
                              "A, 2..9, T, J, Q, K", "A=24,...,K=24")
        shoe = face_count_shoe(counts)
    return shoe.remove(parse_face_cards(removed))


def _face_symbol(token: str) -> str:
    face, suit = parse_face(token)
    if suit is not None:
        raise CardError(f"a face has no suit: {token!r}")
    return face


def face_count_shoe(counts: tuple[int, ...]) -> FaceShoe:
    """A shoe of ``counts`` cards per face (of :data:`FACES`), suits unknown: the cards of
    a shoe of enough decks for the largest face, less cards of unknown suit."""
    decks = max(decks_holding(sum(counts)), *(-(-c // len(SUITS)) for c in counts))
    check_decks(decks)
    full = FaceShoe.full(decks)
    return FaceShoe(decks, full.known,
                    tuple(sum(row) - c for row, c in zip(full.known, counts, strict=True)))


@dataclass(frozen=True, slots=True)
class Removal:
    """The effect on the EV of removing one card from the shoe."""

    card: str
    """The card removed: a face (suit unknown) or a face and suit."""
    effect: float | None
    """EV less the card minus the EV of the shoe (None: the shoe holds no such card)."""


def effects_of_removal(odds: SideBetOdds) -> tuple[tuple[Removal, ...], tuple[Removal, ...]]:
    """The effect on the EV of removing one card of each face (suit unknown), then of each
    face and suit."""
    base = odds.ev

    def effect(text: str) -> Removal:
        try:
            shoe = odds.shoe.remove(parse_face_cards(text))
        except CardError:
            return Removal(text, None)
        return Removal(text, price(odds.bet, shoe, odds.paytable).ev - base)

    by_face = tuple(effect(face) for face in FACES)
    by_card = tuple(effect(face + suit) for face in FACES for suit in SUITS)
    return by_face, by_card
