"""What an analysis costs here before it starts: seconds and memory, from measured runs.

One model for every caller: the command line's warning before a slow split
(``hand``, ``chart``, ``edge``: "would take about ...") and ``serve``, which refuses a
request over its budget and runs a heavy one apart from the quick ones. The figures are
runs on the 2-core development machine (``strategy-calc bench``, and ``/usr/bin/time`` of
the commands, 2026-12-04 to 2026-12-07); the model scales them by the decks, the hands a
pair may split to and the pair's rank. It is coarse (a factor of a few either way, more
on a loaded machine) and meant to err high: it tells a hand query from an hour's work,
not one minute from two.

>>> from strategy_calc.rules import blackjack_rules
>>> deluxe = blackjack_rules("deluxe")
>>> game_cost(deluxe, "cdp1").seconds < 1
True
>>> game_cost(deluxe, "optimal").seconds > 30
True
>>> resplits = blackjack_rules("deluxe", ["max_split_hands=4"])
>>> game_cost(resplits, "optimal").seconds > 3600, pair_cost(resplits, "optimal", 8).seconds > 60
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from strategy_calc.rules import BlackjackRules

BASE_SECONDS = 0.05
"""An analysis that solves no optimal split: a hand, or the whole game's pass and chart at
8 decks (``bench`` game-8d: 48.6 ms)."""
BASE_MIB = 64.0
"""The memory of such a command: 26 to 49 MB peak for ``hand``, ``edge`` and a resplitting
``cdp`` ``edge`` at 8 decks (``/usr/bin/time``, 2026-12-07), rounded up."""

OPTIMAL_PAIR_8D = 0.0457
"""The fully optimal split of 8,8 vs T, split once, 8 decks: 45.7 ms (``bench``
split-optimal-8d); 23.5 ms at 1 deck (split-optimal-1d): the time grows as
``decks ** 0.32``."""
OPTIMAL_GAME_8D = 35.8
"""``edge --split-strategy optimal``, split once, 8 decks: every pair against every up
card, 35.8 s (``bench`` game-optimal-8d)."""
SPLIT_ONCE_EXPONENT = math.log(45.7 / 23.5) / math.log(8)
"""How a split-once optimal split grows with the decks (1 to 8 decks: 23.5 to 45.7 ms)."""

RESPLIT_PAIR_1D = 4.7
"""The fully optimal split of 8,8 vs T with resplits to 4 hands, 1 deck: 4.7 s (``bench``
resplit-optimal-1d; 237 MB peak as ``hand``, ``/usr/bin/time``, 2026-12-07)."""
RESPLIT_MIB_1D = 237.0
"""Its peak memory, MiB (rounded)."""
HAND_RESPLIT_FACTOR = 36.3 / 4.7
"""``hand`` of such a pair takes longer than the split alone (it also enumerates the
split's outcomes jointly): ``hand 8,8 --vs T --rules deluxe --set max_split_hands=4
--decks 1 --split-strategy optimal`` took 36.3 s on the loaded machine (load 8,
2026-12-07), 7.7 times the split alone."""
RESPLIT_EXPONENT = math.log(76.9 / 4.7) / math.log(6)
"""How it grows with the decks: 76.9 s and 1.7 GB at 6 decks (``bench``
resplit-optimal-6d), so ``decks ** 1.56`` for time and :data:`RESPLIT_MIB_EXPONENT` for
memory."""
RESPLIT_MIB_EXPONENT = math.log(1700.0 / RESPLIT_MIB_1D) / math.log(6)
"""How its memory grows with the decks (237 MB at 1 deck, 1.7 GB at 6)."""
RESPLIT_RANK_TIME = {2: 15.6, 6: 337 / 76.9, 8: 1.0}
"""The time of a pair's resplits relative to 8,8, at 6 decks vs T (docs/PERFORMANCE.md,
"The fully optimal split", 2026-12-06): 8,8 77 s, 6,6 337 s, 2,2 not finished in 20
minutes (taken as 20); ranks between are interpolated (geometrically), the nines, tens
and aces taken as 8,8 (9,9 vs 7 37 s, T,T vs 6 16 s: less). At one deck 2,2 took 24.3 s,
5 times 8,8: the model errs high there."""
RESPLIT_RANK_MEMORY = {2: 4300 / 1640, 6: 3300 / 1640, 8: 1.0}
"""The same for memory: 8,8 1.64 GB, 6,6 3.3 GB, 2,2 4.3 GB when stopped."""
POSTSPLIT_GAME_8D = 58.8
"""``edge --split-strategy postsplit`` at 8 decks: 58.8 s on a loaded machine (load 8,
2026-12-07; 62 MB peak)."""
HAND_PAIR_2_6D = 3.7
"""``hand`` of a pair also enumerates the split's outcomes jointly, whatever the split
strategy: ``hand 2,2 --vs 9`` (macau-1983, 6 decks) took 4.4 s as a process, some 3.7 s
past its start-up, 1.3 s at 1 deck; ``hand 8,8 --vs T --rules deluxe`` 0.9 s, as much as a
hand with no pair (load 7, 2026-12-07). Scaled by the pair's rank (as resplits,
:data:`RESPLIT_RANK_TIME`, relative to 2,2) and the decks (``decks / 6``)."""
OPTIMAL_GAME_MIB = 128.0
"""``edge --split-strategy optimal`` at 8 decks peaked at 101 MB (``/usr/bin/time``,
2026-12-07), rounded up."""
UP_CARDS = 10
PAIRS = 10


@dataclass(frozen=True, slots=True)
class Cost:
    """What an analysis is expected to take here: wall seconds on one core and peak
    memory in MiB (of the process that runs it)."""

    seconds: float
    memory_mib: float

    def __str__(self) -> str:
        """``about 2.0 hours and 2.4 GB``.

        >>> str(Cost(90, 1700)), str(Cost(0.2, 64))
        ('about 2 minutes and 1.7 GB', 'about 0.2 s and 64 MB')
        """
        s = self.seconds
        span = (f"{s / 86400:,.0f} days" if s >= 2 * 86400 else f"{s / 3600:.1f} hours"
                if s >= 3600 else f"{s / 60:.0f} minutes" if s >= 90 else f"{s:.1f} s"
                if s < 10 else f"{s:.0f} s")
        memory = (f"{self.memory_mib / 1000:.1f} GB" if self.memory_mib >= 1000
                  else f"{self.memory_mib:.0f} MB")
        return f"about {span} and {memory}"


def _rank_factor(rank: int, table: dict[int, float]) -> float:
    """A pair's factor from ``table`` (ranks 2, 6, 8), interpolated geometrically between
    them; 8 and above, and aces, as 8.

    >>> round(_rank_factor(4, {2: 16.0, 6: 4.0, 8: 1.0}), 6)
    8.0
    """
    if rank == 1 or rank >= 8:
        return table[8]
    low, high = (2, 6) if rank <= 6 else (6, 8)
    t = (rank - low) / (high - low)
    return math.exp((1 - t) * math.log(table[low]) + t * math.log(table[high]))


def _is_optimal(split_strategy: str) -> bool:
    return split_strategy.strip().lower() == "optimal"


def _computed(rules: BlackjackRules, split_strategy: str) -> str:
    """The split strategy computed for ``split_strategy``: on an infinite deck every one but
    cdz is computed as cdp1 (:func:`strategy_calc.blackjack.split.strategies.computed_as`;
    the fully optimal split with resplits is refused there before any work: no cost).

    >>> from strategy_calc.rules import blackjack_rules
    >>> _computed(blackjack_rules("deluxe", decks="inf"), "optimal")
    'cdp1'
    """
    if rules.infinite_deck and split_strategy.strip().lower() != "cdz":
        return "cdp1"
    return split_strategy


def _decks(rules: BlackjackRules) -> int:
    """The decks the model scales by: an infinite deck's tables are one deck's (its shoe
    is one deck's proportions, and it splits by cdp1 whatever the strategy asked)."""
    return rules.decks if isinstance(rules.decks, int) else 1


def pair_cost(rules: BlackjackRules, split_strategy: str, rank: int) -> Cost:
    """One pair of ``rank`` (1 ace .. 10) against one up card, split under
    ``split_strategy`` (what ``hand`` computes for a pair)."""
    decks = _decks(rules)
    if rules.max_split_hands < 2 or not _is_optimal(split_strategy):
        return Cost(BASE_SECONDS, BASE_MIB)
    if rules.max_split_hands == 2:
        return Cost(BASE_SECONDS + OPTIMAL_PAIR_8D * (decks / 8) ** SPLIT_ONCE_EXPONENT
                    * _rank_factor(rank, RESPLIT_RANK_TIME), BASE_MIB)
    # (three hands are taken as four: the model errs high)
    seconds = RESPLIT_PAIR_1D * decks ** RESPLIT_EXPONENT * _rank_factor(rank, RESPLIT_RANK_TIME)
    memory = RESPLIT_MIB_1D * decks ** RESPLIT_MIB_EXPONENT * _rank_factor(
        rank, RESPLIT_RANK_MEMORY)
    return Cost(BASE_SECONDS + seconds, max(BASE_MIB, memory))


def game_cost(rules: BlackjackRules, split_strategy: str) -> Cost:
    """The whole game (``chart``, ``edge``): every pair against every up card under
    ``split_strategy``; the memory of the largest pair (each is freed before the next)."""
    decks, split_strategy = _decks(rules), _computed(rules, split_strategy)
    if split_strategy.strip().lower() == "postsplit":
        return Cost(BASE_SECONDS + POSTSPLIT_GAME_8D * max(1.0, decks / 8), BASE_MIB)
    if rules.max_split_hands < 2 or not _is_optimal(split_strategy):
        return Cost(BASE_SECONDS, BASE_MIB)
    if rules.max_split_hands == 2:
        return Cost(BASE_SECONDS + OPTIMAL_GAME_8D * (decks / 8) ** SPLIT_ONCE_EXPONENT,
                    OPTIMAL_GAME_MIB)
    pairs = [pair_cost(rules, split_strategy, rank) for rank in range(1, PAIRS + 1)]
    return Cost(BASE_SECONDS + UP_CARDS * sum(p.seconds for p in pairs),
                max(p.memory_mib for p in pairs))


def hand_cost(rules: BlackjackRules, ranks: tuple[int, ...], split_strategy: str) -> Cost:
    """``hand`` of these card ranks: a pair's split (:func:`pair_cost`; with resplits,
    :data:`HAND_RESPLIT_FACTOR` times it) and the enumeration of its outcomes
    (:data:`HAND_PAIR_2_6D`), else a quick analysis.

    >>> from strategy_calc.rules import blackjack_rules
    >>> hand_cost(blackjack_rules("macau-1983"), (2, 2), "cdp1").seconds > 3
    True
    """
    split_strategy = _computed(rules, split_strategy)
    if len(ranks) == 2 and ranks[0] == ranks[1] and rules.max_split_hands > 1:
        cost = pair_cost(rules, split_strategy, ranks[0])
        seconds = cost.seconds
        if rules.max_split_hands > 2 and _is_optimal(split_strategy):
            seconds *= HAND_RESPLIT_FACTOR
        outcomes = HAND_PAIR_2_6D * _decks(rules) / 6 * _rank_factor(
            ranks[0], RESPLIT_RANK_TIME) / RESPLIT_RANK_TIME[2]
        return Cost(seconds + outcomes, cost.memory_mib)
    return Cost(BASE_SECONDS, BASE_MIB)


def scaled(cost: Cost, times: int) -> Cost:
    """``times`` such analyses one after another (a sweep's variants).

    >>> scaled(Cost(0.5, 64), 4)
    Cost(seconds=2.0, memory_mib=64)
    """
    return Cost(cost.seconds * times, cost.memory_mib)
