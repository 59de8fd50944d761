"""The play drill: a session of questions against the chart or the best play, its report."""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate as running_sums

from strategy_calc.actions import PLAY_ACTIONS, Action, ChartCode
from strategy_calc.blackjack.chart import row_of
from strategy_calc.blackjack.game_analysis import GameAnalysis, analyse_game
from strategy_calc.blackjack.hand_analysis import HandAnalysis, analyse_hand
from strategy_calc.blackjack.hand_rules import hand_total
from strategy_calc.blackjack.split.plan import split_plans
from strategy_calc.cards import SUITED_RANKS, Rank, Shoe
from strategy_calc.drill.history import BOXES, NEW_BOX, History
from strategy_calc.drill.questions import (
    AGAINST,
    FOCUS,
    LETTER_OF,
    Deal,
    Graded,
    Question,
    SplitHand,
    all_deals,
    parse_answer,
    same_suit_chance,
)
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules


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

    def __post_init__(self) -> None:
        if self.against not in AGAINST:
            raise InputError(f"--against must be chart or optimal, not {self.against!r}")
        if self.focus is not None and self.focus not in FOCUS:
            raise InputError(f"--focus must be one of {', '.join(FOCUS)}, not {self.focus!r}")
        self.shoe = Shoe.full(self.rules.decks)
        suits_matter = self.rules.suited_678()[0] > 0
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
        return self.game.chart.code((int(deal.hand[0]), int(deal.hand[1])), deal.up)

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
        values = {LETTER_OF[act]: v for act in PLAY_ACTIONS if (v := ev[act.value]) is not None}
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
        if split_plans(rules)[pair].one_card or (
                any(not row.split_hands for row in rules.bonus_table)):
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
        double only on two cards (under double_after_hit, more) where the rules let a split
        hand double. Not asked:
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
            if graded.answer == "h" and hand_total(hand)[0] < 21:
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
        if (drawn is pair and split_plans(self.rules)[pair].resplits) or hand_total(
                (pair, drawn))[0] == 21:
            return None
        suited = None
        if (number == 1 and self.rules.suited_678(split=True)[0] > 0 and drawn is not pair
                and {pair, drawn} <= set(SUITED_RANKS)):
            same = same_suit_chance(self.shoe, pair, drawn)
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
        if ev["double"] is not None and split_plans(rules)[pair].may_double:
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
        policy the chart plays after the first decision (doubling where it says so and
        the hand may: double_after_hit)."""
        total, soft = hand_total(hand)
        if len(hand) > 2:  # (double_after_hit: the policy's bit 2 doubles where it may)
            play = self.policy(up)[total + (32 if soft else 0)]
            return "d" if play & 2 and "d" in values else "h" if play & 1 else "s"
        code = self.game.chart.total_code(total, soft, up)
        chart = LETTER_OF.get(code.action, "")
        if chart not in values and code.otherwise is not None:
            chart = LETTER_OF.get(code.otherwise, "")
        if chart not in values:
            chart = "h" if self.policy(up)[total + (32 if soft else 0)] & 1 else "s"
        return chart

    def policy(self, up: Rank) -> Sequence[int]:
        """The chart's total-dependent hit/stand play against ``up`` (1 hits), per node
        class: best total, plus 32 when soft (:attr:`Chart.policies`)."""
        return self.game.chart.policies[up]

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


def record_session(history: History, report: SessionReport, when: float | None = None,
                   kind: str = "play") -> History:
    """``history`` with a play session's answers and summary line added."""
    summary = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when)),
               "kind": kind, "against": report.against, "questions": len(report.answers),
               "accuracy": report.accuracy, "ev_cost_per_round": report.ev_cost_per_round}
    return history.record(str(report.rules),
                          [(g.question.cell, g.correct) for g in report.answers], summary)
