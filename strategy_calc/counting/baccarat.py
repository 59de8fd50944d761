"""Counting baccarat over dealt shoes, every hand's expectation exact.

A whole shoe is dealt per the ruleset's shoe procedure
(:func:`strategy_calc.rules.shoe.shoe_procedure`: Macau's first card shown and as many
cards as its value burnt, unseen, tens and faces counting 10; burns, demonstration
rounds, the cut card's range and the last-round rule), hands being dealt while more than
the cut card's place are left. Before each hand the bettor knows every card shown so
far (demonstration rounds' too); the burnt cards count as unseen.
The EV of each bet for the unseen cards is exact
(:func:`strategy_calc.baccarat.odds.analyse_counts`), and equals the EV for the
physical shoe averaged over what the burnt cards were. Shoes are seeded and
standard errors are over shoes (:mod:`strategy_calc.counting.sampling`).

>>> from strategy_calc.rules import baccarat_rules
>>> result = baccarat_count(baccarat_rules("macau-baccarat", decks=1), shoes=2, seed=1)
>>> result.shoes, result.hands > 10
(2, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from strategy_calc.baccarat.odds import BETS, POINTS, RANKS, analyse, analyse_counts
from strategy_calc.baccarat.odds import effects_of_removal as baccarat_eor
from strategy_calc.cards import FaceShoe
from strategy_calc.counting.dealing import DealtShoe
from strategy_calc.counting.sampling import Estimate, Progress, batches, mean_estimate, shoe_rng
from strategy_calc.counting.sidebets import (
    SideBetCount,
    SideBetRound,
    Trigger,
    face_card_types,
    placements,
    price_all,
    settle_baccarat,
    shoe_of,
)
from strategy_calc.counting.sidebets import summarise as summarise_sidebets
from strategy_calc.errors import InputError
from strategy_calc.parallel import run_all
from strategy_calc.rules import BaccaratRules
from strategy_calc.rules.shoe import ShoeProcedure, shoe_procedure
from strategy_calc.sidebets.exact import TYPES
from strategy_calc.sidebets.paytables import SideBet

BACCARAT_CUT_CARD = 14
"""Default: hands are dealt while more than this many cards are left (the cut card)."""


def baccarat_deal(cards: Sequence[int], pos: int) -> tuple[int, int, int]:
    """Deal one baccarat hand from ``cards`` (indices of :data:`RANKS`) starting at ``pos``.

    Returns ``(next position, player point, banker point)``. Player and Banker
    take two cards each, alternately, Player first; the third-card tableau of
    the rules follows (naturals 8/9 stand both; Player draws on 0-5; Banker
    by its point and the Player's third card).

    >>> A, FIVE, NINE, TEN = 0, 4, 8, 9
    >>> baccarat_deal([NINE, TEN, TEN, TEN], 0)  # a natural 9: nobody draws
    (4, 9, 0)
    >>> baccarat_deal([TEN, TEN, TEN, FIVE, A, A], 0)  # Player 0 draws an A; Banker 5 stands on a 1
    (5, 1, 5)
    """
    p = POINTS[cards[pos]] + POINTS[cards[pos + 2]]
    b = POINTS[cards[pos + 1]] + POINTS[cards[pos + 3]]
    p, b, pos = p % 10, b % 10, pos + 4
    if p >= 8 or b >= 8:
        return pos, p, b
    third = -1
    if p <= 5:
        third = POINTS[cards[pos]]
        p, pos = (p + third) % 10, pos + 1
    if third < 0:
        draws = b <= 5
    else:
        draws = (b <= 2 or (b == 3 and third != 8) or (b == 4 and 2 <= third <= 7)
                 or (b == 5 and 4 <= third <= 7) or (b == 6 and 6 <= third <= 7))
    if draws:
        b, pos = (b + POINTS[cards[pos]]) % 10, pos + 1
    return pos, p, b


@dataclass(frozen=True, slots=True)
class BaccaratShoe:
    """What one dealt baccarat shoe contributed, per bet of :data:`BETS` (same order).

    ``win`` and ``linear_win`` are sums of exact EVs (units of one bet) over the
    hands bet on: every hand with positive EV, and every hand the linear count
    estimates positive.
    """

    hands: int
    positive: tuple[int, ...]
    positive_ev: tuple[float, ...]
    win: tuple[float, ...]
    linear_win: tuple[float, ...]
    sidebets: tuple[SideBetRound, ...] = ()
    """With side bets: per hand bet on (demonstration rounds are not), their EVs and
    results (:mod:`strategy_calc.counting.sidebets`)."""


@dataclass(frozen=True, slots=True)
class BaccaratCounter:
    """A picklable job: the rules, the shoe procedure and the linear count of every bet."""

    rules: BaccaratRules
    cut_card: int
    """The cut card's place (the fewest cards behind it, when the procedure has a range)."""
    seed: int
    ev_top: tuple[float, ...]
    """Each bet's EV off the top of a full shoe."""
    slopes: tuple[tuple[float, ...], ...]
    """Per bet, per rank: the change in EV per unit change of the rank's share of the
    unseen cards (``-(N - 1)`` times its effect of removal; see :func:`linear_counter`)."""
    procedure: ShoeProcedure | None = None
    """The shoe procedure dealt; None: a fixed cut card at :attr:`cut_card`, the first
    card shown and its value burnt (Macau's procedure)."""
    sidebets: tuple[SideBet, ...] = ()
    """Side bets priced before each hand and bet when positive, settled on the hand's
    cards in the order dealt."""
    triggers: tuple[Trigger | None, ...] = ()
    """Per side bet, the count that places it instead of a positive EV (None: the EV;
    empty: every bet by its EV)."""

    @property
    def shoe_procedure(self) -> ShoeProcedure:
        """The procedure the run deals (:attr:`procedure`, else Macau's at :attr:`cut_card`)."""
        if self.procedure is not None:
            return self.procedure
        return ShoeProcedure("cut_card", (self.cut_card, self.cut_card), "--cut-card",
                             burn_shown_card=True)

    def estimate(self, counts: Sequence[int]) -> list[float]:
        """Each bet's EV for the unseen ``counts`` by the linear count."""
        full = FaceShoe.full(self.rules.decks).face_counts
        n, n0 = sum(counts), sum(full)
        shift = [c / n - f / n0 for c, f in zip(counts, full, strict=True)]
        return [top + math.fsum(s * d for s, d in zip(slope, shift, strict=True))
                for top, slope in zip(self.ev_top, self.slopes, strict=True)]

    def play(self, indices: Sequence[int]) -> list[BaccaratShoe]:
        """Deal the shoes ``indices`` of the run."""
        return [self.play_one(i) for i in indices]

    def play_one(self, index: int) -> BaccaratShoe:
        """Deal shoe ``index``: every hand until the cut card, each bet's exact EV first."""
        decks = self.rules.decks
        cards = [r for r in range(len(RANKS)) for _ in range(4 * decks)]
        draw = shoe_rng(self.seed, index)
        order = list(range(len(cards)))  # (the shuffle draws the same numbers whatever
        draw.shuffle(order)               # it shuffles)
        cards = [cards[i] for i in order]
        known = list(FaceShoe.full(decks).face_counts)
        base = face_card_types(known)
        types = [base[i] for i in order]
        types_left = [base.count(t) for t in range(TYPES)] if self.sidebets else []
        start_types = tuple(types_left)
        side: list[SideBetRound] = []
        seen: list[int] = []
        shoe = DealtShoe(self.shoe_procedure, cards, draw, lambda r: POINTS[r] or 10)
        for card in shoe.open():  # the shown card is seen; the burnt ones are not
            known[card] -= 1
            if self.sidebets:
                seen.append(types[0])
                types_left[types[0]] -= 1
        demos = self.shoe_procedure.demo_rounds
        k = len(BETS)
        hands, positive = 0, [0] * k
        positive_ev, win, linear_win = [0.0] * k, [0.0] * k, [0.0] * k
        while shoe.next_round(least=5):  # (a hand takes up to six cards)
            evs: tuple[float, ...] | None = None
            bet_on: tuple[bool, ...] = ()
            if demos:  # a demonstration round: seen, no bets
                demos -= 1
            else:
                if self.sidebets:
                    evs = price_all(self.sidebets, shoe_of(types_left, decks))
                    bet_on = placements(evs, self.triggers, types_left, start_types)
                ev = analyse_counts(self.rules, known).ev
                guess = self.estimate(known)
                for j, bet in enumerate(BETS):
                    if ev[bet] > 0:
                        positive[j] += 1
                        positive_ev[j] += ev[bet]
                        win[j] += ev[bet]
                    if guess[j] > 0:
                        linear_win[j] += ev[bet]
                hands += 1
            start = shoe.pos
            shoe.pos, _p, _b = baccarat_deal(cards, start)
            for card in cards[start:shoe.pos]:
                known[card] -= 1
            if self.sidebets:
                dealt = tuple(types[start:shoe.pos])
                if evs is not None:
                    won = tuple(settle_baccarat(bet, None, dealt) if on else None
                                for bet, on in zip(self.sidebets, bet_on, strict=True))
                    side.append(SideBetRound(evs, won, tuple(seen), dealt))
                    seen = []
                seen.extend(dealt)
                for t in dealt:
                    types_left[t] -= 1
        return BaccaratShoe(hands, tuple(positive), tuple(positive_ev), tuple(win),
                            tuple(linear_win), tuple(side))


def linear_counter(rules: BaccaratRules, cut_card: int, seed: int,
                   procedure: ShoeProcedure | None = None,
                   sidebets: tuple[SideBet, ...] = (),
                   triggers: tuple[Trigger | None, ...] = ()) -> BaccaratCounter:
    """The counter of a run: the exact EVs off the top and the linear count of each bet
    (``procedure``: the shoe procedure dealt, :attr:`BaccaratCounter.procedure`;
    ``triggers``: :attr:`BaccaratCounter.triggers`).

    *Linear count*: write the EV as linear in the unseen shares ``p_i`` of
    the ranks, ``EV ~ EV_0 + sum_i b_i (p_i - p0_i)``. Removing one card of
    rank ``i`` from the full shoe (``N`` cards) moves ``p_i`` by
    ``(p0_i - 1)/(N - 1)`` and every other ``p_j`` by ``p0_j/(N - 1)``, so its
    effect of removal is ``E_i = (sum_j b_j p0_j - b_i)/(N - 1)``; fixing the
    free constant by ``sum_j b_j p0_j = 0`` gives ``b_i = -(N - 1) E_i``.
    """
    top = analyse(rules)
    eor = baccarat_eor(top)
    n = top.cards_left
    slopes = []
    for bet in BETS:
        row = []
        for rank in RANKS:
            effect = eor[rank]
            row.append(-(n - 1) * float(effect[bet]) if effect is not None else 0.0)
        slopes.append(tuple(row))
    ev = top.ev
    if triggers and len(triggers) != len(sidebets):
        raise InputError("a trigger (or None) per side bet")
    return BaccaratCounter(rules, cut_card, seed, tuple(ev[b] for b in BETS), tuple(slopes),
                           procedure, sidebets, triggers)


@dataclass(frozen=True, slots=True)
class BetCount:
    """One bet over the dealt shoes: per unit bet, per hand or per shoe as named."""

    ev_off_the_top: float
    positive_share: float
    """Share of the hands dealt on which the bet's exact EV is positive."""
    mean_edge_when_positive: float | None
    """Mean exact EV of the bet over those hands (None if there were none)."""
    win_per_shoe: Estimate
    """Mean per shoe of the exact EVs of the hands with positive EV: the win of a
    player who bets one unit exactly then (the perfect-information ceiling)."""
    linear_count_win_per_shoe: Estimate
    """The same for a player who bets when the linear count says the EV is positive."""


@dataclass(frozen=True, slots=True)
class BaccaratCount:
    """The result of :func:`baccarat_count`."""

    rules: BaccaratRules
    shoes: int
    seed: int
    cut_card: int
    hands: int
    bets: dict[str, BetCount]
    procedure: ShoeProcedure | None = None
    """The shoe procedure dealt (``count --json``'s ``shoe_procedure``)."""
    sidebets: dict[str, SideBetCount] | None = None
    """With side bets (``count --sidebets``): each one's figures per hand bet on."""

    @property
    def shoe_procedure(self) -> ShoeProcedure:
        """:attr:`procedure`, else Macau's at :attr:`cut_card`."""
        return self.procedure or ShoeProcedure("cut_card", (self.cut_card, self.cut_card),
                                               "--cut-card", burn_shown_card=True)


SHOE_SECONDS = 0.025
"""CPU seconds to deal and price one eight-deck shoe (about 80 hands) with the main bets
and the pairs, measured 2026-12-07 on this 2-core machine (``count --rules macau-baccarat
--shoes 40 --jobs 1``: 1.5 s with the start; 3.6 s with four side bets)."""
SIDEBET_SHOE_SECONDS = 0.012
"""CPU seconds more per shoe for each side bet priced exactly before every hand (the
same measurement: lucky6, dragon7, panda8 and dragon-bonus-player)."""


def estimated_seconds(shoes: int, decks: int, sidebets: int, workers: int) -> float:
    """About how long a baccarat count of ``shoes`` shoes of ``decks`` decks with
    ``sidebets`` side bets takes on ``workers`` cores of a machine like the one
    :data:`SHOE_SECONDS` was measured on (an estimate, to ask before a long run; the
    hands per shoe, so the work, are in proportion to the decks).

    >>> estimated_seconds(100_000, 8, 0, 2) / 60  # a hundred thousand shoes on two cores
    20.833333333333332
    """
    per_shoe = (SHOE_SECONDS + SIDEBET_SHOE_SECONDS * sidebets) * decks / 8
    return shoes * per_shoe / max(1, workers)


def baccarat_count(
    rules: BaccaratRules, shoes: int = 100, seed: int = 1, cut_card: int | None = None,
    bets: Sequence[str] = BETS, pool: Executor | None = None, progress: Progress = None,
    batch: int = 10, sidebets: tuple[SideBet, ...] = (),
    triggers: tuple[Trigger | None, ...] = (),
) -> BaccaratCount:
    """Deal ``shoes`` shoes and report each of ``bets`` (see the module docstring).

    The shoes are dealt by the ruleset's shoe procedure; ``cut_card`` overrides its cut
    card's place (where the ruleset states none: :data:`BACCARAT_CUT_CARD`). Under a
    continuous shuffler a "shoe" is one reload cycle of the machine.
    ``pool``: the executor the batches of shoes run on (default: this thread).
    The player may change bets before every hand; for the main bets this is
    the Macau rule that a bet may be changed after a tie, which otherwise
    stands. ``triggers``: per side bet, the count that places it instead of a positive
    exact EV (:class:`strategy_calc.counting.sidebets.Trigger`; None: the EV).
    """
    if shoes < 1:
        raise InputError(f"--shoes must be at least 1, not {shoes}")
    if cut_card is not None and cut_card < 0:
        raise InputError(f"--cut-card must be 0 or more, not {cut_card}")
    n = 52 * rules.decks
    procedure = shoe_procedure(rules, n, cut_card, default_cut=BACCARAT_CUT_CARD)
    low, high = procedure.cut_card_from_end
    if procedure.shuffle == "continuous":
        if low < 6:
            raise InputError(f"continuous_buffer_cards {rules.continuous_buffer_cards} leaves"
                             " fewer than six cards in the machine for a hand")
    elif n - 11 - procedure.burn_start - procedure.burn_per_round <= max(high, 5):
        what = "--cut-card" if cut_card is not None else "the cut card"
        raise InputError(f"{what} {high} leaves no hand to deal from "
                         f"{rules.decks} deck(s)")
    unknown = [b for b in bets if b not in BETS]
    if unknown or not bets or any(not b for b in bets):
        raise InputError(f"unknown bet {', '.join(unknown) or '(none)'}: choose from "
                         f"{', '.join(BETS)}")
    counter = linear_counter(rules, low, seed, procedure, sidebets, triggers)
    parts = batches(shoes, batch)
    if pool is None:
        done: list[list[BaccaratShoe]] = []
        for part in parts:
            done.append(counter.play(part))
            if progress is not None:
                progress(len(done), len(parts))
    else:
        done = run_all(pool, counter.play, parts, progress)
    played = [s for part in done for s in part]
    hands = sum(s.hands for s in played)
    out: dict[str, BetCount] = {}
    for j, bet in enumerate(BETS):
        if bet not in bets:
            continue
        positive = sum(s.positive[j] for s in played)
        out[bet] = BetCount(
            ev_off_the_top=counter.ev_top[j],
            positive_share=positive / hands,
            mean_edge_when_positive=(math.fsum(s.positive_ev[j] for s in played) / positive
                                     if positive else None),
            win_per_shoe=mean_estimate([s.win[j] for s in played]),
            linear_count_win_per_shoe=mean_estimate([s.linear_win[j] for s in played]),
        )
    counted = None
    if sidebets:
        full = FaceShoe.full(rules.decks)
        counted = summarise_sidebets(sidebets, [s.sidebets for s in played],
                                     price_all(sidebets, full), triggers)
    return BaccaratCount(rules, shoes, seed, low, hands, out, procedure, counted)
