"""Blackjack from an infinite deck, written from the rules text (not from the engine).

An infinite deck is a shoe no draw changes: every card, the dealer's and the player's, is
drawn with replacement, an ace and each of 2..9 with probability 1/13, a ten-valued card
(T, J, Q, K) with 4/13, whatever was dealt before. So the dealer's hand does not depend
on the player's cards, and the player's hits do not depend on the dealer's up card.

The dealer (docs/RULES.md): he holds his up card, takes a second card; an ace and a
ten-valued card are a blackjack; otherwise he draws while his total is below 17, an ace
counting 11 when that does not pass 21; with ``h17`` he also draws to a soft 17.

The player's values here are for rules with no bonus, no Charlie and no surrender:

- ``peek``: the dealer checked his hole card and has no blackjack (a hand's value is given
  that; with replacement, the check tells nothing about the cards the player draws);
- not ``peek`` (ENHC, every bet lost to a dealer blackjack): the dealer's blackjack takes
  the player's whole bet (doubled or not), his other ends settle as usual.

A hand is (hard total, holds an ace); a bust loses the bet at once. Exact ``Fraction``s.

>>> up_ten = dealer(10, h17=False)
>>> up_ten["blackjack"] == Fraction(1, 13)
True
>>> sum(up_ten.values()) == 1
True
"""

from __future__ import annotations

import functools

from rational import Fraction

ENDS = ("17", "18", "19", "20", "21", "bust")
"""The dealer's ends but a blackjack, in the order of :func:`_dealer_from`'s tuples."""


def p_rank(rank: int) -> Fraction:
    """The chance that the next card is of ``rank`` (1 ace .. 10 ten-valued): 1/13 or 4/13."""
    return Fraction(4 if rank == 10 else 1, 13)


def best_total(hard: int, has_ace: bool) -> int:
    """The best total: an ace counts 11 when that does not pass 21."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


@functools.cache
def _dealer_from(hard: int, has_ace: bool, h17: bool) -> tuple[Fraction, ...]:
    """P(17), P(18), P(19), P(20), P(21), P(bust) of a dealer past the blackjack check
    holding cards of hard total ``hard`` (``has_ace``: one is an ace)."""
    if hard > 21:
        return (Fraction(0),) * 5 + (Fraction(1),)
    total = best_total(hard, has_ace)
    if total >= 17 and not (h17 and total == 17 and total != hard):
        return (*(Fraction(int(total == 17 + k)) for k in range(5)), Fraction(0))
    ends = [Fraction(0)] * 6
    for rank in range(1, 11):
        after = _dealer_from(hard + rank, has_ace or rank == 1, h17)
        for k in range(6):
            ends[k] += p_rank(rank) * after[k]
    return tuple(ends)


def dealer(up: int, h17: bool) -> dict[str, Fraction]:
    """The dealer's final outcome with up card ``up`` (keys 17..21, bust, blackjack)."""
    ends = [Fraction(0)] * 6
    blackjack = Fraction(0)
    for second in range(1, 11):
        if {up, second} == {1, 10}:
            blackjack += p_rank(second)
            continue
        after = _dealer_from(up + second, up == 1 or second == 1, h17)
        for k in range(6):
            ends[k] += p_rank(second) * after[k]
    return {**dict(zip(ENDS, ends, strict=True)), "blackjack": blackjack}


def _ends(up: int, h17: bool, peek: bool) -> tuple[dict[str, Fraction], Fraction]:
    """The dealer's ends but a blackjack, and P(blackjack): given no blackjack if ``peek``
    (then P(blackjack) is 0)."""
    law = dealer(up, h17)
    p_bj = law.pop("blackjack")
    if peek:
        return {k: p / (1 - p_bj) for k, p in law.items()}, Fraction(0)
    return law, p_bj


def stand(total: int, up: int, h17: bool, peek: bool, bet: int = 1) -> Fraction:
    """Standing on ``total`` (21 or less, not a natural) with ``bet`` on it."""
    law, p_bj = _ends(up, h17, peek)
    value = law["bust"] - p_bj
    for k in range(5):
        dealer_total = 17 + k
        value += law[str(dealer_total)] * ((total > dealer_total) - (total < dealer_total))
    return bet * value


@functools.cache
def play(hard: int, has_ace: bool, up: int, h17: bool, peek: bool) -> Fraction:
    """The best of standing and hitting (then playing on at best) on a hand."""
    if hard > 21:
        return Fraction(-1)  # (never with ENHC's blackjack too: the bust is settled first)
    standing = stand(best_total(hard, has_ace), up, h17, peek)
    if best_total(hard, has_ace) == 21:
        return standing
    return max(standing, hit(hard, has_ace, up, h17, peek))


def hit(hard: int, has_ace: bool, up: int, h17: bool, peek: bool) -> Fraction:
    """Drawing one card, then playing on at best (a bust loses the bet at once)."""
    return sum((p_rank(r) * play(hard + r, has_ace or r == 1, up, h17, peek)
                for r in range(1, 11)), Fraction(0))


def double(hard: int, has_ace: bool, up: int, h17: bool, peek: bool) -> Fraction:
    """Doubling: one card, then standing on two bets (a bust loses both)."""
    value = Fraction(0)
    for r in range(1, 11):
        h, a = hard + r, has_ace or r == 1
        value += p_rank(r) * (Fraction(-2) if h > 21 else stand(best_total(h, a), up, h17,
                                                                 peek, bet=2))
    return value


def split(pair: int, up: int, h17: bool, peek: bool, das: bool,
          aces_one_card: bool = True) -> Fraction:
    """Splitting a pair of ``pair`` once (two hands, no resplit), per unit initial bet.

    Each hand holds one pair card and takes a second card, then plays on at best, doubling
    its first two cards when ``das`` (double after split) and it is not 21 (a hand reaching
    21 stands); split aces take one card each and stand when ``aces_one_card``. A pair card
    drawn is played, not split again; an ace and a ten after a split are a 21, not a
    blackjack. With replacement the two hands draw from the same shoe and do not change it,
    so they are independent and alike: the split is worth twice one hand.
    """
    one = Fraction(0)
    for r in range(1, 11):
        hard, has_ace = pair + r, pair == 1 or r == 1
        if pair == 1 and aces_one_card:
            value = stand(best_total(hard, has_ace), up, h17, peek)
        else:
            value = play(hard, has_ace, up, h17, peek)
            if das and best_total(hard, has_ace) != 21:
                value = max(value, double(hard, has_ace, up, h17, peek))
        one += p_rank(r) * value
    return 2 * one


def split_aces_round(up: int, max_hands: int) -> tuple[Fraction, Fraction]:
    """``(E[X], E[X^2])`` of splitting aces against ``up`` in a peek game (given no dealer
    blackjack), X the net result of every hand of the round, when each split ace takes one
    card and stands and an ace drawn to a split ace is split again while there are fewer
    than ``max_hands`` hands (then it stays: soft 12).

    From the rules text, with replacement: each hand's second card is drawn alone, so the
    round is a sequence of second-card draws: an ace (chance 1/13) while fewer than
    ``max_hands`` hands makes one more hand still waiting for its card; any other card
    completes a hand (soft 13..21, an ace and a ten 21, not a blackjack); once
    ``max_hands`` hands are made every waiting hand takes any card. The dealer's cards are
    drawn apart from all of them, so given his final total D the hands are independent:
    E[(sum r_h)^2 | D] = sum E[r_h^2 | D] + sum_{h != g} E[r_h | D] E[r_g | D].
    """
    law, _p_bj = _ends(up, False, True)
    non_ace = {c: p_rank(c) / (1 - p_rank(1)) for c in range(2, 11)}
    any_card = {c: p_rank(c) for c in range(1, 11)}

    def result(card: int, dealer_end: str) -> int:
        total = best_total(1 + card, True)
        return 1 if dealer_end == "bust" else (total > int(dealer_end)) - (total < int(dealer_end))

    ends: dict[tuple[int, int], Fraction] = {}  # (completed hands, free hands): chance

    def deal(p: Fraction, made: int, waiting: int, completed: int) -> None:
        if made == max_hands or waiting == 0:
            ends[(completed, waiting)] = ends.get((completed, waiting), Fraction(0)) + p
            return
        deal(p * p_rank(1), made + 1, waiting + 1, completed)
        deal(p * (1 - p_rank(1)), made, waiting - 1, completed + 1)

    deal(Fraction(1), 2, 2, 0)
    mean = square = Fraction(0)
    for end, p_end in law.items():
        m_c = sum((p * result(c, end) for c, p in non_ace.items()), Fraction(0))
        s_c = sum((p * result(c, end) ** 2 for c, p in non_ace.items()), Fraction(0))
        m_f = sum((p * result(c, end) for c, p in any_card.items()), Fraction(0))
        s_f = sum((p * result(c, end) ** 2 for c, p in any_card.items()), Fraction(0))
        for (n_c, n_f), p in ends.items():
            total = n_c * m_c + n_f * m_f
            mean += p_end * p * total
            square += p_end * p * (n_c * s_c + n_f * s_f + total ** 2
                                   - n_c * m_c ** 2 - n_f * m_f ** 2)
    return mean, square
