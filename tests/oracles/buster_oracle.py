"""A brute force of Buster in casino order on small shoes (exact fractions).

Written from the bet's definition (docs/MODEL.md "Buster", the source in
strategy_calc/sidebets/builtin/buster.toml) and the dealing rules (/work/shared/RULES.md),
not from strategy_calc.sidebets: the round is dealt card by card without replacement from a
shoe of ``counts[r - 1]`` cards of each blackjack rank ``r`` (ace 1, ten-valued 10), in
casino order: the player's first card, the dealer's up card, the player's second card, the
dealer's hole card. Under the peek a dealer blackjack ends the round (a 21, not a bust).
Else the player plays his hand by a fixed rule: he stands on a blackjack, and otherwise
hits while his best total is below ``player_stands`` (an ace counts 11 while that does not
pass 21). Then the dealer completes his hand *whether or not the player busted*: he draws
while his best total is below 17, or is a soft 17 and he hits soft 17.

The result, per outcome ``(n, blackjack)``: the probability that the dealer busts with
``n`` cards and whether the player's first two cards are an ace and a ten-valued card;
``None`` collects the rounds in which the dealer does not bust. A round that would need a
card the shoe no longer holds is an error (choose a larger shoe).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rational import Fraction

Outcome = tuple[int, bool] | None


def best(cards: Sequence[int]) -> tuple[int, bool]:
    """The best total of blackjack ranks (an ace 11 while that stays at 21 or less) and
    whether it is soft."""
    hard = sum(cards)
    if 1 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def dealer_draws(cards: Sequence[int], h17: bool) -> bool:
    total, soft = best(cards)
    return total < 17 or (total == 17 and soft and h17)


Dist = dict[Outcome, Fraction]


def _draws(shoe: tuple[int, ...]) -> list[tuple[int, Fraction, tuple[int, ...]]]:
    """Each rank the next card can be: (rank, its probability, the shoe after it)."""
    left = sum(shoe)
    if left == 0:
        raise ValueError("the shoe ran out in a round: choose a larger shoe")
    return [(r, Fraction(shoe[r - 1], left), (*shoe[:r - 1], shoe[r - 1] - 1, *shoe[r:]))
            for r in range(1, 11) if shoe[r - 1]]


def _mix(parts: list[tuple[Fraction, Dist]]) -> Dist:
    out: Dist = {}
    for q, dist in parts:
        for key, p in dist.items():
            out[key] = out.get(key, Fraction(0)) + q * p
    return out


def buster_round(counts: Sequence[int], h17: bool, player_stands: int = 13,
                 peek: bool = True) -> Dist:
    """Every dealing of one round from the shoe ``counts``, weighted exactly (the
    continuations from equal shoes and hands are the same dealings, so each is counted
    once and reused)."""

    @cache
    def dealer(shoe: tuple[int, ...], hand: tuple[int, ...], blackjack: bool) -> Dist:
        if not dealer_draws(hand, h17):
            return {(len(hand), blackjack) if sum(hand) > 21 else None: Fraction(1)}
        return _mix([(q, dealer(rest, (*hand, r), blackjack)) for r, q, rest in _draws(shoe)])

    @cache
    def player(shoe: tuple[int, ...], mine: tuple[int, ...], up: int, hole: int) -> Dist:
        if best(mine)[0] < player_stands:
            return _mix([(q, player(rest, tuple(sorted((*mine, r))), up, hole))
                         for r, q, rest in _draws(shoe)])
        return dealer(shoe, (up, hole), False)  # stood or bust: the dealer plays on

    def dealt(shoe: tuple[int, ...], first: int, up: int, second: int, hole: int) -> Dist:
        if peek and sorted((up, hole)) == [1, 10]:
            return {None: Fraction(1)}  # the dealer's blackjack ends the round: no bust
        if sorted((first, second)) == [1, 10]:
            return dealer(shoe, (up, hole), True)
        return player(shoe, tuple(sorted((first, second))), up, hole)

    return _mix([(q1, _mix([(q2, _mix([(q3, _mix([(q4, dealt(s4, first, up, second, hole))
                                                   for hole, q4, s4 in _draws(s3)]))
                                       for second, q3, s3 in _draws(s2)]))
                           for up, q2, s2 in _draws(s1)]))
                 for first, q1, s1 in _draws(tuple(counts))])


def dealer_alone(counts: Sequence[int], h17: bool) -> dict[int, Fraction]:
    """The dealer's busted hands by number of cards when he is dealt from the top of the
    shoe with no player (the distribution the bet is priced by)."""
    out: dict[int, Fraction] = {}

    def go(shoe: list[int], p: Fraction, hand: list[int]) -> None:
        if len(hand) >= 2 and not dealer_draws(hand, h17):
            if sum(hand) > 21:
                out[len(hand)] = out.get(len(hand), Fraction(0)) + p
            return
        left = sum(shoe)
        if left == 0:
            raise ValueError("the shoe ran out under the dealer")
        for r in range(1, 11):
            if shoe[r - 1]:
                q = p * Fraction(shoe[r - 1], left)
                shoe[r - 1] -= 1
                go(shoe, q, [*hand, r])
                shoe[r - 1] += 1

    go(list(counts), Fraction(1), [])
    return out
