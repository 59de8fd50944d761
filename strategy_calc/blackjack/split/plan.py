"""The split plan of a pair: the split facts derived once from the rules, and what a split
hand's engine record takes from the shoe.

A pair's facts under one ruleset (how many hands it may become, whether split aces take
one card, whether split hands may double, the engine parameter record every hand of it
starts from, whether its hands see their suits for Macau's suited 6-7-8) are made in one
place, :meth:`SplitPlan.of`, once per pair of an analysis (:func:`split_plans`); the game
pass, the one-hand analysis, the distributions, the boxes, the play-out, the drill and
the counter all read them from the plan, and nothing below re-derives them from the
rules. What depends on the cards (a hand's suited 6-7-8 chance, its suit cases, the
shoes an up card of unknown suit leaves) the plan derives from the shoe it is given.

>>> from strategy_calc.rules import blackjack_rules
>>> plans = split_plans(blackjack_rules("deluxe", ["max_split_hands=4"]))
>>> plans[Rank.ACE].max_hands, plans[Rank.EIGHT].max_hands, plans[Rank.ACE].one_card
(2, 4, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType

from strategy_calc import engine
from strategy_calc.blackjack.bonus import bonus_rows, bonus_terms
from strategy_calc.cards import RANKS, SUITED_RANKS, SUITS, Card, CardError, Rank, Shoe
from strategy_calc.rules import BlackjackRules


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """The split facts of one pair under one ruleset and conditioning (build it with
    :meth:`of`, or for a whole game :func:`split_plans`)."""

    rules: BlackjackRules
    pair: Rank
    conditioning: engine.Conditioning
    max_hands: int
    """Most hands the pair may become: ``max_split_hands``, but 2 for aces unless they
    may be resplit; 1: the rules allow no split (of this pair: ``no_split_ranks``)."""
    one_card: bool
    """Each split hand takes exactly one card (split aces)."""
    may_double: bool
    """Split hands may double (never one-card split aces)."""
    params: engine.EngineParams
    """The engine record every hand of the split starts from (its bonus terms are the
    rules'; :meth:`hand_params` adds a hand's own from the shoe)."""
    sees_suits: bool
    """A split 6, 7 or 8 under the suited 6-7-8 bonus on split hands: each hand's bonus
    chance depends on its pair card's suit and the suits left, and an up card of the
    other two ranks shows its suit (:meth:`up_card_shoes`)."""
    fixed: engine.EngineParams | None
    """Every hand's engine record where it does not depend on the shoe (no suited 6-7-8
    bonus: its chance is 0 whatever the suits); None where it does."""

    @classmethod
    def of(cls, rules: BlackjackRules, pair: Rank,
           conditioning: engine.Conditioning | None = None) -> SplitPlan:
        """The plan of ``pair`` under ``rules`` (``conditioning``: default the rules'):
        the one place the rules become a pair's split facts.

        >>> from strategy_calc.rules import blackjack_rules
        >>> SplitPlan.of(blackjack_rules("macau-1983"), Rank.SEVEN).sees_suits
        True
        """
        cond = engine.Conditioning.of(rules) if conditioning is None else conditioning
        aces = pair is Rank.ACE
        max_hands = (1 if not rules.may_split(pair)  # (no_split_ranks)
                     else min(2, rules.max_split_hands) if aces and not rules.resplit_aces
                     else rules.max_split_hands)
        sees_suits = rules.suited_678(split=True)[0] > 0 and pair in SUITED_RANKS
        params = engine.engine_params(rules, cond, pair=pair)
        fixed = None  # (bonus_terms' of a split hand that has no suited chance to find)
        if not sees_suits:
            fixed = params.with_bonus(bonus_rows(rules, True),
                                      rules.suited_678(split=True)[0], 0.0)
        return cls(rules, pair, cond, max_hands, rules.split_aces_take_one_card(aces),
                   rules.split_hands_may_double(aces), params, sees_suits, fixed)

    @property
    def allowed(self) -> bool:
        """Whether the rules let the pair be split at all."""
        return self.max_hands >= 2

    @property
    def resplits(self) -> bool:
        """Whether the split may become more than two hands."""
        return self.max_hands > 2

    def hand_params(self, base: Shoe, cards: Sequence[Card], suits: bool = True,
                    start: Card | None = None) -> engine.EngineParams:
        """The engine record of a split hand started by ``cards[0]`` (``base``: both pair
        cards still in it, up card gone).

        ``suits``: a split 6, 7 or 8 under the suited bonus plays knowing the suits of
        its own cards (:func:`split_suit_cases`); else it decides with the suit-averaged
        chance. ``start``: the hand's pair card if not ``cards[0]`` (a resplit hand: a
        pair card drawn from the shoe less ``cards``, suit unknown). Without the suited
        bonus the record does not depend on the shoe: it is :attr:`fixed`.
        """
        if self.fixed is not None:
            return self.fixed
        left = base.remove(cards)
        first = cards[0] if start is None else start
        rows, b678, q678, _known = bonus_terms(self.rules, left, [first], split_hand=True)
        params = self.params.with_bonus(rows, b678, q678)
        if suits and b678 > 0 and first.rank in SUITED_RANKS:
            return replace(params, split_suits=split_suit_cases(left, first))
        return params

    def blind_params(self, suited_chance: float) -> engine.EngineParams:
        """The engine record of a split hand that does not look at suits: the bonuses as
        the rules pay them on split hands, with ``suited_chance`` the suit-averaged chance
        a 6-7-8 it makes is suited (e.g. one of several boxes of a round)."""
        b678 = self.rules.suited_678(split=True)[0]
        return self.params.with_bonus(bonus_rows(self.rules, True), b678,
                                      suited_chance if b678 > 0 else 0.0)

    def round_params(self, base: Shoe, cards: Sequence[Card] | None = None,
                     ) -> tuple[engine.EngineParams, engine.EngineParams,
                                engine.SplitSuits | None]:
        """Both split hands' engine records (:meth:`hand_params`) and, when they play
        knowing their suits, their pair cards' joint suits: what
        :func:`strategy_calc.engine.split_distribution` takes for the round of ``cards``
        (default two pair cards of unknown suit)."""
        cards = self.cards(cards)
        first = self.hand_params(base, cards)
        second = self.hand_params(base, cards[::-1])
        return first, second, split_suit_joint(base, cards) if first.split_suits else None

    def cards(self, given: Sequence[Card] | None = None) -> list[Card]:
        """The two pair cards as given (their suits), or two of unknown suit."""
        return list(given) if given is not None else [Card(self.pair), Card(self.pair)]

    def up_card_shoes(self, base: Shoe, up: Rank) -> list[tuple[float, Shoe]]:
        """The shoes the split is valued from against an up card of unknown suit.

        ``base``: the shoe less the up card, its suit not given (the suit rows still hold
        it). A split 6, 7 or 8 under the suited bonus draws the two other ranks of its
        pair card's suit; an up card of one of those ranks is such a card gone, and the
        player sees its suit. So then each suit the up card can have gives a shoe, with
        its chance from the suit rows; else ``[(1.0, base)]``.

        >>> from strategy_calc.rules import blackjack_rules
        >>> macau = blackjack_rules("macau-1983", ["decks=1"])
        >>> base = Shoe.full(1).remove([Card(Rank.EIGHT)])
        >>> sevens = SplitPlan.of(macau, Rank.SEVEN)
        >>> [(p, shoe.suits[7]) for p, shoe in sevens.up_card_shoes(base, Rank.EIGHT)]
        [(0.25, (0, 1, 1, 1)), (0.25, (1, 0, 1, 1)), (0.25, (1, 1, 0, 1)), (0.25, (1, 1, 1, 0))]
        >>> len(SplitPlan.of(macau, Rank.EIGHT).up_card_shoes(base, Rank.EIGHT))
        1
        """
        if not (self.sees_suits and self.pair != up and up in SUITED_RANKS) or base.infinite:
            return [(1.0, base)]  # (an infinite deck: no card seen changes a suit's chance)
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


def split_plans(rules: BlackjackRules, conditioning: engine.Conditioning | None = None,
                ) -> Mapping[Rank, SplitPlan]:
    """Every pair's :class:`SplitPlan` under ``rules`` and ``conditioning`` (default the
    rules'), made once per ruleset and conditioning in a process (they are values)."""
    return _plans(rules, engine.Conditioning.of(rules) if conditioning is None
                  else conditioning)


@lru_cache(maxsize=64)
def _plans(rules: BlackjackRules, conditioning: engine.Conditioning,
           ) -> Mapping[Rank, SplitPlan]:
    return MappingProxyType({pair: SplitPlan.of(rules, pair, conditioning) for pair in RANKS})


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
