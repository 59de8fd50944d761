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
from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from strategy_calc.errors import missing_engine

try:
    from strategy_calc import _engine
except ImportError as _missing:  # the source tree without a build, most often
    raise missing_engine(_missing) from None
from strategy_calc.blackjack.hand_rules import dealer_draws
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
from strategy_calc.sidebets.events import LOSE, MORE, End, Event, under_dealer_rule
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
    ``lose`` (the rest). An event on the dealer's whole hand (Buster) is counted by
    :func:`dealer_busts`, a baccarat event on how the round ends by the engine's deal
    grid (:func:`end_probabilities`), the others by a walk over sequences of card types."""
    if event.hits_soft_17 is not None:
        return _buster_lines(event, shoe)
    if event.settle_end is not None:
        return end_probabilities(event, shoe)
    if event.game == "baccarat" and shoe.cards_left < BACCARAT_CARDS:
        raise CardError(f"only {shoe.cards_left} cards left: a baccarat round needs"
                        f" {BACCARAT_CARDS}")
    if not any(shoe.unknown):
        return _known_suits(event, shoe)
    return by_sequence(event, shoe)


def by_sequence(event: Event, shoe: FaceShoe) -> dict[str, float]:
    """:func:`line_probabilities` by a loop over the event's paying sequences (any shoe)."""
    n = shoe.cards_left
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


@cache
def _tables(event: Event) -> tuple[tuple[int, np.ndarray, np.ndarray, np.ndarray], ...]:
    """The event's paying sequences as arrays, by length ``L``: per sequence its line's
    index, and ``L`` columns of (card type, cards of that type before it in the sequence),
    so that its weight ``prod_t ff(known_t, m_t)`` is the product over the columns of
    ``known[type] - before``."""
    lines = {line: i for i, line in enumerate(event.lines)}
    by_length: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {}
    for seq in settled(event):
        columns = [(t, j) for t, m in seq.types for j in range(m)]
        by_length.setdefault(seq.length, []).append((lines[seq.line], columns))
    out = []
    for length, rows in sorted(by_length.items()):
        line = np.array([r[0] for r in rows], dtype=np.intp)
        types = np.array([[c[0] for c in r[1]] for r in rows], dtype=np.intp)
        before = np.array([[c[1] for c in r[1]] for r in rows], dtype=np.float64)
        out.append((length, line, types, before))
    return tuple(out)


def _known_suits(event: Event, shoe: FaceShoe) -> dict[str, float]:
    """:func:`line_probabilities` for a shoe with no card out of unknown suit, over arrays:
    each sequence's weight is a product of at most a few integers below the shoe's size,
    exact in floating point, divided by the draws as the loop divides them, and each line
    summed by ``math.fsum``: the same numbers, bit for bit, at a fraction of the time."""
    n = shoe.cards_left
    known = np.array([count for row in shoe.known for count in row], dtype=np.float64)
    parts: dict[int, list[float]] = {i: [] for i in range(len(event.lines))}
    for length, line, types, before in _tables(event):
        draws = falling(n, length)
        if draws == 0:
            raise CardError(f"only {n} cards left: {event.name} looks at {length}")
        p = np.clip(known[types] - before, 0.0, None).prod(axis=1) / float(draws)
        for i in parts:
            parts[i].extend(p[line == i].tolist())
    sums = {ln: math.fsum(parts[i]) for i, ln in enumerate(event.lines)}
    sums[LOSE] = 1.0 - math.fsum(sums.values())
    return sums


RANK_FACES = 10
"""Blackjack ranks, ace first, the ten-valued faces together (the dealer reads values)."""


@dataclass(frozen=True, slots=True)
class DealerBusts:
    """The dealer's busted hands by number of cards, for one shoe and dealer rule."""

    cards: dict[int, float]
    """Per number of cards (3 and more): the probability that the dealer busts with them."""
    player_blackjack: dict[int, float]
    """Per number of cards: the probability that the dealer busts with them *and* the
    player's first two cards are a blackjack."""


@lru_cache(maxsize=4096)
def dealer_busts(counts: tuple[int, ...], h17: bool) -> DealerBusts:
    """The dealer's final hand by number of cards, where he busts, for a shoe of ``counts``
    cards per rank (ace first, tens last; :data:`RANK_FACES`), dealt from the top.

    Exact: the dealer's hand is a sequence of draws without replacement until he stops
    (17 or more, a soft 17 drawing under ``h17``); his state depends on the *set* of cards
    drawn only (total, ace, number, cards left), so the hands are summed forward over sets:
    ``P(D + r) += P(D) (c_r - d_r) / (N - |D|)`` for every set ``D`` on which he still
    draws. The player's cards and play before the dealer do not change this distribution
    (docs/MODEL.md "Buster"): a card drawn after any play of a well-shuffled shoe is
    distributed as the next card of the shoe. A player blackjack is then the next two
    cards an ace and a ten-valued card (the player's first two cards, moved after the
    dealer's by exchangeability). An error when the shoe could run out under him.

    >>> busts = dealer_busts((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), False)  # one deck, S17
    >>> round(sum(busts.cards.values()), 6)  # the engine's P(bust), one deck S17
    0.283585
    """
    n = sum(counts)
    # a set of drawn cards as an integer, four bits per rank (at most 15 of a rank: a hand
    # that still draws holds at most eleven aces); per set, its probability, hard total and
    # whether it holds an ace
    level: dict[int, tuple[float, int, bool]] = {0: (1.0, 0, False)}
    cards: dict[int, list[float]] = {}
    blackjack: dict[int, list[float]] = {}
    k = 0
    while level:
        left = n - k
        if left <= 0:
            raise CardError(f"the dealer could run out of cards in a shoe of {n}: Buster"
                            " needs the dealer to complete his hand")
        nxt: dict[int, tuple[float, int, bool]] = {}
        busts = cards.setdefault(k + 1, [])
        for drawn, (p, hard0, ace0) in level.items():
            for r in range(RANK_FACES):
                c = counts[r] - ((drawn >> (4 * r)) & 15)
                if c <= 0:
                    continue
                q = p * c / left
                hard, ace = hard0 + r + 1, ace0 or r == 0
                if k == 0 or dealer_draws(hard, ace, h17):
                    hand = drawn + (1 << (4 * r))
                    old = nxt.get(hand)
                    nxt[hand] = (q, hard, ace) if old is None else (old[0] + q, hard, ace)
                elif hard > 21:
                    busts.append(q)
                    if k + 1 >= 7:
                        rest = left - 1
                        if rest < 2:
                            raise CardError(f"a shoe of {n} cards could run out before the"
                                            " player's two cards of a 7-card bust")
                        hand = drawn + (1 << (4 * r))
                        aces = counts[0] - (hand & 15)
                        tens = counts[-1] - ((hand >> (4 * (RANK_FACES - 1))) & 15)
                        blackjack.setdefault(k + 1, []).append(
                            q * 2 * aces * tens / (rest * (rest - 1)))
        level, k = nxt, k + 1
    cards = {m: v for m, v in cards.items() if v}
    return DealerBusts({m: math.fsum(v) for m, v in sorted(cards.items())},
                       {m: math.fsum(v) for m, v in sorted(blackjack.items())})


def _buster_lines(event: Event, shoe: FaceShoe) -> dict[str, float]:
    """Buster's lines (:data:`~strategy_calc.sidebets.events.BUST_LINES`) for ``shoe``."""
    faces = shoe.face_counts
    counts = (*faces[:9], sum(faces[9:]))
    busts = dealer_busts(counts, bool(event.hits_soft_17))
    lines = dict.fromkeys(event.lines, 0.0)
    for m, p in busts.cards.items():
        bj = busts.player_blackjack.get(m, 0.0)
        if m >= 7:
            top = "8_or_more" if m >= 8 else "7"
            lines[f"bust_{top}_player_blackjack"] += bj
            lines[f"bust_{top}"] += p - bj
        else:
            lines[f"bust_{m}"] += p
    lines[LOSE] = 1.0 - math.fsum(lines.values())
    return lines


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


def for_dealer(bet: SideBet, hits_soft_17: bool) -> SideBet:
    """``bet`` dealt under a dealer who hits soft 17 or not (the ruleset's
    ``dealer_hits_soft_17``): bets on the dealer's whole hand read it (Buster), the
    others are unchanged.

    >>> from strategy_calc.sidebets.paytables import builtin_sidebet
    >>> for_dealer(builtin_sidebet("buster"), True).event.hits_soft_17
    True
    """
    return replace(bet, event=under_dealer_rule(bet.event, hits_soft_17))


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
