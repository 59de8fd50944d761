"""Playing one blackjack round out from a dealt shoe, in casino order, as a plan says.

A count run (:mod:`strategy_calc.count`) values every round exactly before it
is dealt, then needs only to know *which cards the round uses*, so that the
next round starts from the right shoe. :func:`play_round` deals them: the
player's first card, the up card, the player's second card; the dealer's
second card at once in a peek game (checked for blackjack) and in a
single-deck no-hole-card game (not checked), else after the player has
finished, and only if a hand is left to settle (or an insurance bet, or the
player's blackjack against an ace or a ten). A bust, surrendered or
bonus-paid hand (7-7-7, suited 6-7-8), or a Charlie, is settled when it ends.

>>> from strategy_calc.cards import parse_cards
>>> from strategy_calc.rules import blackjack_rules
>>> plan = RoundPlan(0.0, None, {(6, 10, 10, False): Action.STAND}, {6: bytes(4096)},
...                  frozenset())
>>> play_round(blackjack_rules("deluxe"), parse_cards("T,6,T,7,5"), 0, plan)  # 6+7+5: 18
5
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.hand_rules import dealer_draws, hand_total
from strategy_calc.blackjack.split.plan import SplitPlan, split_plans
from strategy_calc.cards import Card, Shoe
from strategy_calc.engine import node_table
from strategy_calc.rules import BlackjackRules
from strategy_calc.rules.bonus_hands import BonusHand


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round's exact figures for the cards unseen before it, and how it is played.

    ``ev``: EV per unit initial bet of the round (dealer blackjacks included);
    ``second_moment``: E[net result^2], units^2. ``actions``: the first decision
    per (up, low card, high card); ``codes``: per up card, the engine's node
    codes for later decisions (2 hit, 4 stand; split hands' two-card nodes
    may add 1, double); the action key's last item: a 6-7, 6-8 or 7-8 start whose
    two cards share a suit (its suited 6-7-8 chance is positive); ``insure``: the
    up cards against which insurance is taken; ``covariance``: with several boxes
    (``boxes``, the player's, dealt first), Cov(X_1, X_2) of two of them (``ev`` and
    ``second_moment`` are then their total's).
    """

    ev: float
    second_moment: float | None
    actions: dict[tuple[int, int, int, bool], Action]
    codes: dict[int, bytes]
    insure: frozenset[int]
    covariance: float | None = None
    boxes: int = 1


@dataclass(frozen=True, slots=True)
class PlayErrors:
    """The player's play errors (``count --play-errors``): at each decision of his first
    box's unsplit hand he takes the planned play with chance ``1 - rate``, else the wrong
    one: at the two-card decision ``mistakes[(up, low card, high card)]``, at every later
    hit-or-stand decision (a total below 21) the other of hit and stand. Each mistake is
    drawn from ``draw`` (the shoe's own random source: one ``random()`` a decision, so a
    seeded run deals the same cards). Split hands play without errors."""

    rate: float
    mistakes: Mapping[tuple[int, int, int], Action]
    draw: random.Random

    def errs(self) -> bool:
        """Whether the decision being taken is a mistake (one draw)."""
        return self.draw.random() < self.rate


@dataclass(slots=True)
class _Deal:
    """The shoe being dealt and the position of its next card."""

    cards: Sequence[Card]
    pos: int

    def take(self) -> Card:
        card = self.cards[self.pos]  # (IndexError: the shoe ran out)
        self.pos += 1
        return card


@dataclass(slots=True)
class RoundCards:
    """Where a round's cards of the player's box and the dealer lay in the shoe (the
    positions :func:`play_round` dealt them from), for side bets settled on them."""

    player: list[int]
    """The player's first and second cards (his first box)."""
    dealer: list[int]
    """The dealer's up card, his second card (when dealt), then his draws."""


def play_round(rules: BlackjackRules, cards: Sequence[Card], pos: int, plan: RoundPlan,
               shoe: Shoe | None = None, optimal_splits: bool = False, seats: int = 1,
               burnt: list[int] | None = None, record: RoundCards | None = None,
               dealer_completes: bool = False, errors: PlayErrors | None = None) -> int:
    """Deal one round from ``cards[pos:]`` as ``plan`` plays it; the position after it.

    ``seats``: boxes at the table, each playing ``plan`` (the player's box is the first
    to be dealt and to act; the others' cards leave the shoe and are counted like any
    seen card). Casino order: one card to each box, the up card, a second card to each
    box, the hole card at once where it is dealt at once; then each box plays out in
    turn, then the dealer (his second card, where it comes late, only if some box needs
    it; under ``burn_before_dealer_cards`` a card is burnt face down before the dealer's
    second card, and one more after it when he must draw, their positions appended to
    ``burnt``). ``optimal_splits`` with ``shoe`` (the cards unseen before the round): the
    player's split hands play their own best decisions for that shoe
    (:func:`strategy_calc.engine.split_play`) instead of ``plan.codes``. Raises
    ``IndexError`` when the cards run out mid-round. ``record``: filled with the positions
    of the player's first two cards and the dealer's cards. ``dealer_completes``: the
    dealer takes his second card and completes his hand even when no hand is left to
    settle (a side bet on his hand is: Buster, Lucky Ladies' dealer blackjack).
    ``errors``: the player's box (the first) plays with these errors (:class:`PlayErrors`);
    the other boxes play ``plan`` as it is.

    Why the player's EV does not depend on ``seats``: the other boxes' decisions read
    only their own cards and the up card, and the player's read only his own and the up
    card, so by exchangeability the cards the player and the dealer receive are
    distributed as if dealt to them alone from the shoe before the round.

    >>> from strategy_calc.cards import parse_cards
    >>> from strategy_calc.rules import blackjack_rules
    >>> plan = RoundPlan(0.0, None, {(6, 7, 10, False): Action.STAND,
    ...                              (6, 8, 9, False): Action.STAND}, {6: bytes(4096)},
    ...                  frozenset())
    >>> cards = parse_cards("T,9,6,7,8,T,5")  # boxes T,7 and 9,8 stand; dealer 6,T,5: 21
    >>> play_round(blackjack_rules("deluxe"), cards, 0, plan, seats=2)
    7
    """
    deal = _Deal(cards, pos)

    def burn() -> None:  # (burn_before_dealer_cards: one card face down, unseen)
        if rules.burn_before_dealer_cards:
            if burnt is not None:
                burnt.append(deal.pos)
            deal.take()

    first_at = deal.pos
    firsts = [deal.take() for _ in range(seats)]
    up_at = deal.pos
    up_card = deal.take()
    seconds = [deal.take() for _ in range(seats)]
    if record is not None:
        record.player[:] = [first_at, up_at + 1]
        record.dealer[:] = [up_at]
    up = int(up_card.rank)
    hole = -1
    if rules.peek or rules.decks == 1:
        burn()
        hole = int(_take(deal, record).rank)
    if rules.peek and {up, hole} == {1, 10}:
        return deal.pos
    live = needs_hole = False
    for seat, (first, second) in enumerate(zip(firsts, seconds, strict=True)):
        own_shoe = shoe if seat == 0 and optimal_splits else None
        box_live, box_needs_hole = _play_box(rules, deal, first, second, up_card, hole < 0,
                                             plan, own_shoe, errors if seat == 0 else None)
        live = live or box_live
        needs_hole = needs_hole or box_needs_hole
    if hole < 0 and (needs_hole or dealer_completes):  # (an insurance bet is settled on
        burn()                                         # it even with no hand left)
        hole = int(_take(deal, record).rank)
    if (live or dealer_completes) and {up, hole} != {1, 10}:
        dealer = [up, hole]
        if dealer_draws(sum(dealer), 1 in dealer, rules.dealer_hits_soft_17):
            burn()
        while dealer_draws(sum(dealer), 1 in dealer, rules.dealer_hits_soft_17):
            dealer.append(int(_take(deal, record).rank))
    return deal.pos


def _take(deal: _Deal, record: RoundCards | None) -> Card:
    """The dealer's next card, its position recorded."""
    if record is not None:
        record.dealer.append(deal.pos)
    return deal.take()


def _play_box(rules: BlackjackRules, deal: _Deal, first: Card, second: Card, up_card: Card,
              hole_late: bool, plan: RoundPlan, shoe: Shoe | None,
              errors: PlayErrors | None = None) -> tuple[bool, bool]:
    """Play one box of ``first``, ``second`` against ``up_card`` as ``plan`` says (``shoe``:
    its split hands play their own best decisions for it); (whether a hand is left for the
    dealer to settle, whether the box needs the dealer's second card when it comes late:
    a live hand, an insurance bet, a blackjack a dealer blackjack would push)."""
    p1, up, p2 = int(first.rank), int(up_card.rank), int(second.rank)
    hand = (min(p1, p2), max(p1, p2))
    if hand == (1, 10):
        even_money = plan.actions.get((up, 1, 10, False)) is Action.EVEN_MONEY
        return False, hole_late and up in (1, 10) and not even_money
    action = plan.actions.get((up, *hand, first.suit == second.suit)) or plan.actions.get(
        (up, *hand, False))
    if errors is not None and errors.errs():
        action = errors.mistakes[(up, *hand)]
    insured = hole_late and up in plan.insure
    if action is Action.SURRENDER:  # (an insurance bet still needs the dealer's card)
        return False, insured
    codes = plan.codes[up]
    if action is Action.DOUBLE:
        live = hand_total([p1, p2, int(deal.take().rank)])[0] <= 21
    elif action is Action.SPLIT:
        live = False
        # hands in queue order; a pair card drawn as a second card starts another hand
        # while fewer than the most allowed exist (resplits), and the hand draws again
        hands = [(first, second), (second, first)]
        split = split_plans(rules)[first.rank]
        for k, (own, other) in enumerate(hands):
            own_codes = None
            if shoe is not None:
                own_codes = _split_play_of(split, shoe, up_card, own, other, k >= 1)
            card = deal.take()
            while int(card.rank) == p1 and len(hands) < split.max_hands:
                hands.append((card, own))
                card = deal.take()
            held = [own, card]
            if split.one_card:
                live = True
                continue
            live = _play_hand(rules, deal, held, codes, split, own_codes) or live
    elif action is Action.STAND:
        live = True
    else:  # hit, then play on by the codes
        live = _play_hand(rules, deal, [first, second, deal.take()], codes, None,
                          errors=errors)
    return live, live or insured


def _bonus_paid(rules: BlackjackRules, held: list[Card], split: bool) -> BonusHand | None:
    """The bonus row that pays ``held`` at once (the higher of two), or None."""
    if len(held) < 3 or not rules.has_bonus:
        return None
    ranks, suits = [int(c.rank) for c in held], [c.suit for c in held]
    paid = [row for row in rules.bonus_table if row.matches(ranks, suits, split)]
    return max(paid, key=lambda row: row.pays) if paid else None


def _play_hand(rules: BlackjackRules, deal: _Deal, held: list[Card], codes: bytes,
               split: SplitPlan | None, own: tuple[bytes, bytes] | None = None,
               errors: PlayErrors | None = None) -> bool:
    """Play ``held`` on by the node codes (``split``: the plan of the pair it was split
    from, if it is a split hand; ``own``: a split hand's own decisions, see
    :func:`_split_play_of`); whether it is left for the dealer to settle. ``errors``: an
    unsplit hand's hit-or-stand decisions below 21 take the other play when one is drawn
    (:class:`PlayErrors`)."""
    table = node_table()
    while True:
        ranks = [int(c.rank) for c in held]
        total = hand_total(ranks)[0]
        if total > 21 or rules.is_charlie(len(held)):
            return False
        bonus = _bonus_paid(rules, held, split is not None)
        if bonus is not None:  # (played on: the hand left standing)
            return not bonus.settles
        code = codes[table.node(ranks)] if own is None else own[0][table.node(ranks)]
        if len(ranks) > 2 and code & 1 and rules.may_double_hand(len(ranks), total,
                                                                 split is not None):
            held.append(deal.take())  # (double_after_hit: one card, then it stands)
            return hand_total([int(c.rank) for c in held])[0] <= 21
        if total == 21:
            return True
        if own is not None and len(held) == 2 and 6 <= ranks[1] <= 8:
            # a split 6, 7 or 8 that drew another of them decides by its suits
            # (its own pair card's suit: suit case 0)
            code = own[1][8 * (ranks[1] - 6) + (held[1].suit != held[0].suit)] or code
        if (split is not None and len(ranks) == 2 and code & 1 and split.may_double
                and rules.may_double(total)):
            held.append(deal.take())
            return hand_total([int(c.rank) for c in held])[0] <= 21
        hits = bool(code & 2)
        if errors is not None and errors.errs():
            hits = not hits
        if not hits:
            return True
        held.append(deal.take())


def _split_play_of(plan: SplitPlan, shoe: Shoe, up: Card, own: Card, other: Card,
                   second: bool = False) -> tuple[bytes, bytes]:
    """The decisions of the split hand started by ``own`` (``other``: the other pair card;
    ``second``: it plays after the first) against ``up``, for the cards unseen before the
    round: as the round's EV plays it."""
    base = shoe.remove([up])
    params = plan.hand_params(base, [own, other])
    return engine.split_play(base, own.rank, up.rank, params, None, second)
