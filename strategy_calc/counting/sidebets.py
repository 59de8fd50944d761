"""Side bets counted exactly (``count --sidebets NAME,...``, both games): before each round
every named bet is priced for the cards unseen (:func:`strategy_calc.sidebets.exact.price`),
bet one unit when its exact EV is positive, and settled on the round's actual cards.

The counted shoe carries each card's face and suit: the counters deal *card types*
(:func:`card_types`) beside the cards they dealt before, shuffled by the same permutation,
so a run's main figures do not change with side bets or without them (the shuffle draws
the same random numbers whatever the list holds).

The cards a round's side bets are settled on: at blackjack, the player's first box's two
cards and the dealer's up card, second card and draws, read in the order the event names
them (:attr:`strategy_calc.sidebets.events.Event.looks_at`); a bet that reads the dealer's
second card or draws makes the dealer complete his hand every round (the table settles
the bet on it), which changes the cards later rounds are dealt from, not any round's
exact EV. At baccarat, the finished round: its cards as dealt (Player, Banker, Player,
Banker, then the third cards as drawn) are split into the Player's and the Banker's hands
(:func:`baccarat_hands`) and the event settles on them
(:meth:`strategy_calc.sidebets.events.Event.settle_round`: an event on how the round ends
reads each side's cards and point, the pairs their side's first two cards), the
settlement whose probabilities over every round of a shoe are the ones the bet is priced
by (tests/counting/test_count_sidebets.py checks that by a brute force).
The side bets are placed on every round dealt (wonged-out ones too): the EV of a bet
depends on the shoe only.

Why the settled results average to the priced EVs: the bet is placed on the shoe before
the round, and the cards each event reads are distributed as the first cards of that
shoe whatever is played before them (docs/MODEL.md, "Buster").

>>> card_types([4] * 9 + [16])[:5], card_types([4] * 9 + [16])[36:41]
((0, 1, 2, 3, 4), (36, 37, 38, 39, 40))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from strategy_calc.cards import FACES, SUITS, FaceShoe
from strategy_calc.counting.sampling import Estimate, ratio_estimate
from strategy_calc.errors import InputError
from strategy_calc.sidebets.events import MORE, Event, baccarat_value
from strategy_calc.sidebets.exact import for_dealer, price
from strategy_calc.sidebets.paytables import SideBet, find_sidebet

DEALER_CARDS = ("dealer's second card", "dealer's hole card", "dealer's draws")
"""The cards of the dealer after his up card (:attr:`Event.looks_at`): a bet that reads
them has the dealer complete his hand every round."""


def card_types(rank_counts: Sequence[int]) -> tuple[int, ...]:
    """The card types (``4 * face + suit``) beside a blackjack counter's cards, which are
    built rank by rank (ace first, tens last), ``k`` running over a rank's cards: suit ``k
    % 4`` (the counter's), and for the ten-valued cards the face ``T, J, Q, K`` by ``k // 4
    % 4``. A full shoe of ``d`` decks holds each face and suit ``d`` times."""
    out: list[int] = []
    for rank, count in enumerate(rank_counts):
        for k in range(count):
            face = rank if rank < 9 else 9 + (k // len(SUITS)) % 4
            out.append(len(SUITS) * face + k % len(SUITS))
    return tuple(out)


def face_card_types(face_counts: Sequence[int]) -> tuple[int, ...]:
    """The card types beside a baccarat counter's cards (face by face, ``k`` over a face's
    cards: suit ``k % 4``).

    >>> face_card_types([2] + [0] * 12)
    (0, 1)
    """
    return tuple(len(SUITS) * face + k % len(SUITS)
                 for face, count in enumerate(face_counts) for k in range(count))


def shoe_of(types_left: Sequence[int], decks: int) -> FaceShoe:
    """The shoe of the cards unseen, counted per card type."""
    return FaceShoe(decks, tuple(tuple(types_left[len(SUITS) * f: len(SUITS) * (f + 1)])
                                 for f in range(len(FACES))), (0,) * len(FACES))


def resolve(names: str, game: str, files: Sequence[str] = (),
            hits_soft_17: bool = False) -> tuple[SideBet, ...]:
    """The bets of ``--sidebets A,B,...`` for ``game`` (``blackjack`` or ``baccarat``),
    each under the dealer's soft-17 rule; an unknown bet, one of the other game, or a name
    given twice is an InputError."""
    chosen = [n.strip() for n in names.split(",")]
    if not names.strip() or any(not n for n in chosen):
        raise InputError(f"--sidebets {names!r}: give side bets' names, e.g. 21+3,buster"
                         " (strategy-calc sidebet --list)")
    if len(set(chosen)) != len(chosen):
        raise InputError(f"--sidebets {names}: a bet is named twice")
    bets = []
    for name in chosen:
        bet = find_sidebet(name, tuple(files))
        if bet.event.game != game:
            raise InputError(f"--sidebets: {name} is a {bet.event.game} bet, not one of"
                             f" {game}")
        bets.append(for_dealer(bet, hits_soft_17))
    return tuple(bets)


def completes_dealer(bets: Sequence[SideBet]) -> bool:
    """Whether a bet reads the dealer's cards after his up card."""
    return any(role in bet.event.looks_at for bet in bets for role in DEALER_CARDS)


@dataclass(frozen=True, slots=True)
class SideBetRound:
    """One round's side bets, per bet in the run's order."""

    evs: tuple[float, ...]
    """Each bet's exact EV per unit for the cards unseen before the round."""
    won: tuple[float | None, ...]
    """What each bet placed won (units; None: not bet, its EV was not positive)."""
    before: tuple[int, ...] = ()
    """The card types seen since the previous round was priced (for the first round of a
    shoe, the cards shown at its opening): a replay of the run removes them."""
    dealt: tuple[int, ...] = ()
    """The card types this round showed, in the order dealt (burnt cards left out)."""


def settle(bet: SideBet, paytable: str | None, cards: tuple[int, ...]) -> float:
    """What one unit of ``bet`` wins on ``cards`` (the event's cards in its order)."""
    line = settle_line(bet.event, cards)
    return -1.0 if line not in bet.event.lines else float(bet.paytable(paytable)[line])


def settle_line(event: Event, cards: tuple[int, ...]) -> str:
    """The line ``event`` settles ``cards`` on (the shortest prefix that settles)."""
    for k in range(1, len(cards) + 1):
        line = event.settle_hand(cards[:k])
        if line != MORE:
            return line
    raise InputError(f"{event.name}: the round dealt too few cards to settle it")


def baccarat_hands(dealt: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Player's and the Banker's cards of a finished baccarat round, from its cards as
    dealt: Player, Banker, Player, Banker, then the Player's third card if he drew, then
    the Banker's. With five cards one side drew: the Player, when his first two cards make
    5 or less (no natural was dealt, or nobody would have drawn), else the Banker.

    >>> baccarat_hands((0, 4, 8, 12))
    ((0, 8), (4, 12))
    >>> baccarat_hands((36, 4, 40, 8, 16)), baccarat_hands((20, 4, 40, 8, 16))
    (((36, 40, 16), (4, 8)), ((20, 40), (4, 8, 16)))
    """
    if not 4 <= len(dealt) <= 6:
        raise InputError(f"a baccarat round deals 4 to 6 cards, not {len(dealt)}")
    player, banker = [dealt[0], dealt[2]], [dealt[1], dealt[3]]
    if len(dealt) == 6:
        player.append(dealt[4])
        banker.append(dealt[5])
    elif len(dealt) == 5:
        drew = (baccarat_value(dealt[0]) + baccarat_value(dealt[2])) % 10 <= 5
        (player if drew else banker).append(dealt[4])
    return tuple(player), tuple(banker)


def settle_baccarat(bet: SideBet, paytable: str | None, dealt: Sequence[int]) -> float:
    """What one unit of baccarat ``bet`` wins on a finished round, its cards as dealt."""
    line = bet.event.settle_round(*baccarat_hands(dealt))
    return -1.0 if line not in bet.event.lines else float(bet.paytable(paytable)[line])


def price_all(bets: Sequence[SideBet], shoe: FaceShoe) -> tuple[float, ...]:
    """Each bet's exact EV for ``shoe`` (default pay tables)."""
    return tuple(price(bet, shoe).ev for bet in bets)


def blackjack_cards(event: Event, types: Sequence[int], player: Sequence[int],
                    dealer: Sequence[int]) -> tuple[int, ...]:
    """The card types ``event`` reads, in its order, from the positions of a blackjack
    round (:class:`strategy_calc.blackjack.playout.RoundCards`)."""
    roles = {"player's first card": player[:1], "player's second card": player[1:2],
             "dealer's up card": dealer[:1], "dealer's second card": dealer[1:2],
             "dealer's hole card": dealer[1:2],
             "dealer's draws": dealer[2:]}
    return tuple(types[i] for role in event.looks_at for i in roles[role])


@dataclass(frozen=True, slots=True)
class SideBetCount:
    """One side bet over a run: per unit bet, per round dealt as named."""

    share_bet: float
    """Share of the rounds dealt on which the bet's exact EV was positive (and it was bet)."""
    ev_per_round_bet: float | None
    """Mean exact EV per unit of the rounds bet (None: none was)."""
    win_per_100: Estimate
    """Expected win per 100 rounds dealt: the sum of the exact EVs of the bets placed,
    a ratio over shoes (its standard error as the count's win rate's)."""
    realised_per_100: Estimate
    """What the bets placed actually won per 100 rounds dealt (the same estimator)."""
    ev_off_the_top: float
    """Its EV per unit for the shoe every deal starts from."""


def summarise(bets: Sequence[SideBet], shoes: Sequence[Sequence[SideBetRound]],
              top: Sequence[float]) -> dict[str, SideBetCount]:
    """Each bet's figures over the rounds of ``shoes`` (a list per shoe)."""
    counts = [float(len(s)) for s in shoes]
    rounds = sum(counts)
    if rounds <= 0:
        raise InputError("no round was dealt")
    out: dict[str, SideBetCount] = {}
    for j, bet in enumerate(bets):
        placed = [r.evs[j] for s in shoes for r in s if r.won[j] is not None]
        expected = [math.fsum(r.evs[j] for r in s if r.won[j] is not None) for s in shoes]
        realised = [math.fsum(r.won[j] or 0.0 for r in s) for s in shoes]
        win, real = ratio_estimate(expected, counts), ratio_estimate(realised, counts)
        out[bet.name] = SideBetCount(
            len(placed) / rounds, math.fsum(placed) / len(placed) if placed else None,
            Estimate(100 * win.value, 100 * win.se), Estimate(100 * real.value, 100 * real.se),
            top[j])
    return out
