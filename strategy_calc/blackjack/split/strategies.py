"""The named split strategies: how split hands play, one vocabulary for the library and the
command line (``--split-strategy``).

>>> SplitStrategy.CDP_HANDS, check_split_strategy(" CDZ ")
(<SplitStrategy.CDP_HANDS: 'cdp-hands'>, <SplitStrategy.CDZ: 'cdz'>)
>>> check_split_strategy("cdx")
Traceback (most recent call last):
...
strategy_calc.errors.InputError: unknown split strategy 'cdx': choose from cdp1, cdz, cdp, ...
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from strategy_calc.blackjack.hand_rules import beats
from strategy_calc.errors import InputError


class SplitStrategy(StrEnum):
    """How split hands play under optimal play (the value is the ``--split-strategy`` word;
    :attr:`description` says what it means)."""

    CDP1 = "cdp1"
    CDZ = "cdz"
    CDP = "cdp"
    CDP_HANDS = "cdp-hands"
    POSTSPLIT = "postsplit"
    OPTIMAL = "optimal"

    @property
    def description(self) -> str:
        """What the strategy means, in one sentence."""
        return _DESCRIPTIONS[self]

    @property
    def one_hand_at_a_time(self) -> bool:
        """Each split hand plays one fixed strategy on its own cards (``cdp1``, ``cdz``):
        the removal identities value it and its moments with resplits exactly."""
        return self in (SplitStrategy.CDP1, SplitStrategy.CDZ)


_DESCRIPTIONS: dict[SplitStrategy, str] = {
    SplitStrategy.CDP1: (
        'each split hand plays the best composition-dependent strategy for its own cards, the '
        "up card and the pair; later hands reuse the decisions of the first split hand's "
        "removal (the field's CDP1)"),
    SplitStrategy.CDZ: (
        'each split hand takes the decisions of the identical unsplit hand (the pre-split '
        'strategy: its cards and the up card, the other pair card still unseen), valued exactly'
        " with both pair cards gone (the field's CDZ-)"),
    SplitStrategy.CDP: (
        "the field's CDP (Eric Farmer's): the resplit sum of cdp1, but each of its terms valued"
        ' with the best composition-dependent play for the pair cards removed in the shoe that '
        "term is valued with (each removal's own play, mixed by the removal identities: no "
        'single process of play); equals cdp1 without resplits'),
    SplitStrategy.CDP_HANDS: (
        "every hand's second card is dealt first (resplitting as pairs come), then every hand "
        'plays the best composition-dependent strategy for its own cards, the up card and all '
        'the pair cards that started hands (decisions by the number of resplits made); equals '
        'cdp1 without resplits'),
    SplitStrategy.POSTSPLIT: (
        'one split: the first hand as cdp1, the second plays the best strategy for everything '
        "seen by then (the pair, the up card, all the first hand's cards)"),
    SplitStrategy.OPTIMAL: (
        'fully optimal: every decision of every split hand (resplits included) uses everything '
        'seen in the round, dealt in casino order (hand 1 played out, then hand 2, ...), and '
        'maximises the EV of the whole round'),
}

SPLIT_STRATEGIES: dict[str, str] = {s.value: s.description for s in SplitStrategy}
"""The named split strategies and what each means (``--split-strategy``)."""


def check_split_strategy(name: str) -> SplitStrategy:
    """The strategy named (case and spaces ignored), or an :class:`InputError` naming the
    choices."""
    key = name.strip().lower()
    if key not in SPLIT_STRATEGIES:
        raise InputError(f"unknown split strategy {name!r}: choose from"
                         f" {', '.join(SPLIT_STRATEGIES)}")
    return SplitStrategy(key)


def computed_as(strategy: SplitStrategy, infinite_deck: bool, max_split_hands: int
                ) -> SplitStrategy:
    """The split strategy whose computation gives ``strategy``'s value: itself, but for an
    infinite deck (every card drawn with replacement, so no card dealt tells anything about
    the next). There cdp, cdp-hands and postsplit are cdp1 (each hand's best play for its
    own cards is the best play whatever else was seen), and so is the fully optimal split
    of one split (two hands, each maximised on its own); with resplits it is refused (the
    optimal solver may decline a resplit, which cdp1 does not value).

    >>> computed_as(SplitStrategy.CDP, True, 4), computed_as(SplitStrategy.CDP, False, 4)
    (<SplitStrategy.CDP1: 'cdp1'>, <SplitStrategy.CDP: 'cdp'>)
    >>> computed_as(SplitStrategy.CDZ, True, 4), computed_as(SplitStrategy.OPTIMAL, True, 2)
    (<SplitStrategy.CDZ: 'cdz'>, <SplitStrategy.CDP1: 'cdp1'>)
    """
    if not infinite_deck or strategy in (SplitStrategy.CDP1, SplitStrategy.CDZ):
        return strategy
    if strategy is SplitStrategy.OPTIMAL and max_split_hands > 2:
        raise InputError("the fully optimal split with resplits is not computed for an"
                         " infinite deck (--decks inf): use --split-strategy cdp1 (each"
                         " hand's best play, the same there but for declined resplits) or"
                         " --set max_split_hands=2")
    return SplitStrategy.CDP1


def cdz_codes(stand: Sequence[float], hit: Sequence[float], double: Sequence[float],
              ncards: Sequence[int], late: bool = False) -> bytes:
    """Engine codes (bit 1 double, 2 hit, 4 stand) of the unsplit hands' best plays.

    Per node: hit where hitting beats standing; on two-card nodes (and, with ``late``,
    double_after_hit, on nodes of more cards) also bit 1 where doubling beats both (the
    engine doubles a split hand there only if the rules let split hands double; else it
    hits or stands by the other bit).

    >>> cdz_codes([0.1, -0.5], [0.0, -0.4], [0.3, float("nan")], [2, 3])
    b'\\x05\\x02'
    """
    out = bytearray()
    for s, h, d, n in zip(stand, hit, double, ncards, strict=True):
        code = 2 if beats(h, s) else 4
        if (n == 2 or (late and n > 2)) and d == d and beats(d, h if code == 2 else s):
            code |= 1
        out.append(code)
    return bytes(out)
