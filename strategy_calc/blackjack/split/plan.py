"""A split hand's facts: its engine parameters, its suit cases, the shoes an up card of
unknown suit leaves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from strategy_calc import engine
from strategy_calc.blackjack.hand_terms import bonus_terms
from strategy_calc.cards import SUITED_RANKS, SUITS, Card, CardError, Rank, Shoe
from strategy_calc.rules import BlackjackRules


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
