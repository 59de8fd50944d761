"""The study drill: deal starting hands at their real frequencies, grade the answers, and
say exactly what each mistake costs.

A *deal* is the player's two cards and the dealer's up card, off the top of a full shoe of
``rules.decks`` decks. Its *frequency* is exact: the probability that the first three cards
dealt are those ranks (each order counted), from the shoe's rank counts.

A deal gives one or two *questions* (and a split a third):

- ``play``: the first decision of a hand that is not a natural, answered with a letter of
  :data:`PLAY_LETTERS` (``h`` hit, ``s`` stand, ``d`` double, ``p`` split, ``r`` surrender;
  only those the rules allow for that hand);
- ``insurance``: against an ace where insurance is offered, before the play: ``i`` take
  it, ``n`` decline (the only question of a natural that has no even money);
- ``even_money``: a natural where 1:1 is offered: ``e`` take it, ``n`` decline;
- ``split_hand``: after a pair answered ``p``, each split hand played out, its cards
  dealt (:meth:`PlayDrill.follow_up`).

Every EV comes from :func:`strategy_calc.blackjack.analyse_hand` for that hand and up card,
the function ``strategy-calc hand`` prints: EV per unit initial bet, in a peek game given
the dealer has no blackjack (insurance and even money are unconditioned, as ``hand``
reports them). The *reference* answer is the chart's cell (``against = "chart"``: the
basic-strategy chart of :func:`strategy_calc.strategy.analyse_game` for the ruleset) or
the best composition-dependent play of these cards (``against = "optimal"``). The *EV
cost* of an answer is EV(reference) - EV(answer): 0 for the reference itself, and never
counted as a mistake when it is 0 or less (an answer as good as the reference for these
cards is right). Per 100 rounds it is weighted by how often the deal comes: ``100 *
frequency * cost`` (times P(no dealer blackjack) for a play in a peek game, whose EVs are
conditioned on it).

*Spaced repetition* (:class:`History`): Leitner boxes 1 to 5 per ruleset and cell (a cell
is a chart row against an up card, ``hard 16 vs T``). A miss sends the cell to box 1, a
right answer moves it up one box; a cell never asked sits in box 3. A deal is drawn with
probability proportional to its frequency times ``2 ** (5 - box)`` of its cell, so a
missed cell comes back 16 times as often as a mastered one, and 4 times as often as one
never asked. The boxes are read at the start of a session, so a seed deals the same
deals whatever the answers (a split answered ``p`` adds its split hand's question, its card
from a generator of its own).

>>> from strategy_calc.rules import blackjack_rules
>>> drill = PlayDrill(blackjack_rules("deluxe", ["decks=1"]))
>>> q = drill.questions(Deal((Rank.SIX, Rank.TEN), Rank.TEN, 0.0))[-1]
>>> q.kind, q.prompt, q.reference, q.choices
('play', 'T,6 vs T', 'h', ('s', 'h', 'd'))
>>> drill.grade(q, "h").correct, drill.grade(q, "s").ev_cost > 0
(True, True)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import tempfile
import time
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate as running_sums
from pathlib import Path
from typing import Any

from strategy_calc.actions import Action, ChartCode
from strategy_calc.blackjack import HandAnalysis, analyse_hand
from strategy_calc.cards import RANKS, SUITS, Card, Rank, Shoe
from strategy_calc.chart import row_of
from strategy_calc.count_systems import CountSystem
from strategy_calc.errors import InputError
from strategy_calc.game import UP_ORDER, whole_game_pass
from strategy_calc.rules import BlackjackRules
from strategy_calc.strategy import GameAnalysis, analyse_game

AGAINST = ("chart", "optimal")
"""What the answers are checked against: the basic-strategy chart, or the best
composition-dependent play of the cards dealt."""
FOCUS = ("hard", "soft", "pairs", "surrender", "exceptions")
"""The deals a drill can keep to (``--focus``)."""
PLAY_LETTERS: Mapping[str, Action] = {"h": Action.HIT, "s": Action.STAND,
                                      "d": Action.DOUBLE, "p": Action.SPLIT,
                                      "r": Action.SURRENDER}
"""The play answers and the actions they name."""
LETTER_OF: Mapping[Action, str] = {a: k for k, a in PLAY_LETTERS.items()}
KIND_CHOICES: Mapping[str, tuple[str, ...]] = {"insurance": ("i", "n"),
                                               "even_money": ("e", "n")}
ANSWER_WORDS: Mapping[str, str] = {"h": "hit", "s": "stand", "d": "double", "p": "split",
                                   "r": "surrender", "i": "insure", "e": "even money",
                                   "n": "no"}
"""What each answer letter means (in the text shown)."""
BOXES = 5
"""Leitner boxes: 1 (missed lately) to 5 (mastered)."""
NEW_BOX = 3
"""The box of a cell never asked."""
HISTORY_VERSION = 1


@dataclass(frozen=True, slots=True)
class Deal:
    """A starting hand (two ranks, the lower first) against an up card, and ``frequency``:
    the exact probability of this deal off the top of the shoe (both orders of two
    different cards)."""

    hand: tuple[Rank, Rank]
    up: Rank
    frequency: float
    suited: bool | None = None
    """Where Macau's suited 6-7-8 bonus makes suits matter (a 6-7, 6-8 or 7-8 start): the
    two cards are of one suit (shown as spades) or not (spades and hearts); else None."""

    @property
    def cards(self) -> str:
        """The hand as ``hand`` takes it: the ace first, else the higher card first
        (``T,6``, ``A,7``, ``8,8``; ``7s,6s`` and ``7s,6h`` where suits matter)."""
        low, high = self.hand
        first, second = (low, high) if low is Rank.ACE else (high, low)
        if self.suited is None:
            return f"{first.symbol},{second.symbol}"
        return f"{first.symbol}s,{second.symbol}{'s' if self.suited else 'h'}"

    @property
    def natural(self) -> bool:
        """An ace and a ten-valued card."""
        return self.hand == (Rank.ACE, Rank.TEN)

    @property
    def cell(self) -> str:
        """The chart cell: ``hard 16 vs T``, ``soft 18 vs 2``, ``pair 8 vs A``."""
        kind, key = row_of((int(self.hand[0]), int(self.hand[1])))
        label = Rank(key).symbol if kind == "pair" else str(key)
        return f"{kind} {label} vs {self.up.symbol}"


def deal_frequency(shoe: Shoe, hand: tuple[Rank, Rank], up: Rank) -> float:
    """The probability that the first three cards off ``shoe`` are ``hand`` (either order)
    and ``up``: c * n_a * (n_b - [a = b]) * (n_u - ...) / (N (N - 1) (N - 2)), c = 2 for
    two different ranks.

    >>> round(deal_frequency(Shoe.full(1), (Rank.SIX, Rank.TEN), Rank.TEN), 9)  # 2*4*16*15
    0.014479638
    """
    counts = list(shoe.counts)
    ways = 1
    for rank in (*hand, up):
        ways *= counts[rank - 1]
        counts[rank - 1] -= 1
    if ways <= 0:
        return 0.0
    n = shoe.total
    orders = 2 if hand[0] != hand[1] else 1
    return orders * ways / (n * (n - 1) * (n - 2))


SUITED_BONUS_RANKS = frozenset({Rank.SIX, Rank.SEVEN, Rank.EIGHT})


def all_deals(shoe: Shoe, suits_matter: bool = False) -> tuple[Deal, ...]:
    """Every deal that can come off ``shoe`` (up cards 2..9, T, A; hands lower rank
    first), with its frequency; they sum to 1.

    ``suits_matter`` (a suited 6-7-8 bonus): a 6-7, 6-8 or 7-8 start is two deals, its
    cards of one suit or not; off a full shoe two cards of different ranks are of one
    suit with chance 1/4 (each rank's cards are spread evenly over the suits, whatever
    the up card).

    >>> deals = all_deals(Shoe.full(2))
    >>> len(deals), round(sum(d.frequency for d in deals), 12)
    (550, 1.0)
    >>> len(all_deals(Shoe.full(2), suits_matter=True))  # 3 starts x 10 up cards more
    580
    """
    found = []
    for up in UP_ORDER:
        for i, a in enumerate(RANKS):
            for b in RANKS[i:]:
                p = deal_frequency(shoe, (a, b), up)
                if p <= 0:
                    continue
                if suits_matter and a != b and {a, b} <= SUITED_BONUS_RANKS:
                    same = _same_suit_chance(shoe, a, b)
                    found += [Deal((a, b), up, p * same, True),
                              Deal((a, b), up, p * (1.0 - same), False)]
                else:
                    found.append(Deal((a, b), up, p))
    return tuple(found)


def _same_suit_chance(shoe: Shoe, a: Rank, b: Rank) -> float:
    """P(two cards of ranks ``a`` and ``b`` off ``shoe`` are of one suit)."""
    rows = shoe.suits[a - 1], shoe.suits[b - 1]
    return sum(x * y for x, y in zip(*rows, strict=True)) / (sum(rows[0]) * sum(rows[1]))


@dataclass(frozen=True, slots=True)
class SplitHand:
    """A split hand being played: ``cards`` as ``hand`` takes them (``8,3``, ``8,3,5``, or
    ``7s,6s`` where suits matter), the other cards seen out of the shoe (``removed``:
    ``hand 8,3 --vs 6 --removed 8`` gives its EVs). ``chance``: the probability of the
    cards drawn since the split, given the deal (and no dealer blackjack in a peek game).
    ``number``: 1 or 2; ``first`` and ``second``: both hands' cards so far (the second
    empty while the first is played)."""

    cards: str
    ranks: tuple[Rank, ...]
    removed: str
    chance: float
    number: int = 1
    first: tuple[Rank, ...] = ()
    second: tuple[Rank, ...] = ()


@dataclass(frozen=True, slots=True)
class Question:
    """One decision of a deal, with every allowed answer's EV.

    ``values``: per answer letter, EV per unit initial bet (a play in a peek game: given
    no dealer blackjack; insurance: the insurance bet alone, declining is 0; even money:
    1, and declining the natural's EV unconditioned). ``reference``: the answer checked
    against; ``optimal`` and ``chart``: the best play of these cards and the chart's.
    ``per_round``: what one unit of EV on this question is worth per round dealt (the
    deal's frequency, times P(no dealer blackjack) for a play in a peek game). ``split``:
    a ``split_hand`` question's hand (EV per unit bet of that hand).
    """

    deal: Deal
    kind: str
    values: Mapping[str, float]
    reference: str
    optimal: str
    chart: str
    per_round: float
    split: SplitHand | None = None

    @property
    def hand(self) -> str:
        """The cards decided on: the deal's, or a split hand's."""
        return self.split.cards if self.split is not None else self.deal.cards

    @property
    def words(self) -> Mapping[str, str]:
        """What each answer letter means (:data:`ANSWER_WORDS`)."""
        return ANSWER_WORDS

    @property
    def choices(self) -> tuple[str, ...]:
        """The answers allowed, in the order of ``values``."""
        return tuple(self.values)

    @property
    def prompt(self) -> str:
        """``T,6 vs T`` (a play), ``T,6 vs A: insurance?``, ``A,T vs A: even money?``,
        ``8,8 split: 8,3 vs 6`` (the first split hand)."""
        text = f"{self.deal.cards} vs {self.deal.up.symbol}"
        if self.kind == "insurance":
            return text + ": insurance?"
        if self.kind == "even_money":
            return text + ": even money?"
        if self.split is not None:
            which = "first" if self.split.number == 1 else "second"
            return (f"{self.deal.cards} split, {which} hand: {self.split.cards} vs"
                    f" {self.deal.up.symbol}")
        return text

    @property
    def short(self) -> str:
        """The prompt in a table: ``T,6 vs T``, ``8,3 vs 6 (split 1)``, ``T,6 vs A (ins)``."""
        text = f"{self.hand} vs {self.deal.up.symbol}"
        if self.split is not None:
            return f"{text} (split {self.split.number})"
        return text + {"insurance": " (ins)", "even_money": " (even)"}.get(self.kind, "")

    @property
    def label(self) -> str:
        """The question in running text: ``T,6 vs T``, ``insurance on T,6 vs A``."""
        text = f"{self.deal.cards} vs {self.deal.up.symbol}"
        if self.kind == "play":
            return text
        if self.split is not None:
            return f"the split hand {self.split.cards} vs {self.deal.up.symbol}"  # (label)
        return f"{'insurance' if self.kind == 'insurance' else 'even money'} on {text}"

    @property
    def cell(self) -> str:
        """The history's cell of this question: the chart cell of a play, ``split hard 11
        vs 6`` for a split hand, ``insurance vs A`` or ``even_money vs A``."""
        if self.kind == "play":
            return self.deal.cell
        if self.split is not None:
            total, soft = _total(self.split.ranks)
            return f"split {'soft' if soft else 'hard'} {total} vs {self.deal.up.symbol}"
        return f"{self.kind} vs {self.deal.up.symbol}"


def _total(ranks: Iterable[Rank]) -> tuple[int, bool]:
    """A hand's best total and whether it is soft (an ace counted 11)."""
    hard = sum(int(r) for r in ranks)
    soft = Rank.ACE in ranks and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer to a question: right or not, and its exact cost.

    ``ev_cost``: EV(reference) - EV(answer) per unit initial bet, conditioned as the
    question's values; ``correct`` when it is 0 or less. ``ev_cost_per_100_rounds``:
    ``100 * per_round * ev_cost``; ``seconds``: time taken to answer (None when not
    timed).
    """

    question: Question
    answer: str
    ev_cost: float
    correct: bool
    seconds: float | None = None

    @property
    def ev_cost_per_100_rounds(self) -> float:
        """The cost weighted by how often the deal comes, per 100 rounds."""
        return 100.0 * self.question.per_round * self.ev_cost


def parse_answer(text: str, question: Question) -> str:
    """The answer letter ``text`` names for ``question`` (a letter or its word, any case);
    :class:`InputError` with the reason when it is not one of its choices.

    >>> q = Question(Deal((Rank.SIX, Rank.TEN), Rank.TEN, 0.1), "play",
    ...              {"s": -0.5, "h": -0.48}, "h", "h", "h", 0.1)
    >>> parse_answer("Hit", q), parse_answer(" s ", q)
    ('h', 's')
    >>> parse_answer("d", q)
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: d (double) is not allowed for T,6 vs T: answer s or h
    """
    word = text.strip().lower()
    by_word = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r",
               "insure": "i", "insurance": "i", "y": "i" if question.kind == "insurance"
               else "e", "yes": "i" if question.kind == "insurance" else "e",
               "no": "n", "even": "e"}
    letter = by_word.get(word, word)
    if letter in question.values:
        return letter
    choices = " or ".join([", ".join(question.choices[:-1]), question.choices[-1]]
                          if len(question.choices) > 1 else question.choices)
    if letter in ANSWER_WORDS:
        raise InputError(f"{letter} ({ANSWER_WORDS[letter]}) is not allowed for"
                         f" {question.label}: answer {choices}")
    raise InputError(f"unknown answer {text.strip()!r} for {question.label}: answer"
                     f" {choices} (q quits)")


@dataclass
class PlayDrill:
    """The dealer and grader of the play drill for one ruleset (full shoe).

    ``against``: :data:`AGAINST`; ``focus``: one of :data:`FOCUS` or None (every deal,
    insurance and even money included); ``boxes``: the Leitner box of each cell (from
    :class:`History`; a cell not listed is in box :data:`NEW_BOX`); ``seed``: of the deal
    sequence.
    """

    rules: BlackjackRules
    against: str = "chart"
    focus: str | None = None
    boxes: Mapping[str, int] = field(default_factory=dict)
    seed: int | None = None
    shoe: Shoe = field(init=False, repr=False)
    """The full shoe the deals come off (``rules.decks`` decks)."""
    _game: GameAnalysis | None = field(default=None, init=False, repr=False)
    _hands: dict[tuple[str, Rank], HandAnalysis] = field(
        default_factory=dict, init=False, repr=False)
    _pool: tuple[Deal, ...] = field(default=(), init=False, repr=False)
    _cumulative: list[float] = field(default_factory=list, init=False, repr=False)
    _rng: random.Random = field(default_factory=random.Random, init=False, repr=False)
    _split_rng: random.Random = field(default_factory=random.Random, init=False, repr=False)
    _policy: dict[Rank, list[int]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.against not in AGAINST:
            raise InputError(f"--against must be chart or optimal, not {self.against!r}")
        if self.focus is not None and self.focus not in FOCUS:
            raise InputError(f"--focus must be one of {', '.join(FOCUS)}, not {self.focus!r}")
        self.shoe = Shoe.full(self.rules.decks)
        suits_matter = self.rules.bonus_suited_678 > 0
        pool = tuple(d for d in all_deals(self.shoe, suits_matter) if self._in_focus(d)
                     and self._asks(d))
        if not pool:
            raise InputError(f"no deal of {self.rules.name} ({self.rules.decks}D) fits"
                             f" --focus {self.focus}")
        self._pool = pool
        self._cumulative = list(running_sums(
            d.frequency * 2.0 ** (BOXES - self.boxes.get(d.cell, NEW_BOX)) for d in pool))
        self._rng = random.Random(self.seed)
        # the split hands' cards come from their own generator, so the deals that follow
        # do not depend on whether a pair was split
        self._split_rng = random.Random(f"split hands {self.seed}")

    @property
    def game(self) -> GameAnalysis:
        """The chart of the ruleset (computed on first use)."""
        if self._game is None:
            self._game = analyse_game(self.rules)
        return self._game

    def analysis(self, deal: Deal) -> HandAnalysis:
        """``analyse_hand`` of the deal (what ``strategy-calc hand`` prints), kept."""
        key = (deal.cards, deal.up)
        if key not in self._hands:
            self._hands[key] = analyse_hand(deal.cards, deal.up.symbol, self.rules)
        return self._hands[key]

    def weight(self, deal: Deal) -> float:
        """The deal's share of the draws: frequency times ``2 ** (5 - box)``, normalised."""
        total = self._cumulative[-1]
        box = self.boxes.get(deal.cell, NEW_BOX)
        return deal.frequency * 2.0 ** (BOXES - box) / total if deal in self._pool else 0.0

    def deal(self) -> Deal:
        """The next deal, drawn with :meth:`weight` from the drill's seeded generator."""
        x = self._rng.random() * self._cumulative[-1]
        return self._pool[min(bisect_right(self._cumulative, x), len(self._pool) - 1)]

    def chart_code(self, deal: Deal) -> ChartCode:
        """The chart's cell of the deal."""
        game = self.game
        kind, key = row_of((int(deal.hand[0]), int(deal.hand[1])))
        table: Mapping[Any, Mapping[str, str]] = (
            game.pairs if kind == "pair" else game.soft if kind == "soft" else game.hard)
        return ChartCode.parse(table[Rank(key).symbol if kind == "pair" else key][
            deal.up.symbol])

    def questions(self, deal: Deal) -> list[Question]:
        """The deal's questions, in the order they are asked (insurance before the play)."""
        a = self.analysis(deal)
        ev = a.ev
        per_round = deal.frequency
        out: list[Question] = []
        code = self.chart_code(deal)
        if deal.natural:
            if ev["even_money"] is not None:
                stand = ev["stand"]
                assert stand is not None
                if self.rules.peek:  # (ENHC EVs are unconditioned already)
                    stand *= self._no_blackjack(deal)
                values = {"e": 1.0, "n": stand}
                optimal = "e" if a.best == Action.EVEN_MONEY.value else "n"
                chart = "e" if code.action is Action.EVEN_MONEY else "n"
                out.append(self._question(deal, "even_money", values, optimal, chart,
                                          per_round))
            elif ev["insurance"] is not None:
                out.append(self._insurance(deal, ev["insurance"], code, per_round))
            return out if self.focus is None else []
        if ev["insurance"] is not None and self.focus is None:
            out.append(self._insurance(deal, ev["insurance"], code, per_round))
        values = {LETTER_OF[act]: v for act in (Action.STAND, Action.HIT, Action.DOUBLE,
                                                Action.SPLIT, Action.SURRENDER)
                  if (v := ev[act.value]) is not None}
        chart_action = code.action
        if LETTER_OF.get(chart_action) not in values and code.otherwise is not None:
            chart_action = code.otherwise
        chart = LETTER_OF.get(chart_action, "")
        if chart not in values:  # (a cell the rules do not allow for this hand: its best)
            chart = max(("s", "h"), key=lambda k: values[k])
        optimal = LETTER_OF[Action(a.best)]
        scale = self._no_blackjack(deal) if self.rules.peek else 1.0
        out.append(self._question(deal, "play", values, optimal, chart, per_round * scale))
        return out

    def split_hand(self, question: Question, drawn: Rank | None = None) -> Question | None:
        """After a pair is split: the first split hand's question, its second card dealt
        (``drawn``, or from the drill's generator of split cards); None where the drill
        asks nothing of it (see :meth:`follow_up`)."""
        deal = question.deal
        rules = self.rules
        if (question.kind != "play" or deal.hand[0] != deal.hand[1]
                or "p" not in question.values):
            return None
        pair = deal.hand[0]
        if rules.split_aces_take_one_card(pair is Rank.ACE) or (
                rules.has_bonus and not rules.bonus_on_split_hands):
            return None
        return self._start_hand(deal, 1, (pair,), 1.0, drawn)

    def follow_up(self, graded: Graded) -> Question | None:
        """The question an answer leads to, as the split is played out.

        A pair answered ``p``: the first split hand, its second card dealt from the shoe
        less the cards seen. A split hand answered ``h`` gets a card and is asked again
        (below 21); ``d`` gets its one card; then (or after ``s``) the second split hand
        is dealt its second card and played the same way. Every card is drawn from the
        cards not seen, in a peek game weighted by P(no dealer blackjack) with it gone
        (the hole card is known not to make one), from a generator of its own (so the
        deals that follow do not depend on the split).

        A split hand's EVs are ``analyse_hand`` of its cards with the other cards seen
        removed (``strategy-calc hand 8,3 --vs 6 --removed 8``: the first hand sees the
        other pair card; the second, the first hand's cards), without surrender, and
        double only on two cards where the rules let a split hand double. Not asked:
        split aces that take one card, a 21, a pair card dealt where it could be split
        again (resplits are not drilled; that hand is left there), rules whose bonus is
        not paid on split hands; nor the second hand where an ENHC dealer blackjack takes
        only the original bet (``enhc_loses = "original"``), as ``hand``'s EVs, those of
        an initial hand, would not be its own. Where the 6-7-8 bonus makes suits matter,
        the first hand's two cards are dealt suited or not; later cards have no suit.
        """
        q = graded.question
        if q.kind == "play":
            return self.split_hand(q) if graded.answer == "p" else None
        if q.kind != "split_hand" or q.split is None:
            return None
        split = q.split
        first, second = split.first, split.second
        chance = split.chance
        hand = first if split.number == 1 else second
        if graded.answer in ("h", "d"):
            card, p = self._draw(q.deal, (*first, *second))
            hand, chance = (*hand, card), chance * p
            if split.number == 1:
                first = hand
            else:
                second = hand
            if graded.answer == "h" and _total(hand)[0] < 21:
                return self.split_question(q.deal, split.number, first, second, chance)
        if split.number == 2:
            return None
        if not self.rules.peek and self.rules.enhc_loses == "original":
            return None
        return self._start_hand(q.deal, 2, first, chance, None)

    def _start_hand(self, deal: Deal, number: int, first: tuple[Rank, ...], chance: float,
                    drawn: Rank | None) -> Question | None:
        """Deal split hand ``number`` its second card; its question (None where none)."""
        pair = deal.hand[0]
        seen = (*first, pair) if number == 2 else first
        if drawn is None:
            drawn, p = self._draw(deal, seen)
        else:
            p = self._draw_chance(deal, seen, drawn)
        chance *= p
        if (drawn is pair and self.rules.max_split_hands > 2) or _total(
                (pair, drawn))[0] == 21:
            return None
        suited = None
        if (number == 1 and self.rules.bonus_suited_678 > 0 and drawn is not pair
                and {pair, drawn} <= SUITED_BONUS_RANKS):
            same = _same_suit_chance(self.shoe, pair, drawn)
            suited = self._split_rng.random() < same
            chance *= same if suited else 1.0 - same
        if number == 1:
            return self.split_question(deal, 1, (pair, drawn), (), chance, suited)
        return self.split_question(deal, 2, first, (pair, drawn), chance)

    def _cards_left(self, deal: Deal, seen: Sequence[Rank]) -> list[int]:
        """The shoe's rank counts less the deal's cards (both pair cards) and ``seen``
        (the split hands' cards beyond their pair cards)."""
        left = list(self.shoe.counts)
        for rank in (*deal.hand, deal.up, *seen[1:]):
            left[rank - 1] -= 1
        return left

    def _weights(self, deal: Deal, seen: Sequence[Rank]) -> list[float]:
        left = self._cards_left(deal, seen)
        if not self.rules.peek:
            return [float(n) for n in left]
        return [n * self._no_blackjack_left(left, Rank(i + 1), deal.up)
                for i, n in enumerate(left)]

    def _draw_chance(self, deal: Deal, seen: Sequence[Rank], card: Rank) -> float:
        weights = self._weights(deal, seen)
        return weights[card - 1] / sum(weights)

    def _draw(self, deal: Deal, seen: Sequence[Rank]) -> tuple[Rank, float]:
        """A card from the cards not seen (``seen``: the split hands' cards, the first
        of them a pair card), and its chance given those cards and, in a peek game, no
        dealer blackjack."""
        weights = self._weights(deal, seen)
        x = self._split_rng.random() * sum(weights)
        index = min(bisect_right(list(running_sums(weights)), x), len(weights) - 1)
        return Rank(index + 1), weights[index] / sum(weights)

    def split_question(self, deal: Deal, number: int, first: tuple[Rank, ...],
                      second: tuple[Rank, ...], chance: float,
                      suited: bool | None = None) -> Question:
        """The question of split hand ``number`` given both hands' cards so far (``first``,
        ``second``: pair card first; ``chance`` of the cards drawn since the split;
        ``suited``: the first hand's two cards of one suit or not, where that matters),
        with its EVs (see :meth:`follow_up`)."""
        rules = self.rules
        pair = deal.hand[0]
        hand, others = (first, (pair,)) if number == 1 else (second, first)
        symbols = [r.symbol for r in hand]
        if suited is not None:
            symbols = [f"{symbols[0]}s", f"{symbols[1]}{'s' if suited else 'h'}"]
        cards = ",".join(symbols)
        removed = ",".join(r.symbol for r in others)
        ev = analyse_hand(cards, deal.up.symbol, rules, removed=removed).ev
        values = {k: v for k, v in (("s", ev["stand"]), ("h", ev["hit"])) if v is not None}
        if ev["double"] is not None and rules.split_hands_may_double(pair is Rank.ACE):
            values["d"] = ev["double"]
        optimal = max(values, key=lambda k: values[k])
        chart = self._split_chart(hand, deal.up, values)
        per_round = deal.frequency * chance * (self._no_blackjack(deal) if rules.peek
                                               else 1.0)
        split = SplitHand(cards, hand, removed, chance, number, first, second)
        return Question(deal, "split_hand", values,
                        optimal if self.against == "optimal" else chart, optimal, chart,
                        per_round, split)

    def _split_chart(self, hand: Sequence[Rank], up: Rank, values: Mapping[str, float]) -> str:
        """The chart's play of a split hand: on two cards its total's row (double where
        allowed, else the fallback; no surrender), then the total-dependent hit/stand
        policy the chart plays after the first decision."""
        total, soft = _total(hand)
        if len(hand) > 2:
            return "h" if self.policy(up)[total + (32 if soft else 0)] else "s"
        code = ChartCode.parse((self.game.soft if soft else self.game.hard)[total][up.symbol])
        chart = LETTER_OF.get(code.action, "")
        if chart not in values and code.otherwise is not None:
            chart = LETTER_OF.get(code.otherwise, "")
        if chart not in values:
            chart = "h" if self.policy(up)[total + (32 if soft else 0)] else "s"
        return chart

    def policy(self, up: Rank) -> Sequence[int]:
        """The chart's total-dependent hit/stand play against ``up`` (1 hits), per node
        class: best total, plus 32 when soft (computed on first use)."""
        if self._policy is None:
            game = whole_game_pass(self.rules)
            self._policy = {u: list(game.ups[u].policy) for u in game.ups}
        return self._policy[up]

    @staticmethod
    def _no_blackjack_left(left: Sequence[int], drawn: Rank, up: Rank) -> float:
        """P(no dealer blackjack) from the counts ``left`` less one ``drawn``."""
        if up not in (Rank.ACE, Rank.TEN):
            return 1.0
        other = Rank.TEN if up is Rank.ACE else Rank.ACE
        completing = left[other - 1] - (1 if drawn is other else 0)
        return 1.0 - completing / (sum(left) - 1)

    def _insurance(self, deal: Deal, value: float, code: ChartCode,
                   per_round: float) -> Question:
        chart = "i" if self.game.insure and code.action is not Action.EVEN_MONEY else "n"
        return self._question(deal, "insurance", {"i": value, "n": 0.0},
                              "i" if value > 0.0 else "n", chart, per_round)

    def _question(self, deal: Deal, kind: str, values: Mapping[str, float], optimal: str,
                  chart: str, per_round: float) -> Question:
        return Question(deal, kind, dict(values),
                        optimal if self.against == "optimal" else chart, optimal, chart,
                        per_round)

    def _no_blackjack(self, deal: Deal) -> float:
        """P(no dealer blackjack) given the deal's three cards (1 against 2..9)."""
        if deal.up not in (Rank.ACE, Rank.TEN):
            return 1.0
        left = list(self.shoe.counts)
        for rank in (*deal.hand, deal.up):
            left[rank - 1] -= 1
        other = Rank.TEN if deal.up is Rank.ACE else Rank.ACE
        return 1.0 - left[other - 1] / sum(left)

    def _asks(self, deal: Deal) -> bool:
        """Whether the deal has a question: a natural only where even money or insurance
        is offered (and no focus is set)."""
        if not deal.natural:
            return True
        up = int(deal.up)
        return self.focus is None and (self.rules.offers_even_money(up)
                                       or self.rules.offers_insurance(up))

    def _in_focus(self, deal: Deal) -> bool:
        if self.focus is None:
            return True
        kind, _ = row_of((int(deal.hand[0]), int(deal.hand[1])))
        if self.focus in ("hard", "soft"):
            return kind == self.focus and not deal.natural
        if self.focus == "pairs":
            return kind == "pair"
        if deal.natural:
            return False
        a = self.analysis(deal)
        if self.focus == "surrender":
            return a.ev["surrender"] is not None and (
                a.best == Action.SURRENDER.value
                or self.chart_code(deal).action is Action.SURRENDER)
        code = self.chart_code(deal)  # exceptions: the best play of these cards is not the chart's
        allowed = a.ev.get(code.action.value) is not None
        chart_action = code.action if allowed or code.otherwise is None else code.otherwise
        return a.best != chart_action.value

    def grade(self, question: Question, answer: str, seconds: float | None = None) -> Graded:
        """Grade ``answer`` (a letter of ``question.choices``; :func:`parse_answer`)."""
        letter = parse_answer(answer, question)
        cost = question.values[question.reference] - question.values[letter]
        return Graded(question, letter, cost, cost <= 0.0, seconds)


@dataclass(frozen=True, slots=True)
class SessionReport:
    """A finished play drill: every graded answer, and the summary.

    ``accuracy``: share of right answers (None with no answers). ``ev_cost_per_round``:
    the EV per round given away by the distinct mistakes made (each question missed,
    counted once, at :attr:`Graded.ev_cost_per_100_rounds` / 100): what the player loses
    per round if every deal missed is always played so, EV per unit initial bet.
    """

    rules: BlackjackRules
    against: str
    focus: str | None
    seed: int | None
    answers: tuple[Graded, ...]

    @property
    def accuracy(self) -> float | None:
        """Right answers / answers (None when none was given)."""
        if not self.answers:
            return None
        return sum(g.correct for g in self.answers) / len(self.answers)

    @property
    def mistakes(self) -> tuple[Graded, ...]:
        """The wrong answers, each question once (its first miss), costliest first."""
        seen: set[tuple[str, str, str]] = set()
        found = []
        for g in self.answers:
            key = (g.question.prompt, g.question.kind, g.answer)
            if not g.correct and key not in seen:
                seen.add(key)
                found.append(g)
        return tuple(sorted(found, key=lambda g: -g.ev_cost_per_100_rounds))

    @property
    def ev_cost_per_round(self) -> float:
        """EV per round given away by the distinct mistakes (see the class)."""
        return math.fsum(g.ev_cost_per_100_rounds / 100.0 for g in self.mistakes)

    @property
    def costliest(self) -> tuple[Graded, ...]:
        """The five costliest mistakes (per round: cost times frequency)."""
        return self.mistakes[:5]

    def missed_cells(self) -> dict[str, dict[str, str]]:
        """Per chart row asked (``hard 16``, ``pair 8``), per up card symbol: ``x`` when a
        play there was missed, ``.`` when answered right every time."""
        grid: dict[str, dict[str, str]] = {}
        for g in self.answers:
            if g.question.kind != "play":
                continue
            row, _, up = g.question.cell.partition(" vs ")
            cells = grid.setdefault(row, {})
            cells[up] = "x" if not g.correct or cells.get(up) == "x" else "."
        return grid


# -- history: Leitner boxes per ruleset and cell -----------------------------------------


def default_history_path() -> Path:
    """``$XDG_DATA_HOME/strategy_calc/drill-history.json`` (default ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "strategy_calc" / "drill-history.json"


@dataclass(frozen=True, slots=True)
class History:
    """The drill's memory: per ruleset (its one-line summary, ``str(rules)``), each cell's
    Leitner box, times asked and missed, and one line per session.

    >>> h = History().record("deluxe: 8D", [("hard 16 vs T", False), ("hard 12 vs 4", True)])
    >>> h.boxes("deluxe: 8D")
    {'hard 16 vs T': 1, 'hard 12 vs 4': 4}
    """

    data: Mapping[str, Any] = field(default_factory=lambda: {"version": HISTORY_VERSION,
                                                              "rulesets": {}})

    @classmethod
    def load(cls, path: Path) -> History:
        """The history in ``path`` (an empty one when the file does not exist);
        :class:`InputError` for a file that is not a drill history."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            raise InputError(f"cannot read the drill history {path}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise InputError(f"{path} is not a drill history (not JSON)") from None
        if not _is_history(data):
            raise InputError(f"{path} is not a drill history (version {HISTORY_VERSION}):"
                             " move it away or give another --history FILE")
        return cls(data)

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file in the same folder, then ``os.replace``, so
        an interrupted write never leaves a broken history."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".drill-history-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.data, out, indent=1, allow_nan=False)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def boxes(self, ruleset: str) -> dict[str, int]:
        """Each cell's Leitner box under ``ruleset``."""
        cells = self.data["rulesets"].get(ruleset, {}).get("cells", {})
        return {cell: int(entry["box"]) for cell, entry in cells.items()}

    def record(self, ruleset: str, answers: Iterable[tuple[str, bool]],
               session: Mapping[str, Any] | None = None) -> History:
        """A new history with these (cell, right) answers applied in order: a miss sends a
        cell to box 1, a right answer moves it up one box (at most 5); ``session``: a
        summary line appended to the ruleset's sessions."""
        data = json.loads(json.dumps(self.data))
        entry = data["rulesets"].setdefault(ruleset, {"cells": {}, "sessions": []})
        for cell, right in answers:
            c = entry["cells"].setdefault(cell, {"box": NEW_BOX, "asked": 0, "missed": 0})
            c["asked"] += 1
            if right:
                c["box"] = min(BOXES, c["box"] + 1)
            else:
                c["missed"] += 1
                c["box"] = 1
        if session is not None:
            entry["sessions"].append(dict(session))
        return History(data)

    def stats(self) -> dict[str, Any]:
        """Per ruleset: its sessions, how many cells sit in each box, the cells in box 1."""
        out = {}
        for name, entry in self.data["rulesets"].items():
            cells = entry.get("cells", {})
            boxes = {str(b): sum(1 for c in cells.values() if c["box"] == b)
                     for b in range(1, BOXES + 1)}
            out[name] = {"sessions": list(entry.get("sessions", [])), "boxes": boxes,
                         "weak_cells": sorted(c for c, e in cells.items() if e["box"] == 1)}
        return out


def _is_history(data: object) -> bool:
    """Whether ``data`` has the shape :class:`History` writes (so reading it cannot fail
    halfway through a session).

    >>> _is_history({"version": 1, "rulesets": {"r": {"cells": {"hard 16 vs T": {
    ...     "box": 1, "asked": 1, "missed": 1}}, "sessions": []}}})
    True
    >>> _is_history({"version": 1, "rulesets": {"r": {"cells": {"x": {"box": 9}}}}})
    False
    """
    if not isinstance(data, dict) or data.get("version") != HISTORY_VERSION:
        return False
    rulesets = data.get("rulesets")
    if not isinstance(rulesets, dict):
        return False
    for entry in rulesets.values():
        if not (isinstance(entry, dict) and isinstance(entry.get("cells"), dict)
                and isinstance(entry.get("sessions"), list)):
            return False
        for cell in entry["cells"].values():
            if not (isinstance(cell, dict) and all(
                    type(cell.get(k)) is int for k in ("box", "asked", "missed"))
                    and 1 <= cell["box"] <= BOXES):
                return False
        if not all(isinstance(session, dict) for session in entry["sessions"]):
            return False
    return True


def record_session(history: History, report: SessionReport, when: float | None = None,
                   kind: str = "play") -> History:
    """``history`` with a play session's answers and summary line added."""
    summary = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when)),
               "kind": kind, "against": report.against, "questions": len(report.answers),
               "accuracy": report.accuracy, "ev_cost_per_round": report.ev_cost_per_round}
    return history.record(str(report.rules),
                          [(g.question.cell, g.correct) for g in report.answers], summary)


# -- count drills -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """A count drill's question: the cards shown and the exact answer.

    ``kind``: ``count`` (the running count of ``cards``, from ``start``) or
    ``true-count`` (the running count ``running`` and ``decks_dealt`` decks in the
    discard tray of a ``decks``-deck shoe: the true count, per the system's divisor,
    unrounded when the system does not round).
    """

    kind: str
    cards: tuple[Card, ...]
    start: float
    running: float
    decks: int
    decks_dealt: float
    answer: float

    @property
    def unseen_cards(self) -> int:
        """Cards not yet dealt."""
        return self.decks * 52 - len(self.cards)

    @property
    def tolerance(self) -> float:
        """How far an answer may be off and still be right: 0 for a running count, under
        0.5 for a true count (it reads as the same whole count)."""
        return 0.0 if self.kind == "count" else 0.5


@dataclass(frozen=True, slots=True)
class CountAnswer:
    """An answer to a count question: its error (answer - exact) and whether it is right."""

    question: CountQuestion
    answer: float
    seconds: float | None = None

    @property
    def error(self) -> float:
        """The answer less the exact value."""
        return self.answer - self.question.answer

    @property
    def correct(self) -> bool:
        """Exact for a running count; within (not at) half a point for a true count."""
        if self.question.tolerance == 0.0:
            return self.error == 0.0
        return abs(self.error) < self.question.tolerance


def _shuffled_shoe(decks: int, rng: random.Random) -> list[Card]:
    cards = [Card(rank, suit) for _ in range(decks) for rank in RANKS
             for suit in SUITS for _ in range(4 if rank is Rank.TEN else 1)]
    rng.shuffle(cards)
    return cards


def count_questions(system: CountSystem, decks: int, kind: str, questions: int,
                    cards_per_question: int, seed: int | None) -> list[CountQuestion]:
    """The seeded questions of a count drill (``kind`` ``count`` or ``true-count``).

    ``count``: ``cards_per_question`` cards off the top of a freshly shuffled shoe, the
    answer their running count from the system's initial count. ``true-count``: a shoe
    dealt to a whole number of half decks (at least half a deck left), the answer the
    running count per deck (or half deck) of the cards left.

    >>> from strategy_calc.count_systems import HILO
    >>> q = count_questions(HILO, 1, "count", 1, 5, seed=1)[0]
    >>> q.answer == sum(HILO.tag_card(c) for c in q.cards)
    True
    """
    if kind not in ("count", "true-count"):
        raise InputError(f"unknown count drill {kind!r}: count or true-count")
    if not 1 <= cards_per_question <= decks * 52:
        raise InputError(f"--cards must be between 1 and {decks * 52}, not"
                         f" {cards_per_question}")
    rng = random.Random(seed)
    out = []
    for _ in range(questions):
        shoe = _shuffled_shoe(decks, rng)
        start = system.initial_running_count(decks)
        if kind == "count":
            dealt = tuple(shoe[:cards_per_question])
            running = start + math.fsum(system.tag_card(c) for c in dealt)
            out.append(CountQuestion(kind, dealt, start, running, decks, len(dealt) / 52,
                                     running))
            continue
        halves = rng.randint(1, 2 * decks - 1)
        dealt = tuple(shoe[:26 * halves])
        running = start + math.fsum(system.tag_card(c) for c in dealt)
        true = system.true_count(running, decks * 52 - len(dealt))
        out.append(CountQuestion(kind, dealt, start, running, decks, halves / 2, true))
    return out


def parse_count_answer(text: str) -> float:
    """A count answered (a number, halves allowed); :class:`InputError` otherwise.

    >>> parse_count_answer(" -3 "), parse_count_answer("+2.5")
    (-3.0, 2.5)
    """
    try:
        value = float(text.strip())
    except ValueError:
        raise InputError(f"{text.strip()!r} is not a count: answer a number, e.g. -3 or"
                         " 2.5 (q quits)") from None
    if not math.isfinite(value):
        raise InputError(f"{text.strip()!r} is not a count: answer a finite number")
    return value


@dataclass(frozen=True, slots=True)
class CountReport:
    """A finished count drill: the answers, accuracy (None with none) and mean time."""

    system: CountSystem
    kind: str
    answers: tuple[CountAnswer, ...]

    @property
    def accuracy(self) -> float | None:
        """Right answers / answers."""
        if not self.answers:
            return None
        return sum(a.correct for a in self.answers) / len(self.answers)

    @property
    def mean_seconds(self) -> float | None:
        """Mean time to answer, seconds (None when not timed)."""
        times = [a.seconds for a in self.answers if a.seconds is not None]
        return math.fsum(times) / len(times) if times else None


def graded_answers(drill: PlayDrill, answers: Sequence[str], limit: int | None = None
                   ) -> list[Graded]:
    """Deal and grade ``answers`` in turn (non-interactive mode): one question per answer
    (at most ``limit``); ``q`` ends early. :class:`InputError` naming the answer's place
    for an answer not allowed."""
    graded: list[Graded] = []
    pending: list[Question] = []
    for number, text in enumerate(answers, 1):
        if text.strip().lower() in ("q", "quit"):
            break
        if limit is not None and len(graded) >= limit:
            raise InputError(f"more answers ({len(answers)}) than --count {limit} questions")
        while not pending:
            pending = drill.questions(drill.deal())
        question = pending.pop(0)
        try:
            graded.append(drill.grade(question, text))
        except InputError as exc:
            raise InputError(f"answer {number}: {exc}") from None
        follow = drill.follow_up(graded[-1])
        if follow is not None:
            pending.insert(0, follow)
    return graded


def split_answers(text: str) -> list[str]:
    """Answers separated by commas, spaces or new lines.

    >>> split_answers("h, s,d\\np")
    ['h', 's', 'd', 'p']
    """
    return [w for w in text.replace(",", " ").split() if w]


__all__ = ["AGAINST", "FOCUS", "CountAnswer", "CountQuestion", "CountReport", "Deal",
           "Graded", "History", "PlayDrill", "Question", "SessionReport", "SplitHand", "all_deals",
           "count_questions", "deal_frequency", "default_history_path", "graded_answers",
           "parse_answer", "parse_count_answer", "record_session", "split_answers"]
