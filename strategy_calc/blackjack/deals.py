"""An initial deal's action values: the records the whole-game pass fills and the chart,
the edge and the distributions sum."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from strategy_calc.actions import PLAY_ACTIONS, Action
from strategy_calc.blackjack.hand_rules import beats, best_play
from strategy_calc.cards import RANKS, SUITED_RANKS, Rank
from strategy_calc.engine import Conditioning
from strategy_calc.rules import BlackjackRules

UP_ORDER: tuple[Rank, ...] = (*RANKS[1:], Rank.ACE)
"""Chart columns: 2..9, T, A."""


HARD_ROWS = tuple(range(4, 22))


SOFT_ROWS = tuple(range(13, 22))


PAIR_ROWS: tuple[Rank, ...] = UP_ORDER


ID_678 = (0, 0, 0, 0, 0, 1, 1, 1, 0, 0)


ID_777 = (0, 0, 0, 0, 0, 0, 3, 0, 0, 0)


HANDS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 11) for b in range(a, 11))
"""Every two-card start, as ranks (low first)."""


class DealValues(NamedTuple):
    """The EV of each action for one initial deal (or one suit case of it).

    EV per unit initial bet of the whole round, dealer blackjacks included.
    ``None``: the rules do not allow the action (or it was not computed).
    ``hit`` hits then plays the best composition-dependent strategy; the
    ``*_chart`` values follow the total-dependent chart after the first
    decision (``split_no_das``: the chart without doubling after the split).
    An immutable record (a named tuple: a count's round makes some 550 of them).
    """

    probability: float
    """Probability of this suit case given the deal (1.0 without suit cases)."""
    q678: float
    """Chance that a 6-7-8 completed by the next card is suited (0 for most deals)."""
    stand: float
    hit: float
    """-inf for a hand of 21."""
    hit_chart: float
    double: float | None = None
    surrender: float | None = None
    split: float | None = None
    split_chart: float | None = None
    split_no_das: float | None = None
    insurance: float | None = None
    """The insurance bet (half the initial bet) alone, per unit initial bet, where the
    rules offer it (:func:`insurance_value`); the round's value is the play's plus this."""
    even_money: float | None = None
    """1.0 for a natural where the rules offer even money (instead of playing it)."""

    def with_splits(self, split: float | None, chart: float | None,
                    no_das: float | None) -> DealValues:
        """These values with the three split values set (``_replace``, faster)."""
        return DealValues(self.probability, self.q678, self.stand, self.hit, self.hit_chart,
                          self.double, self.surrender, split, chart, no_das, self.insurance,
                          self.even_money)

    def value(self, action: Action) -> float | None:
        """The optimal-strategy value of ``action`` (None if not allowed)."""
        value: float | None = getattr(self, _FIELD[action], None)
        return value

    def chart_value(self, action: Action) -> float | None:
        """The value of ``action`` when the rest of the hand follows the chart."""
        if action is Action.HIT:
            return self.hit_chart
        if action is Action.SPLIT:
            return self.split_chart
        return self.value(action)

    def allowed(self) -> dict[Action, float]:
        """The playing actions allowed, with their optimal-strategy values."""
        values = (self.stand, self.hit, self.double, self.split, self.surrender)
        return {a: v for a, v in zip(PLAY_ACTIONS, values, strict=True) if v is not None}

    def best(self) -> Action:
        """The best action (an exact tie takes the calmer play,
        :func:`~strategy_calc.blackjack.hand_rules.best_play`)."""
        return best_play(self.allowed())

    def insures(self) -> bool:
        """Optimal play takes insurance: it is offered and worth more than nothing (and
        the hand does not take even money instead, :meth:`takes_even_money`)."""
        return (self.insurance is not None and beats(self.insurance, 0.0)
                and not self.takes_even_money())

    def takes_even_money(self) -> bool:
        """Optimal play takes even money: offered, and worth more than the best play
        insured or not (at 3:2 it never is: an insured natural is worth exactly 1)."""
        return self.even_money is not None and beats(self.even_money, self._played())

    def _played(self) -> float:
        """The best action's value, insured where the insurance is worth more than 0."""
        played = self.value(self.best())
        assert played is not None
        insured = self.insurance is not None and beats(self.insurance, 0.0)
        return played + (self.insurance or 0.0 if insured else 0.0)

    def round_best(self) -> float:
        """The round's value under optimal play: the best action, with insurance where it
        is worth taking, or even money where that is worth more.

        A natural against an ace at 6:5 with a third of the cards left tens
        (``no_blackjack`` 2/3): standing is worth 1.2 x 2/3 = 0.8, insured 0.8 + 0 (the
        insurance breaks even), even money 1:

        >>> nat = DealValues(1.0, 0.0, stand=0.8, hit=0.0, hit_chart=0.0,
        ...                  insurance=0.0, even_money=1.0)
        >>> nat.takes_even_money(), nat.round_best()
        (True, 1.0)
        """
        played = self._played()
        if self.even_money is not None and self.takes_even_money():
            return self.even_money
        return played


def insurance_value(no_blackjack: float) -> float:
    """The insurance bet's EV per unit initial bet: half the bet, paid 2:1 on a dealer
    blackjack (chance ``1 - no_blackjack``), lost otherwise:
    (1 - nb) x 1 - nb x 1/2 = 1 - 3/2 nb, positive when more than a third of the cards
    that can be the hole card are tens (``no_blackjack`` below 2/3).

    >>> insurance_value(0.5), insurance_value(0.7) < 0
    (0.25, True)
    """
    return 1.0 - 1.5 * no_blackjack


def natural_results(blackjack_pays: float, no_blackjack: float, even_money: bool,
                    insured: bool) -> tuple[tuple[float, float], ...]:
    """``(net result, probability)`` of a natural's round, per unit initial bet: even
    money is 1 for sure; else it is paid ``blackjack_pays`` unless the dealer has a
    blackjack too (a push), and insured its insurance adds 1 or takes 1/2 (so an
    insured natural at 3:2 is 1 for sure, even money by another name).

    >>> natural_results(1.5, 0.7, even_money=False, insured=True)
    ((1.0, 0.7), (1.0, 0.30000000000000004))
    >>> natural_results(1.2, 0.7, even_money=True, insured=False)
    ((1.0, 1.0),)
    """
    if even_money:
        return ((1.0, 1.0),)
    if insured:
        return ((blackjack_pays - 0.5, no_blackjack), (1.0, 1.0 - no_blackjack))
    return ((blackjack_pays, no_blackjack), (0.0, 1.0 - no_blackjack))


def accumulate(total: DealValues | None, deal: DealValues, weight: float) -> DealValues:
    """``total`` plus ``weight`` times ``deal``, field by field (a chart cell's sums).

    A field missing from ``deal`` stays as it was; one missing from ``total``
    starts at 0. ``probability`` and ``q678`` are not summed.
    """
    values: dict[str, float | None] = {}
    for name in _SUMMED:
        add = getattr(deal, name)
        before = getattr(total, name) if total is not None else None
        if add is None:
            values[name] = before
        else:
            values[name] = (before if before is not None else 0.0) + weight * add
    return DealValues(1.0, 0.0, **values)  # type: ignore[arg-type]


_FIELD = {a: a.value for a in Action}
"""Action -> the DealValues field holding its optimal-strategy value."""


_SUMMED = tuple(f for f in DealValues._fields if f not in ("probability", "q678"))


def start_values(
    rules: BlackjackRules, conditioning: Conditioning, total: int, natural: bool,
    may_surrender: bool, raw_stand: float, raw_hit: float, raw_chart: float,
    raw_double: float, no_blackjack: float,
) -> tuple[float, float, float, float | None, float | None]:
    """``(stand, hit, hit_chart, double, surrender)`` of a two-card start of best total
    ``total``: EV per unit initial bet of the whole round, dealer blackjacks included,
    from the pass row's raw values (given no dealer blackjack where the rules peek; see
    :meth:`~strategy_calc.engine.Conditioning.blackjack_adjustment`). ``-inf``: no hit
    on 21; ``None``: the rules do not allow the action.

    The one place a row's values become a start's: :func:`deal_values` builds its
    records from them and a count's chart-played round reads one action's value from
    them without building any record.

    Deluxe doubles on any two cards and surrenders for half the bet; with no chance of a
    dealer blackjack (``no_blackjack = 1``) no adjustment applies, so a hard 16 keeps
    its raw values. Macau doubles on 11 only, so its 16 has no double:

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe")
    >>> start_values(rules, Conditioning.of(rules), 16, False, True,
    ...              -0.5, -0.4, -0.45, -0.9, 1.0)
    (-0.5, -0.4, -0.45, -0.9, -0.5)
    >>> macau = blackjack_rules("macau-1983")
    >>> start_values(macau, Conditioning.of(macau), 16, False, False,
    ...              -0.5, -0.4, -0.45, -0.9, 1.0)
    (-0.5, -0.4, -0.45, None, None)
    """
    adj = conditioning.blackjack_adjustment(no_blackjack)
    stand = rules.blackjack_pays * no_blackjack if natural else raw_stand + adj
    if total < 21:
        hit, hit_chart = raw_hit + adj, raw_chart + adj
    else:
        hit = hit_chart = -math.inf
    double = raw_double + adj if rules.may_double(total) else None
    surrender = None
    if may_surrender and not (natural and rules.hand_of_21_stands):
        surrender = surrender_value(rules, no_blackjack)
    return stand, hit, hit_chart, double, surrender


def start_value(
    rules: BlackjackRules, conditioning: Conditioning, total: int, may_surrender: bool,
    action: Action, raw_stand: float, raw_chart: float, raw_double: float,
    no_blackjack: float,
) -> float | None:
    """:func:`start_values`' value of one ``action`` (stand, hit by the chart, double or
    surrender) of a start that is not a natural, alone: the same expressions on the same
    doubles, for a round that reads one value per start (a count's chart-played round).
    None: the rules do not allow the action here, or it is another action.

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe")
    >>> peek = Conditioning.of(rules)
    >>> args = (-0.5, -0.4, -0.45, -0.9, 0.92)
    >>> _stand, _hit, chart, double, surrender = start_values(rules, peek, 16, False, True,
    ...                                                       *args)
    >>> [start_value(rules, peek, 16, True, a, -0.5, -0.45, -0.9, 0.92)
    ...  for a in (Action.HIT, Action.DOUBLE, Action.SURRENDER)] == [chart, double, surrender]
    True
    >>> start_value(rules, peek, 21, True, Action.HIT, -0.5, -0.45, -0.9, 0.92)
    -inf
    """
    adj = conditioning.blackjack_adjustment(no_blackjack)
    if action is Action.STAND:
        return raw_stand + adj
    if action is Action.HIT:
        return raw_chart + adj if total < 21 else -math.inf
    if action is Action.DOUBLE:
        return raw_double + adj if rules.may_double(total) else None
    if action is Action.SURRENDER and may_surrender:
        return surrender_value(rules, no_blackjack)
    return None


def surrender_value(rules: BlackjackRules, no_blackjack: float) -> float:
    """A surrendered start's EV per unit initial bet, dealer blackjacks included (as
    :func:`deal_values`' other values are once adjusted): half the bet lost, or under late
    surrender (decided after the dealer's check) the whole bet to a dealer blackjack,
    which comes with chance ``1 - no_blackjack``.

    >>> from strategy_calc.rules import blackjack_rules
    >>> surrender_value(blackjack_rules("deluxe"), 0.75)
    -0.5
    """
    if rules.surrender_loses_to_blackjack:
        return -(1.0 - no_blackjack) - 0.5 * no_blackjack
    return -0.5


def suit_cases(
    pair: tuple[int, int], up: int, rows: Sequence[Sequence[int]], replacement: bool = False,
) -> list[tuple[float, float]]:
    """(probability, q) over the suits of a two-card start from {6,7,8} of two ranks.

    q is the chance that a card of the third rank drawn next completes a
    suited 6-7-8. ``rows``: the shoe's suit rows before the deal (per rank, the
    cards of each suit; cards taken out without a suit leave them as they were,
    :class:`~strategy_calc.cards.Shoe`), so by exchangeability each card dealt
    is one drawn from them: a card of rank r has suit s with chance (rows[r][s]
    less the cards of r and s already dealt) / (the rank's row less the cards of
    r dealt). Suits are enumerated exactly, the up card's included. With ``replacement`` (an
    infinite deck) no card dealt changes the rows: each card's suit has the row's chance.

    >>> suit_cases((6, 7), 2, [(6,) * 4] * 9 + [(24,) * 4])  # suited: 1/4, then q = 1/4
    [(0.75, 0.0), (0.25, 0.25)]
    >>> suit_cases((6, 7), 8, [(1,) * 4] * 10)  # one deck: the up 8's suit has no 8 left
    [(0.8125, 0.0), (0.1875, 0.3333333333333333)]
    >>> suit_cases((6, 7), 8, [(1,) * 4] * 10, replacement=True)  # no card ever gone
    [(0.75, 0.0), (0.25, 0.25)]
    """
    missing = int((set(SUITED_RANKS) - set(pair)).pop())
    cases: dict[float, float] = {}
    up_suits = range(4) if up in SUITED_RANKS else [None]

    def share(rank: int, suit: int, up_suit: int | None) -> float:
        taken = rank == up and not replacement
        row = rows[rank - 1]
        n = sum(row) - taken
        if n <= 0:  # none of this rank left to draw
            return 0.0
        return (row[suit] - (taken and up_suit == suit)) / n

    for su in up_suits:
        p_up = rows[up - 1][su] / sum(rows[up - 1]) if su is not None else 1.0
        for sa, sb in itertools.product(range(4), repeat=2):
            prob = p_up * share(pair[0], sa, su) * share(pair[1], sb, su)
            q = share(missing, sa, su) if sa == sb else 0.0
            cases[q] = cases.get(q, 0.0) + prob
    return [(prob, q) for q, prob in sorted(cases.items()) if prob > 0]
