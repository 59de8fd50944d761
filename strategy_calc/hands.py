"""A blackjack hand in the engine's terms: totals, Macau's bonus terms and suits, split hands.

What the one-hand API (:mod:`strategy_calc.blackjack`) and the whole-game pass
(:mod:`strategy_calc.game`) both need, so neither imports the other: a hand's
total, the bonus terms of a hand or split hand (the suited 6-7-8 chance from
the suits the shoe holds), the engine parameters of split hands, their suit
cases, and the split values under each split strategy. Values are raw, on the
engine's scale (see :class:`strategy_calc.engine.Conditioning`).

>>> hand_total([1, 6]), is_natural([10, 1])
((17, True), True)
"""

from __future__ import annotations

import array
from collections.abc import Callable, Sequence
from dataclasses import replace

from strategy_calc import engine
from strategy_calc.cards import SUITED_RANKS, SUITS, Card, CardError, Rank, Shoe
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.splits import SplitValues, cdz_codes, combine, combine_moments, max_hands_for

AUTOPLAY_POLICY = memoryview(array.array("b", [1 if (k % 32) <= 11 else 0 for k in range(64)]))
"""Auto-play on disconnection (Deluxe): hit while the best total (an ace counting
11 when that does not bust) is 11 or less, then stand; indexed by node class
(best total, plus 32 when soft)."""


def hand_total(ranks: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an ace counted as 11).

    >>> hand_total([1, 6]), hand_total([10, 6, 1]), hand_total([1, 1, 10])
    ((17, True), (17, False), (12, False))
    """
    hard = sum(ranks)
    if 1 in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_natural(ranks: Sequence[int]) -> bool:
    """A two-card ace + ten-valued card (a blackjack when it is the initial hand)."""
    return len(ranks) == 2 and sorted(ranks) == [1, 10]


def suited_bonus_chance(shoe: Shoe, cards: Sequence[Card], needed: Sequence[Rank]) -> float:
    """Probability that ``cards`` plus one card of each rank in ``needed`` are all one suit.

    Cards given without a suit take each suit with the shoe's known suit
    proportions for their rank (an average over the possible assignments).

    >>> from strategy_calc.cards import parse_cards
    >>> shoe = Shoe.full(1).remove(parse_cards("6s,7s"))
    >>> suited_bonus_chance(shoe, parse_cards("6s,7s"), [Rank.EIGHT])
    0.25
    """
    total = 0.0
    for suit in SUITS:
        chance = 1.0
        for card in cards:
            if card.suit is not None:
                chance *= 1.0 if card.suit == suit else 0.0
            else:
                chance *= shoe.suit_fraction(card.rank, suit)
        for rank in needed:
            chance *= shoe.suit_fraction(rank, suit)
        total += chance
    return total


def bonus_terms(
    rules: BlackjackRules, shoe: Shoe, start: Sequence[Card], split_hand: bool
) -> tuple[float, float, float, bool]:
    """(bonus_777, bonus_678, q678, suits_known) for a hand (or split hand) starting with ``start``.

    ``q678`` is the probability that, if the hand becomes exactly 6-7-8, the
    three cards are of one suit.
    """
    if split_hand and not rules.bonus_on_split_hands:
        return 0.0, 0.0, 0.0, True
    ranks = {c.rank for c in start}
    q = 0.0
    known = True
    if rules.bonus_suited_678 > 0 and ranks <= set(SUITED_RANKS) and len(ranks) == len(start):
        needed = [r for r in SUITED_RANKS if r not in ranks]
        q = suited_bonus_chance(shoe, start, needed)
        known = all(c.suit is not None for c in start)
    return rules.bonus_777, rules.bonus_suited_678, q, known


def pre_split_codes(table: engine.UpCardPass) -> bytes:
    """The pre-split strategy (``cdz``) as engine codes: each node's best unsplit play in
    an up-card pass (:func:`strategy_calc.splits.cdz_codes`)."""
    return cdz_codes(table.column("stand"), table.column("hit"), table.column("double"),
                     engine.node_table().ncards)


def split_values(
    rules: BlackjackRules, base: Shoe, up: Rank, pair: Rank, conditioning: engine.Conditioning,
    chart_codes: memoryview | None = None, memo: engine.DealerMemo | None = None,
    pair_cards: Sequence[Card] | None = None,
    columns: int = engine.SPLIT_ALL, play: str = "cdp1", lazy: bool = False,
    params: engine.EngineParams | None = None,
) -> SplitValues | None:
    """Raw split EVs (the engine's scale) of the first hand and of the others, or None.

    ``base``: the shoe with both pair cards still in it (up card and known
    cards removed). Strategy and method: :mod:`strategy_calc.splits`; with one
    split allowed this is exactly twice one hand that ignores the other's cards.
    ``chart_codes`` (per engine node: bit 1 double, 2 hit, 4 stand) adds the
    values of playing split hands by a chart. ``memo``: dealer distributions
    shared with the rest of a whole-game pass (a speed-up only). ``pair_cards``:
    the two pair cards as given (their suits); with one split, each hand's
    suited 6-7-8 chance is that of its own pair card (a pair card whose suit
    cannot complete a suited 6-7-8 gets none). Its play still decides with that
    chance, not by the suits it draws. ``columns``: the engine's. ``play``: the split
    strategy of the optimal figures, ``cdp1``, ``cdp`` or ``cdp-hands``
    (:data:`strategy_calc.splits.SPLIT_STRATEGIES`; the three agree without resplits).
    ``lazy``: :func:`strategy_calc.engine.split_tables`' (a speed-up only).
    ``params``: the first hand's :func:`split_hand_params` when the caller has them (without
    the suited bonus they do not depend on the shoe, nor on its ``suits`` flag; a speed-up
    only).
    """
    if rules.max_split_hands < 2:
        return None
    max_hands = max_hands_for(rules, pair is Rank.ACE)
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    suits = max_hands == 2  # resplit rows reuse frozen decisions, which cannot see suits
    if params is None:
        params = split_hand_params(rules, base, cards, conditioning, suits)
    extra = 2 * (max_hands - 2)
    own_rows = None
    if play == "cdp" and max_hands > 2:  # each row its own removal's best play
        own_rows = engine.split_tables(base, pair, up, params, extra, None, memo,
                                       engine.SPLIT_OPTIMAL, -1, lazy)
    if own_rows is not None and chart_codes is None:
        rows_first, rows_others = own_rows
    else:
        rows_first, rows_others = engine.split_tables(
            base, pair, up, params, extra, chart_codes, memo,
            columns & ~engine.SPLIT_OPTIMAL if own_rows is not None else columns, lazy=lazy)
    if max_hands == 2 and cards[1].suit != cards[0].suit:
        second = split_hand_params(rules, base, cards[::-1], conditioning, suits)
        if second != params:
            rows_others = engine.split_tables(base, pair, up, second, 0, chart_codes, memo,
                                              columns, lazy=lazy)[1]
    n, n_pair = base.total - 2, base.count(pair) - 2  # both pair cards gone (the engine
    # checked the shoe holds them)
    by_resplits = None
    if play == "cdp-hands" and max_hands > 2:  # each resplit count plays its own decisions
        by_resplits = [(rows_first, rows_others)] + [
            engine.split_tables(base, pair, up, params, extra, None, memo,
                                engine.SPLIT_OPTIMAL, k)
            for k in range(1, min(max_hands - 2, n_pair) + 1)]

    def total(column: int) -> tuple[float, float]:
        if column == 0 and own_rows is not None:
            return combine(*own_rows, 0, n, n_pair, max_hands)
        return combine(rows_first, rows_others, column, n, n_pair, max_hands,
                       by_resplits if column == 0 else None)

    if chart_codes is None:
        return SplitValues(total(0))
    return SplitValues(total(0), total(2), total(4))


def split_hand_params(
    rules: BlackjackRules, base: Shoe, cards: Sequence[Card], conditioning: engine.Conditioning,
    suits: bool = True, start: Card | None = None,
) -> engine.EngineParams:
    """The engine parameters of a split hand started by ``cards[0]`` (both pair cards gone).

    ``suits``: a split 6, 7 or 8 under the suited bonus plays knowing the suits of its
    own cards (:func:`split_suit_cases`); else it decides with the suit-averaged chance.
    ``start``: the hand's pair card if not ``cards[0]`` (a resplit hand: a pair card
    drawn from the shoe less ``cards``, suit unknown).
    """
    left = base.remove(cards)
    first = cards[0] if start is None else start
    b777, b678, q678, _known = bonus_terms(rules, left, [first], split_hand=True)
    params = engine.engine_params(rules, conditioning, pair=first.rank).with_bonus(
        b777, b678, q678)
    if suits and b678 > 0 and first.rank in SUITED_RANKS:
        return replace(params, split_suits=split_suit_cases(left, first))
    return params


def split_suit_cases(shoe: Shoe, card: Card) -> tuple[tuple[float, float, float, float], ...]:
    """The suit cases of a split hand started by ``card`` (a 6, 7 or 8): per suit its pair
    card may have, ``(probability, chance that a 6, 7, 8 drawn from shoe has it)``.

    A pair card of unknown suit takes each suit with the shoe's proportion for its rank.

    >>> from strategy_calc.cards import parse_cards
    >>> split_suit_cases(Shoe.full(1).remove(parse_cards("7s,7h,6h")), parse_cards("7s")[0])
    ((1.0, 0.3333333333333333, 0.0, 0.25),)
    """
    cases: list[tuple[float, float, float, float]] = []
    for suit in _case_suits(shoe, card):
        weight = 1.0 if card.suit is not None else shoe.suit_fraction(card.rank, suit)
        six, seven, eight = (shoe.suit_fraction(r, suit) for r in SUITED_RANKS)
        cases.append((weight, six, seven, eight))
    return tuple(cases)


def _case_suits(shoe: Shoe, card: Card) -> list[str]:
    """The suits of :func:`split_suit_cases`, in its order."""
    if card.suit is not None:
        return [card.suit]
    return [s for s in SUITS if shoe.suit_fraction(card.rank, s) > 0]


def split_suit_joint(base: Shoe, cards: Sequence[Card]) -> engine.SplitSuits:
    """How the suits of the two pair cards ``cards`` (a split 6, 7 or 8) go together.

    ``base`` holds both pair cards. A pair card of unknown suit is one drawn from the
    shoe's suit rows less the cards of known suit (and less the other pair card when
    that one is drawn first): the two unknown suits are two draws without replacement.
    The cases index :func:`split_suit_cases` of each hand (``cards`` and ``cards[::-1]``,
    in the shoe less both).

    >>> from strategy_calc.cards import parse_cards
    >>> two = Shoe.full(1).remove(parse_cards("7h,7d"))  # a 7 of spades and one of clubs
    >>> [(round(w, 3), i, j, same) for w, i, j, same in
    ...  split_suit_joint(two, parse_cards("7,7")).pairs]
    [(0.5, 0, 1, False), (0.5, 1, 0, False)]
    """
    rank = cards[0].rank
    left = base.remove(cards)
    known = base.remove([c for c in cards if c.suit is not None])
    first, second = _case_suits(left, cards[0]), _case_suits(left, cards[1])
    pairs: list[tuple[float, int, int, bool]] = []
    for i, s1 in enumerate(first):
        p1 = 1.0 if cards[0].suit is not None else known.suit_fraction(rank, s1)
        if p1 <= 0:
            continue
        rest = known if cards[0].suit is not None else known.remove([Card(rank, s1)])
        for j, s2 in enumerate(second):
            p2 = 1.0 if cards[1].suit is not None else rest.suit_fraction(rank, s2)
            if p1 * p2 > 0:
                pairs.append((p1 * p2, i, j, s1 == s2))
    pool = tuple(float(sum(left.suits[r - 1])) for r in SUITED_RANKS)
    return engine.SplitSuits((pool[0], pool[1], pool[2]), tuple(pairs))


def mean_split_values(cases: Sequence[tuple[float, SplitValues | None]]) -> SplitValues | None:
    """The split values of :func:`up_card_suits`' shoes, weighted (None if any is None)."""
    if any(v is None for _p, v in cases):
        return None

    def mean(pick: Callable[[SplitValues], tuple[float, float] | None]
             ) -> tuple[float, float] | None:
        parts = [(p, pick(v)) for p, v in cases if v is not None]
        if any(x is None for _p, x in parts):
            return None
        return (sum(p * x[0] for p, x in parts if x is not None),
                sum(p * x[1] for p, x in parts if x is not None))

    optimal = mean(lambda v: v.optimal)
    assert optimal is not None
    return SplitValues(optimal, mean(lambda v: v.chart), mean(lambda v: v.chart_no_das))


def up_card_suits(
    rules: BlackjackRules, base: Shoe, up: Rank, pair: Rank,
) -> list[tuple[float, Shoe]]:
    """The shoes a split of ``pair`` against an up card of unknown suit is valued from.

    ``base``: the shoe less the up card, its suit not given (the suit rows still hold
    it). A split 6, 7 or 8 under the suited bonus draws the two other ranks of its
    pair card's suit; an up card of one of those ranks is such a card gone, and the
    player sees its suit. So then each suit the up card can have gives a shoe, with
    its chance from the suit rows; else ``[(1.0, base)]``.

    >>> from strategy_calc.rules import blackjack_rules
    >>> macau = blackjack_rules("macau-1983", ["decks=1"])
    >>> base = Shoe.full(1).remove([Card(Rank.EIGHT)])
    >>> [(p, shoe.suits[7]) for p, shoe in up_card_suits(macau, base, Rank.EIGHT, Rank.SEVEN)]
    [(0.25, (0, 1, 1, 1)), (0.25, (1, 0, 1, 1)), (0.25, (1, 1, 0, 1)), (0.25, (1, 1, 1, 0))]
    >>> len(up_card_suits(macau, base, Rank.EIGHT, Rank.EIGHT))
    1
    """
    if not (rules.bonus_suited_678 > 0 and rules.bonus_on_split_hands and pair != up
            and pair in SUITED_RANKS and up in SUITED_RANKS):
        return [(1.0, base)]
    row = base.suits[up - 1]
    counts = list(base.counts)
    counts[up - 1] += 1
    with_up = Shoe(base.decks, tuple(counts), base.suits)
    total = sum(row)
    if total < counts[up - 1]:
        raise CardError(f"the shoe's suit row for {up.symbol}s holds fewer cards than its"
                        " count")
    return [(row[k] / total, with_up.remove([Card(up, suit)]))
            for k, suit in enumerate(SUITS) if row[k] > 0]


def split_round_params(
    rules: BlackjackRules, base: Shoe, cards: Sequence[Card], conditioning: engine.Conditioning,
) -> tuple[engine.EngineParams, engine.EngineParams, engine.SplitSuits | None]:
    """Both split hands' engine parameters (:func:`split_hand_params`) and, when they play
    knowing their suits, their pair cards' joint suits: what
    :func:`strategy_calc.engine.split_distribution` takes for the round of ``cards``."""
    first = split_hand_params(rules, base, cards, conditioning)
    second = split_hand_params(rules, base, cards[::-1], conditioning)
    return first, second, split_suit_joint(base, cards) if first.split_suits else None


def optimal_split_ev(
    base: Shoe, up: Rank, pair: Rank, rules: BlackjackRules, conditioning: engine.Conditioning,
    progress: Callable[[int, int], None] | None = None,
    pair_cards: Sequence[Card] | None = None,
) -> engine.OptimalSplitValue:
    """The fully optimal split (raw, all hands; :func:`strategy_calc.engine.split_optimal`).

    Every decision of every split hand, resplits included, uses everything seen in
    the round and maximises the whole round. ``pair_cards``: the pair as given (its
    suits): hands 1 and 2 start from their own pair card, a resplit hand from a pair
    card of unknown suit; a split 6, 7 or 8 decides knowing the suits of its own
    cards (not those of the other hands: a strategy that uses every card's rank).
    """
    if conditioning is engine.Conditioning.PEEK_SHORTCUT:
        raise RulesError("the optimal split is computed in the exact peek model (the"
                         " shortcut renormalises each shoe, so hands seen together do not"
                         " add up)")
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    return engine.split_optimal(
        base, pair, up, split_hand_params(rules, base, cards, conditioning),
        max_hands_for(rules, pair is Rank.ACE), progress,
        split_hand_params(rules, base, cards[::-1], conditioning),
        split_hand_params(rules, base, cards, conditioning, start=Card(pair)))


def postsplit_ev(
    base: Shoe, up: Rank, pair: Rank, rules: BlackjackRules, conditioning: engine.Conditioning,
    pair_cards: Sequence[Card] | None = None,
) -> float:
    """Raw EV of one split where the second hand plays knowing the first hand's cards.

    ``pair_cards``: the pair as given; each hand takes its own pair card's suited 6-7-8
    chance (see :func:`optimal_split_ev`)."""
    if max_hands_for(rules, pair is Rank.ACE) > 2:
        raise RulesError("the post-split composition-dependent split is computed for one split"
                         " only (max_split_hands = 2)")
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    one, two = engine.split_postsplit(base, pair, up, split_hand_params(rules, base, cards,
                                                                    conditioning),
                                      split_hand_params(rules, base, cards[::-1], conditioning))
    return one + two


def resplit_moments(
    rules: BlackjackRules, pair: Rank, up: Rank, base: Shoe, conditioning: engine.Conditioning,
    codes: memoryview | None,
) -> tuple[float, float, float]:
    """Raw ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a split round with resplits (up
    to :func:`~strategy_calc.splits.max_hands_for` hands), exactly: every split hand plays
    ``codes`` or, if None, its own best play for its cards, the up card and the pair
    (``cdp1``); see :func:`strategy_calc.splits.combine_moments` for the derivation.
    ``base``: both pair cards in it, up card gone; raw as :func:`split_moments` (peek: the
    outcomes with no dealer blackjack). A :class:`RulesError` (never a different game)
    where this is not exact: the peek shortcut, split 6s, 7s and 8s under the suited
    6-7-8 bonus (each resplit hand's own suit chance), a shoe some play could run out of.
    """
    max_hands = max_hands_for(rules, pair is Rank.ACE)
    if conditioning is engine.Conditioning.PEEK_SHORTCUT:
        raise RulesError("exact moments with resplits are computed in the exact peek model,"
                         " not the shortcut")
    first, second, suits = split_round_params(rules, base, [Card(pair), Card(pair)],
                                              conditioning)
    later = split_hand_params(rules, base, [Card(pair), Card(pair)], conditioning,
                              start=Card(pair))
    if (suits is not None or first.suited_678_chance or second.suited_678_chance
            or later != second):
        raise RulesError("exact moments with resplits of 6s, 7s and 8s under the suited 6-7-8"
                         " bonus are not computed (each hand's suit chance differs);"
                         " use max_split_hands=2")
    if could_run_out(base, max_hands):
        raise RulesError(f"exact moments with resplits to {max_hands} hands need a shoe the"
                         f" hands and the dealer cannot run out of ({base.total} cards left)")
    rows = engine.resplit_moment_rows(base, pair, up, first, codes, 2 * max_hands - 2, second)
    return combine_moments(rows, base.total - 2, base.count(pair) - 2, max_hands)


def could_run_out(base: Shoe, hands: int) -> bool:
    """Whether ``hands`` player hands and the dealer could need more cards than ``base``
    holds (up card gone). Each hand draws only while its hard total is at most 20, the
    dealer while his is at most 16, so a hand's cards before its last add up to at most 20
    and the dealer's from the shoe (hole card and draws) before his last to at most 16
    less his up card; all those cards together are at most the most cards of ``base``
    whose values (aces 1) add up to ``20 hands + 16``, and each hand and the dealer then
    take one last card.

    >>> could_run_out(Shoe.full(1), 4), could_run_out(Shoe.from_counts([12] + [0] * 9), 2)
    (False, True)
    """
    budget, taken = 20 * hands + 16, 0
    for value, count in enumerate(base.counts, start=1):
        k = min(count, budget // value)
        taken += k
        budget -= k * value
    return taken + hands + 1 > base.total
