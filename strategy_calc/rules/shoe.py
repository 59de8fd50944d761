"""The shoe procedure of a ruleset: how a shoe is shuffled, cut and burnt and when it ends.

Both games' rules records carry these fields (their docstrings there say what each
means, for ``rules NAME``); this module is their one home otherwise: the checks
(:func:`check_shoe_fields`) and the procedure a counted run deals
(:class:`ShoeProcedure`, made by :func:`shoe_procedure`). The procedure changes no single
round's expectation (burnt cards are unseen, and cards removed unseen at random do not
change the law of the next cards); it changes which rounds are dealt and which cards a
counter sees (docs/MODEL.md, "The shoe procedure").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from strategy_calc.rules.fields import RulesError

Shuffle = Literal["cut_card", "continuous"]


BurnStart = int | Literal["decks"]
"""A number of cards, or ``"decks"``: as many cards as the shoe has decks."""


SHOE_FIELDS = ("shuffle", "cut_card_from_end", "burn_start", "burn_per_round",
               "burn_shown_card", "burn_before_dealer_cards", "demo_rounds",
               "rounds_after_cut_card", "continuous_buffer_cards")
"""The shoe procedure's fields (a rules record has those of its game)."""


MAX_DEMO_ROUNDS = 3
"""Baccarat Art. 2: the house may deal up to three demonstration rounds."""


def check_shoe_fields(rules: Any) -> None:
    """Reject a shoe-procedure field's bad value, naming the field (``rules``: a rules
    record with the fields, ``decks`` among them; an infinite deck has no shoe to bound
    them: every number of cards fits)."""
    cards: float = 52 * rules.decks if isinstance(rules.decks, int) else math.inf
    cut = rules.cut_card_from_end
    if cut != () and (len(cut) != 2 or not all(isinstance(c, int) and not isinstance(c, bool)
                                                 for c in cut)
                      or not 0 <= cut[0] <= cut[1] < cards):
        raise RulesError(f"cut_card_from_end must be [] (not stated) or a range [LOW, HIGH]"
                         f" of cards from the end, 0 <= LOW <= HIGH < {cards} (the"
                         f" {rules.decks}-deck shoe), not {list(cut)}")
    burn = rules.burn_start
    if burn != "decks" and (isinstance(burn, bool) or not isinstance(burn, int)
                            or not 0 <= burn < cards):
        raise RulesError(f"burn_start must be a number of cards 0 to {cards - 1}, or"
                         f" \"decks\", not {burn!r}")
    for name, high in (("burn_per_round", cards - 1), ("continuous_buffer_cards", cards - 1),
                       ("rounds_after_cut_card", 1),
                       ("demo_rounds", MAX_DEMO_ROUNDS)):
        value = getattr(rules, name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise RulesError(f"{name} must be a whole number 0 to {high}, not {value!r}")


@dataclass(frozen=True, slots=True)
class ShoeProcedure:
    """The procedure a counted run deals (``count --json``'s ``shoe_procedure``).

    A shoe is shuffled; with ``burn_shown_card`` its first card is shown (seen) and as
    many cards as its value burnt face down (unseen); then ``burn_start`` cards are burnt
    (unseen); under ``burn_before_dealer_cards`` (blackjack) one card is burnt before the
    dealer's second card and one after it when he must draw. The cut card lies ``c``
    cards from the end, ``c`` drawn uniformly from
    ``cut_card_from_end`` (low to high, both included) for each shoe; it comes out with
    the last card in front of it, so a round starts while more than ``c`` cards are
    left, and ``rounds_after_cut_card`` more rounds after the round in which it came out
    (0: that round is the shoe's last). Before each round ``burn_per_round`` cards are
    burnt (unseen); baccarat's ``demo_rounds`` are dealt first, seen, without bets.

    Under ``shuffle = "continuous"`` the cards are dealt from a machine: each round's
    cards go into a buffer, which returns to the machine (shuffled in) once it holds at
    least ``continuous_buffer_cards`` cards. A counted run's "shoe" is then one reload
    cycle: the machine starts full, rounds are dealt until the buffer is full, exactly a
    shoe whose cut card lies ``n - max(1, buffer)`` cards from the end (no burns).
    """

    shuffle: str
    cut_card_from_end: tuple[int, int]
    """The range the cut card's place is drawn from (cards behind it)."""
    cut_card_from: str
    """Where the cut card's place comes from: ``ruleset``, ``default`` (the ruleset
    states none: the run's default penetration), ``--penetration``, ``--cut-card`` or
    ``continuous_buffer_cards`` (a continuous shuffler's reload cycle)."""
    burn_start: int = 0
    burn_per_round: int = 0
    burn_shown_card: bool = False
    burn_before_dealer_cards: bool = False
    demo_rounds: int = 0
    rounds_after_cut_card: int = 0
    continuous_buffer_cards: int | None = None
    """Under a continuous shuffler, the buffer's cards; None otherwise."""

    @property
    def fixed_cut(self) -> bool:
        """True when every shoe's cut card lies at the same place."""
        return self.cut_card_from_end[0] == self.cut_card_from_end[1]

    def cut_card(self, draw: Any) -> int:
        """This shoe's cut card (cards behind it); ``draw``: a ``random.Random`` used
        only when the range has more than one place (so a fixed cut card draws nothing)."""
        low, high = self.cut_card_from_end
        return low if low == high else int(draw.randint(low, high))

    def as_dict(self) -> dict[str, Any]:
        """The procedure as JSON (the keys are a CLI contract)."""
        return {
            "shuffle": self.shuffle, "cut_card_from_end": list(self.cut_card_from_end),
            "cut_card_from": self.cut_card_from, "burn_start": self.burn_start,
            "burn_per_round": self.burn_per_round, "burn_shown_card": self.burn_shown_card,
            "burn_before_dealer_cards": self.burn_before_dealer_cards,
            "demo_rounds": self.demo_rounds,
            "rounds_after_cut_card": self.rounds_after_cut_card,
            "continuous_buffer_cards": self.continuous_buffer_cards,
        }

    def describe(self) -> str:
        """The procedure in one line (the text output of ``count``).

        >>> ShoeProcedure("cut_card", (20, 30), "ruleset", burn_start=6,
        ...               burn_per_round=1).describe().split(", ")  # doctest: +NORMALIZE_WHITESPACE
        ['cut card 20-30 cards from the end (uniform', "the ruleset's)", '6 burnt at the start',
         '1 before each round', "the cut card's round the last"]
        """
        if self.shuffle == "continuous":
            return (f"continuous shuffler: each round's cards wait, seen, in a buffer until"
                    f" it holds at least {self.continuous_buffer_cards} cards, then all go"
                    " back into the machine (a \"shoe\" here is one reload cycle)")
        low, high = self.cut_card_from_end
        where = f"{low}" if low == high else f"{low}-{high}"
        whose = {"ruleset": "the ruleset's", "default": "the run's default; the ruleset"
                 " states none"}.get(self.cut_card_from, self.cut_card_from)
        parts = [f"cut card {where} cards from the end"
                 f" ({'' if low == high else 'uniform, '}{whose})"]
        if self.burn_shown_card:
            parts.append("the first card shown and its value burnt")
        if self.burn_start:
            parts.append(f"{self.burn_start} burnt at the start")
        if self.demo_rounds:
            parts.append(f"{self.demo_rounds} demonstration rounds")
        if self.burn_per_round:
            parts.append(f"{self.burn_per_round} before each round")
        if self.burn_before_dealer_cards:
            parts.append("1 before the dealer's second card and 1 before his draws")
        parts.append("one more round after the cut card's" if self.rounds_after_cut_card
                     else "the cut card's round the last")
        return ", ".join(parts)


def shoe_procedure(rules: Any, cards: int, cut_card: int | None = None,
                   penetration: float | None = None, default_cut: int | None = None
                   ) -> ShoeProcedure:
    """The procedure a counted run of ``rules`` deals from a shoe of ``cards`` cards.

    ``cut_card`` / ``penetration``: the run's overrides of the cut card's place (the
    burns stay the ruleset's); ``default_cut``: where the cut card goes when the ruleset
    states none (``cut_card_from_end = []``). Under a continuous shuffler neither
    override applies (there is no cut card).

    >>> from strategy_calc.rules import blackjack_rules
    >>> p = shoe_procedure(blackjack_rules("macau-1983"), 312)
    >>> p.cut_card_from_end, p.burn_start, p.burn_per_round
    ((20, 30), 6, 1)
    >>> shoe_procedure(blackjack_rules("macau-1983"), 312, penetration=0.75).cut_card_from_end
    (78, 78)
    """
    if rules.shuffle == "continuous":
        if cut_card is not None or penetration is not None:
            raise RulesError("a continuous shuffler has no cut card: --penetration and"
                             " --cut-card do not apply (shuffle = \"continuous\")")
        buffer = rules.continuous_buffer_cards
        if not 0 <= buffer < cards:
            raise RulesError(f"continuous_buffer_cards must be below the {cards} cards of"
                             f" the shoe, not {buffer}")
        cut = cards - max(1, buffer)
        return ShoeProcedure("continuous", (cut, cut), "continuous_buffer_cards",
                             continuous_buffer_cards=buffer)
    burn = rules.decks if rules.burn_start == "decks" else rules.burn_start
    extra = {"burn_start": burn, "burn_per_round": rules.burn_per_round,
             "burn_shown_card": rules.burn_shown_card,
             "burn_before_dealer_cards": getattr(rules, "burn_before_dealer_cards", False),
             "demo_rounds": getattr(rules, "demo_rounds", 0),
             "rounds_after_cut_card": rules.rounds_after_cut_card}
    if cut_card is not None and penetration is not None:
        raise RulesError("give --penetration or --cut-card, not both")
    if cut_card is not None:
        return ShoeProcedure("cut_card", (cut_card, cut_card), "--cut-card", **extra)
    if penetration is not None:
        if not 0 < penetration < 1:
            raise RulesError(f"--penetration must be between 0 and 1, not {penetration:g}")
        cut = cards - round(penetration * cards)
        return ShoeProcedure("cut_card", (cut, cut), "--penetration", **extra)
    if rules.cut_card_from_end:
        low, high = rules.cut_card_from_end
        if high >= cards:
            raise RulesError(f"cut_card_from_end [{low}, {high}]: the shoe has only {cards}"
                             " cards")
        return ShoeProcedure("cut_card", (low, high), "ruleset", **extra)
    if default_cut is None:
        raise RulesError("the ruleset states no cut card (cut_card_from_end = []): give"
                         " --penetration or --cut-card")
    return ShoeProcedure("cut_card", (default_cut, default_cut), "default", **extra)


def continuous_note(rules: Any, what: str = "edge") -> str | None:
    """What an off-the-top figure (``what``: ``edge``) or a hand's EV (``hand``) means
    under a continuous shuffler; None under a cut card (docs/MODEL.md, "A continuous
    shuffler").

    >>> from strategy_calc.rules import blackjack_rules
    >>> continuous_note(blackjack_rules("deluxe")) is None
    True
    >>> print(continuous_note(blackjack_rules("deluxe", ["shuffle=continuous"]), "hand"))
    ... # doctest: +ELLIPSIS
    continuous shuffler (buffer 0 cards): the EV is for the shoe less the cards given; ...
    """
    if rules.shuffle != "continuous":
        return None
    buffer = rules.continuous_buffer_cards
    head = f"continuous shuffler (buffer {buffer} cards):"
    if what == "hand":
        return (f"{head} the EV is for the shoe less the cards given; the cards waiting in"
                " the buffer are out of play and seen: give them with --removed")
    if buffer <= 1:
        return (f"{head} every round is dealt from the full machine, so this off-the-top EV"
                " is every round's exact EV, for a counter too")
    return (f"{head} this is the exact EV of the first round after each reload; the mean"
            " per round of a player who does not count is this EV plus the reload cycle's"
            " cut-card effect (the rounds until the buffer is full are a shoe dealt until"
            f" {buffer} cards are out), which count --set shuffle=continuous measures")
