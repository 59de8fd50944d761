"""The play drill's deals and questions: every deal at its exact frequency, the answers
parsed and graded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from strategy_calc.actions import Action
from strategy_calc.blackjack.chart import row_of
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.hand_rules import hand_total
from strategy_calc.cards import RANKS, SUITED_RANKS, Rank, Shoe
from strategy_calc.errors import InputError


class DrillReference(StrEnum):
    """What the play drill's answers are checked against (the value is ``drill --against``'s
    word)."""

    CHART = "chart"
    """The basic-strategy chart's cell."""
    OPTIMAL = "optimal"
    """The best composition-dependent play of the cards dealt."""


AGAINST = tuple(DrillReference)
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

    An infinite shoe draws with replacement: 2 * 1/13 * 4/13 * 4/13 for the same deal.

    >>> round(deal_frequency(Shoe.full(1), (Rank.SIX, Rank.TEN), Rank.TEN), 9)  # 2*4*16*15
    0.014479638
    >>> deal_frequency(Shoe.full("inf"), (Rank.SIX, Rank.TEN), Rank.TEN) == 2 * 4 * 16 * 16 / 52**3
    True
    """
    gone = 0 if shoe.infinite else 1  # (what a card dealt takes from its rank)
    counts = list(shoe.counts)
    ways = 1
    for rank in (*hand, up):
        ways *= counts[rank - 1]
        counts[rank - 1] -= gone
    if ways <= 0:
        return 0.0
    n = shoe.total
    orders = 2 if hand[0] != hand[1] else 1
    return orders * ways / (n * (n - gone) * (n - 2 * gone))




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
                if suits_matter and a != b and {a, b} <= set(SUITED_RANKS):
                    same = same_suit_chance(shoe, a, b)
                    found += [Deal((a, b), up, p * same, True),
                              Deal((a, b), up, p * (1.0 - same), False)]
                else:
                    found.append(Deal((a, b), up, p))
    return tuple(found)


def same_suit_chance(shoe: Shoe, a: Rank, b: Rank) -> float:
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
            total, soft = hand_total(self.split.ranks)
            return f"split {'soft' if soft else 'hard'} {total} vs {self.deal.up.symbol}"
        return f"{self.kind} vs {self.deal.up.symbol}"


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
