"""Baccarat: exact probabilities and EV of every bet for any remaining shoe.

The compiled engine counts every ordered 6-card deal of the cards left (cards
the round does not use are counted as dealt, as the published totals do) and
classifies it with the full third-card tableau; this module prices the counts
with the ruleset's payouts. Every EV is per unit bet, exact (a
:class:`~fractions.Fraction`) or its correctly rounded float.

The baccarat shoe has 13 ranks, ``A``, ``2`` .. ``9``, ``T``, ``J``, ``Q``,
``K``: they score the same as blackjack ranks mod 10 (T/J/Q/K are 0) but a
pair needs two cards of one rank (J-J is a pair, J-Q is not). The rules record,
:class:`~strategy_calc.rules.BaccaratRules`, is in :mod:`strategy_calc.rules`.

>>> from strategy_calc.rules import baccarat_rules
>>> odds = analyse(baccarat_rules("macau-baccarat"))
>>> odds.deals, odds.banker_wins, odds.player_wins, odds.ties
(4998398275503360, 2292252566437888, 2230518282592256, 475627426473216)
>>> {bet: f"{ev:+.4%}" for bet, ev in odds.ev.items()}  # doctest: +NORMALIZE_WHITESPACE
{'banker': '-1.0579%', 'player': '-1.2351%', 'tie': '-14.3596%',
 'player_pair': '-10.3614%', 'banker_pair': '-10.3614%'}
>>> odds.best, odds.best_is_positive
('banker', False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from strategy_calc.errors import missing_engine

try:
    from strategy_calc import _engine
except ImportError as _missing:  # the source tree without a build, most often
    raise missing_engine(_missing) from None
from strategy_calc.cards import (
    FACES,
    CardError,
    FaceShoe,
    parse_counts,
    parse_face_card,
    parse_face_cards,
)
from strategy_calc.engine import BACCARAT_CELLS
from strategy_calc.errors import InputError
from strategy_calc.rules import BET_NAMES as BET_NAMES
from strategy_calc.rules import BETS as BETS
from strategy_calc.rules import BaccaratRules

RANKS: tuple[str, ...] = FACES
"""The 13 baccarat ranks, in the order of every count tuple."""

POINTS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Baccarat value of each rank of :data:`RANKS` (A = 1, T/J/Q/K = 0)."""

MIN_CARDS = 6
"""A round can use six cards, so a shoe must hold at least this many."""


# The engine's grid (strategy_calc.engine.BACCARAT_CELLS): per cell, the deals ending with
# the Player's and the Banker's number of cards and points.
_BANKER_WIN = tuple(i for i, (_, _, p, b) in enumerate(BACCARAT_CELLS) if b > p and b != 6)
_BANKER_WIN_SIX = tuple(i for i, (_, _, p, b) in enumerate(BACCARAT_CELLS) if b > p and b == 6)
_PLAYER_WIN = tuple(i for i, (_, _, p, b) in enumerate(BACCARAT_CELLS) if p > b)
_TIE = tuple(i for i, (_, _, p, b) in enumerate(BACCARAT_CELLS) if p == b)


def parse_rank(text: str) -> str:
    """One baccarat card (``A``, ``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``) to its rank.

    An optional suit letter (``s``, ``h``, ``d``, ``c``) is accepted: it makes
    the card a particular one (a second 5 of hearts in one deck is an error).

    >>> parse_rank("10h"), parse_rank("q"), parse_rank("Ks")
    ('T', 'Q', 'K')
    >>> parse_rank("X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: unknown card 'X' (use A, 2-9, T, J, Q, K, ...)
    """
    return parse_face_card(text).face


def parse_ranks(cards: str | Iterable[str]) -> tuple[str, ...]:
    """Cards separated by commas or spaces (or an iterable of cards) to their ranks.

    >>> parse_ranks("5, 5 Kd,10")
    ('5', '5', 'K', 'T')
    """
    return tuple(card.face for card in parse_face_cards(cards))


def shoe_counts(decks: int, removed: str | Iterable[str] = ()) -> tuple[int, ...]:
    """Cards left of each rank of :data:`RANKS` in a ``decks``-deck shoe after ``removed``.

    >>> shoe_counts(1, "K,K,5")
    (4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 2)
    >>> shoe_counts(1, "J,J,J,J,J")
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: more Js than the 1-deck shoe holds
    >>> shoe_counts(1, "5h,5h")
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: more 5 of hearts than the 1-deck shoe holds
    """
    return FaceShoe.full(decks).remove(parse_face_cards(removed)).face_counts


def parse_shoe(text: str) -> tuple[int, ...]:
    """A baccarat shoe per face, every face of :data:`RANKS` once: ``A=32,2=32,...,K=32``.

    >>> sum(parse_shoe(",".join(f"{r}=4" for r in RANKS)))
    52
    >>> parse_shoe("A=4,T=16")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: --shoe: give every face A, 2..9, T, J, Q, K once; missing 2, ...
    """
    counts = parse_counts(text, RANKS, parse_rank, "face", "A, 2..9, T, J, Q, K",
                          "A=32,...,K=32")
    if sum(counts) < MIN_CARDS:
        raise CardError(f"--shoe: {sum(counts)} cards: a round needs {MIN_CARDS}")
    return counts


@dataclass(frozen=True, slots=True)
class BaccaratOdds:
    """Exact outcome counts of one baccarat shoe, priced by its rules.

    Counts are of ordered 6-card deals from the cards left (``deals`` in all);
    a probability is a count over ``deals``. All EVs are per unit bet, with
    Player and Banker bets pushing on a tie.
    """

    rules: BaccaratRules
    """The rules that price the bets."""
    counts: tuple[int, ...]
    """Cards left of each rank of :data:`RANKS`."""
    removed: tuple[str, ...]
    """Ranks of the cards removed from the full shoe (as given, suits dropped)."""
    deals: int
    """Ordered 6-card deals of the cards left: n (n-1) ... (n-5)."""
    banker_wins: int
    """Deals the Banker wins (any point)."""
    banker_wins_on_six: int
    """Deals the Banker wins with a point of 6 (included in ``banker_wins``)."""
    player_wins: int
    """Deals the Player wins."""
    ties: int
    """Deals that end in a tie."""
    player_pairs: int
    """Deals whose Player's first two cards have the same rank."""
    banker_pairs: int
    """Deals whose Banker's first two cards have the same rank."""

    @property
    def cards_left(self) -> int:
        """Number of cards left in the shoe."""
        return sum(self.counts)

    def exact_probabilities(self) -> dict[str, Fraction]:
        """Exact probability that each bet of :data:`BETS` wins (a tie for ``tie``).

        >>> analyse(BaccaratRules(decks=6)).exact_probabilities()["player_pair"]
        Fraction(23, 311)
        """
        wins = (self.banker_wins, self.player_wins, self.ties, self.player_pairs,
                self.banker_pairs)
        return {bet: Fraction(n, self.deals) for bet, n in zip(BETS, wins, strict=True)}

    @property
    def probabilities(self) -> dict[str, float]:
        """Probabilities of the three outcomes ``banker``, ``player``, ``tie`` (sum 1)."""
        exact = self.exact_probabilities()
        return {bet: float(exact[bet]) for bet in ("banker", "player", "tie")}

    def exact_ev(self) -> dict[str, Fraction]:
        """Exact EV per unit bet of each bet of :data:`BETS`.

        >>> analyse(BaccaratRules(decks=8)).exact_ev()["banker_pair"]
        Fraction(-43, 415)
        """
        r = self.rules
        n, tie = self.deals, self.ties
        banker = (r.payout("banker_pays") * (self.banker_wins - self.banker_wins_on_six)
                  + r.payout("banker_six_pays") * self.banker_wins_on_six - self.player_wins)
        player = r.payout("player_pays") * self.player_wins - self.banker_wins
        values = (
            banker,
            player,
            r.payout("tie_pays") * tie - (n - tie),
            r.payout("player_pair_pays") * self.player_pairs - (n - self.player_pairs),
            r.payout("banker_pair_pays") * self.banker_pairs - (n - self.banker_pairs),
        )
        return {bet: Fraction(v) / n for bet, v in zip(BETS, values, strict=True)}

    @property
    def ev(self) -> dict[str, float]:
        """EV per unit bet of each bet of :data:`BETS` (correctly rounded floats)."""
        return {bet: float(v) for bet, v in self.exact_ev().items()}

    @property
    def best(self) -> str:
        """The bet with the highest EV (the first of :data:`BETS` on equal EVs).

        It may still lose money: see :attr:`best_is_positive`.
        """
        exact = self.exact_ev()
        return max(BETS, key=lambda bet: exact[bet])

    @property
    def best_is_positive(self) -> bool:
        """True when the best bet has a positive expectation for this shoe."""
        return self.exact_ev()[self.best] > 0


def analyse_counts(
    rules: BaccaratRules, counts: Sequence[int], removed: Sequence[str] = ()
) -> BaccaratOdds:
    """Exact odds for a shoe given as cards left per rank of :data:`RANKS`.

    ``removed`` is only recorded in the result. Needs at least 6 cards.

    >>> odds = analyse_counts(BaccaratRules(), [0] * 9 + [6, 0, 0, 0])  # six tens
    >>> odds.exact_probabilities()["tie"], odds.exact_ev()["tie"]
    (Fraction(1, 1), Fraction(8, 1))
    """
    counts = tuple(counts)
    if len(counts) != len(RANKS) or any(c < 0 for c in counts):
        raise CardError(f"a shoe needs {len(RANKS)} non-negative rank counts")
    if sum(counts) < MIN_CARDS:
        raise CardError(f"only {sum(counts)} cards left: a round needs at least {MIN_CARDS}")
    deals, pairs, grid = _engine.baccarat_deal_counts(counts)
    on_six = sum([grid[i] for i in _BANKER_WIN_SIX])
    return BaccaratOdds(
        rules=rules,
        counts=counts,
        removed=tuple(removed),
        deals=deals,
        banker_wins=sum([grid[i] for i in _BANKER_WIN]) + on_six,
        banker_wins_on_six=on_six,
        player_wins=sum([grid[i] for i in _PLAYER_WIN]),
        ties=sum([grid[i] for i in _TIE]),
        player_pairs=pairs,
        banker_pairs=pairs,
    )


def analyse(rules: BaccaratRules, removed: str | Iterable[str] = ()) -> BaccaratOdds:
    """Exact odds of every bet for a ``rules.decks``-deck shoe less the ``removed`` cards.

    ``removed``: cards such as ``"5,5,K,8c"`` or an iterable of them; a suit
    only makes the card a particular one (baccarat pays no suits).

    >>> odds = analyse(BaccaratRules(decks=1), "9,9,9,9,8,8,8,8")
    >>> odds.best, round(odds.ev["player"], 6), round(odds.ev["banker"], 6)
    ('player', -0.010404, -0.012221)
    """
    cards = parse_face_cards(removed)
    counts = FaceShoe.full(rules.decks).remove(cards).face_counts
    return analyse_counts(rules, counts, tuple(card.face for card in cards))


def analyse_shoe(
    rules: BaccaratRules, counts: Sequence[int], removed: str | Iterable[str] = ()
) -> BaccaratOdds:
    """Exact odds for a shoe given per face (:func:`parse_shoe`'s counts, in the order
    of :data:`RANKS`) less the ``removed`` cards.

    >>> odds = analyse_shoe(BaccaratRules(), [0] * 9 + [7, 0, 0, 0], "T")  # seven tens less one
    >>> odds.removed, odds.exact_ev()["tie"]
    (('T',), Fraction(8, 1))
    >>> analyse_shoe(BaccaratRules(), [0] * 9 + [7, 0, 0, 0], "J")
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --removed: more Js than the --shoe holds
    """
    left = list(counts)
    gone = parse_face_cards(removed)
    for card in gone:
        i = RANKS.index(card.face)
        if left[i] == 0:
            raise InputError(f"--removed: more {card.face}s than the --shoe holds")
        left[i] -= 1
    return analyse_counts(rules, left, tuple(card.face for card in gone))


def effects_of_removal(odds: BaccaratOdds) -> dict[str, dict[str, Fraction] | None]:
    """For each rank of :data:`RANKS`, the exact change of each bet's EV per unit bet
    when one card of that rank is taken out of ``odds``' shoe.

    ``None`` for a rank with no card left, or when removing it would leave
    fewer than 6 cards.

    >>> eor = effects_of_removal(analyse(BaccaratRules(decks=8)))
    >>> f"{float(eor['4']['banker']):+.6f}", f"{float(eor['5']['banker']):+.6f}"
    ('+0.000116', '-0.000083')
    """
    base = odds.exact_ev()
    out: dict[str, dict[str, Fraction] | None] = {}
    for i, rank in enumerate(RANKS):
        if odds.counts[i] == 0 or odds.cards_left - 1 < MIN_CARDS:
            out[rank] = None
            continue
        counts = list(odds.counts)
        counts[i] -= 1
        after = analyse_counts(odds.rules, counts).exact_ev()
        out[rank] = {bet: after[bet] - base[bet] for bet in BETS}
    return out
