"""Effects of removal: what taking one card of a rank out of the shoe does to each
decision and to the house edge."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.edge import round_evs
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.game_pass import (
    GivenPolicy,
    PassRequest,
    add_split_values,
    split_hand_codes,
    whole_game_pass,
)
from strategy_calc.blackjack.hand_analysis import HandAnalysis, analyse_hand
from strategy_calc.cards import (
    RANKS,
    Card,
    Rank,
    Shoe,
    parse_card,
    parse_cards,
)
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules, RulesError

Progress = Callable[[int, int], None] | None
"""``progress(done, total)``, called as work completes (or ``None``)."""


DECK_WEIGHTS: Mapping[Rank, int] = {rank: 4 if rank is Rank.TEN else 1 for rank in RANKS}
"""Cards of each rank in one suit (13 cards: A..9 once, four ten-valued cards).

A full shoe holds ``4 * decks * DECK_WEIGHTS[rank]`` cards of each rank, so
weighting by these is weighting by the shoe's own counts (see
:class:`EffectsOfRemoval`). Multiply a weighted sum by 4 for a whole deck."""


ONE_DECK: tuple[int, ...] = Shoe.full(1).counts
"""Cards of each rank (ace first, ten-valued last) in one 52-card deck."""


def deck_sum(effects: Mapping[str, float]) -> float:
    """Effects of removal summed over one suit: A..9 once, T four times (:data:`DECK_WEIGHTS`).

    >>> deck_sum(dict.fromkeys("A23456789", 4) | {"T": -9})
    0
    """
    return sum(DECK_WEIGHTS[r] * effects[r.symbol] for r in RANKS)


EOR_DEFINITIONS: Mapping[str, str] = {
    "reoptimised": (
        "one card of the rank removed from a full shoe; the best composition-dependent play"
        " re-optimised for the reduced shoe; minus the full shoe's optimal EV"),
    "fixed-chart": (
        "one card of the rank removed from a full shoe; the full shoe's chart (two-card"
        " plays, total-dependent hit/stand, insurance) played unchanged on the reduced shoe;"
        " minus the chart's EV off the top"),
}
"""The definitions ``eor --definition`` offers (name -> what ``game[rank]`` is), the
default first. Both remove exactly one card and take no scaling; see
:class:`EffectsOfRemoval` and docs/MODEL.md "Effects of removal"."""


DEFAULT_EOR_DEFINITION = "reoptimised"


def check_eor_definition(name: str) -> str:
    """``name`` normalised (case, ``_`` for ``-``), or an InputError naming the choices.

    >>> check_eor_definition("Fixed_Chart")
    'fixed-chart'
    >>> check_eor_definition("scaled")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: unknown ... 'scaled': choose from reoptimised, fixed-chart
    """
    key = name.strip().lower().replace("_", "-")
    if key not in EOR_DEFINITIONS:
        raise InputError(f"unknown effects-of-removal definition {name!r}: choose from"
                         f" {', '.join(EOR_DEFINITIONS)}")
    return key


def progress_tick(progress: Progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


@dataclass(frozen=True, slots=True)
class DecisionEffects:
    """Effects of removal on one decision: EV(first action) - EV(second action) for a hand.

    ``full`` is ``EV(actions[0]) - EV(actions[1])`` for ``hand`` against ``up``
    dealt from a full shoe: the hand's two cards and the up card are out, the
    rest of the shoe is full. ``effects[symbol]`` is how much that difference
    changes when, in addition, one card of that rank is out. EVs per unit
    initial bet, as :func:`~strategy_calc.blackjack.hand_analysis.analyse_hand` gives them
    (in a peek game: given the dealer has no blackjack). A positive effect
    means the removal favours ``actions[0]``.

    The burned-card identity of :class:`EffectsOfRemoval` holds here with the
    weights of the hand's own shoe ``s`` (the full shoe less ``hand`` and
    ``up``): ``sum_r s_r [X(s - e_r) - X(s)] = 0`` exactly for the EV ``X`` of a
    fixed play (stand; hit once then stand) when it is unconditioned (an ENHC
    game), and ``>= 0`` for hit with the best continuation. ``deck_sum`` uses
    the suit weights instead (``s`` lacks the hand's and the up card's ranks)
    and, in a peek game, EVs given no dealer blackjack (a ratio of two such
    expectations), so it is small but not 0 on either count.

    >>> from strategy_calc.rules import blackjack_rules
    >>> d = decision_effects(blackjack_rules("deluxe", ["decks=6"]))
    >>> d.actions, round(d.full, 5), d.effects["5"] > 0 > d.effects["T"]  # -0.00628: a pin
    (('stand', 'hit'), -0.00628, True)
    """

    hand: tuple[Card, ...]
    up: Card
    actions: tuple[str, str]
    full: float
    effects: Mapping[str, float]

    @property
    def deck_sum(self) -> float:
        """:func:`deck_sum` of the effects; not 0 (see below)."""
        return deck_sum(self.effects)


@dataclass(frozen=True, slots=True)
class EffectsOfRemoval:
    """Effects of removal of one card of each rank from a full shoe, on the game and a decision.

    ``definition`` (:data:`EOR_DEFINITIONS`) says what ``game`` holds:

    - ``reoptimised`` (the default): ``ev_full`` is the EV of a round from a
      full shoe under the best composition-dependent play
      (``analyse_game(rules).ev_optimal``), per unit initial bet, dealer
      blackjacks included, insurance and even money where worth more (never
      off the top at 3:2); ``game[symbol]`` is ``ev_optimal`` of the full shoe
      less one card of that rank (``A``, ``2`` .. ``9``, ``T``), minus
      ``ev_full``: the play is re-optimised for each reduced shoe. This is the
      definition of Wizard of Odds' Appendix 7 (from k_c's analyser), whose
      twenty figures it reproduces to their last digit under his game (6 decks,
      S17 and H17, DAS, split once, late surrender against a ten or an ace:
      ``surrender=late_vs_ten_ace``; docs/REFERENCE.md).
    - ``fixed-chart``: ``ev_full`` is the chart's EV off the top
      (``analyse_game(rules).ev_basic``); ``game[symbol]`` is the EV of the
      *same* chart (its two-card plays, its total-dependent hit/stand policy,
      its insurance) played on the reduced shoe, minus ``ev_full``. The
      strategy is fixed, so :attr:`deck_sum` is exactly 0 (below).

    **Why the effects only nearly sum to zero.** Let ``f(s)`` be the EV of a
    round dealt from shoe ``s``, ``c`` the full shoe (``N = 52 D`` cards) and
    ``e_r`` one card of rank ``r``; the shoe holds ``c_r = 4 D w_r`` of rank
    ``r`` (``w`` = :data:`DECK_WEIGHTS`). Burning one unseen card at random
    does not change the expectation of a player who does not see it: the dealt
    cards have the same joint distribution. So for any *fixed* strategy
    ``sigma``, ``sum_r (c_r / N) f_sigma(c - e_r) = f_sigma(c)``, i.e.
    ``sum_r w_r [f_sigma(c - e_r) - f_sigma(c)] = 0`` *exactly*. The effects
    here use the best play for each reduced shoe, which is at least as good as
    ``sigma`` = the full shoe's best play applied to it, and equal to it at the
    full shoe, hence::

        deck_sum = sum_r w_r E_r = (N / 4D) * mean_r[f_opt(c - e_r) - f_sigma(c - e_r)]
                 = 13 * (value of seeing one burned card) >= 0

    It is second order: one card flips only decisions that were close to
    indifferent. Measured (6 decks, deluxe, no surrender): ``deck_sum`` =
    1.36e-4, 1.45% of ``sum_r w_r |E_r|`` = 9.39e-3; 1.8% at 8 decks, 5.8% at
    one deck. The linear reading (``E_r ~ -df/dc_r``, so ``deck_sum ~ -w . grad
    f``, the derivative along removing a whole suit) would predict the pure
    shoe-size effect ``f(c - w) - f(c)`` of a 13-card smaller shoe, 5.0e-5 at
    6 decks: the same order and sign, not equal, because finite differences of
    a re-optimised EV are not linear in the composition.

    The effects for 6 decks, deluxe, no surrender, in % rounded to 4 places
    (``tests/counting/test_counting.py`` recomputes them, 3.5 s; unrounded, the sum is
    0.0136%):

    >>> game = {"A": -0.0951, "2": 0.0635, "3": 0.0730, "4": 0.0978, "5": 0.1246,
    ...         "6": 0.0724, "7": 0.0452, "8": -0.0031, "9": -0.0333, "T": -0.0828}
    >>> round(deck_sum(game), 4), round(deck_sum({r: abs(v) for r, v in game.items()}), 4)
    (0.0138, 0.9392)
    """

    rules: BlackjackRules
    ev_full: float
    game: Mapping[str, float]
    decision: DecisionEffects
    definition: str = DEFAULT_EOR_DEFINITION

    @property
    def deck_sum(self) -> float:
        """:func:`deck_sum` of ``game``: 13 times the value of seeing one burned card
        (``reoptimised``), 0 up to float rounding (``fixed-chart``)."""
        return deck_sum(self.game)

    @property
    def definition_text(self) -> str:
        """What ``game`` holds under :attr:`definition` (:data:`EOR_DEFINITIONS`)."""
        return EOR_DEFINITIONS[self.definition]


ALTERNATIVES: Mapping[str, tuple[str, ...]] = {
    "hit_or_stand": ("hit", "stand"),
    "no_split": ("hit", "stand", "double"),
    "no_surrender": ("hit", "stand", "double", "split"),
}
"""The second action of a :class:`Decision` may be one of these: the best of the listed
actions that the rules allow for the hand (``no_surrender``: play the hand out as best
one can). ``decline`` (of insurance) is worth 0."""


def _value(analysis: HandAnalysis, action: str) -> float | None:
    """EV of ``action`` (a key of :attr:`HandAnalysis.ev`, ``decline`` or one of
    :data:`ALTERNATIVES`) per unit initial bet; None if not allowed."""
    if action == "decline":
        return 0.0
    if action in ALTERNATIVES:
        allowed = [v for a in ALTERNATIVES[action] if (v := analysis.ev[a]) is not None]
        return max(allowed) if allowed else None
    return analysis.ev[action]


def ev_difference(analysis: HandAnalysis, actions: tuple[str, str]) -> float | None:
    """EV(actions[0]) - EV(actions[1]) (see :func:`_value`); None if one is not allowed."""
    first, second = _value(analysis, actions[0]), _value(analysis, actions[1])
    if first is None or second is None:
        return None
    return first - second


def decision_effects(
    rules: BlackjackRules,
    hand: str | Sequence[Card] = "T,6",
    up: str | Card = "T",
    actions: tuple[str, str] = ("stand", "hit"),
) -> DecisionEffects:
    """Effects of removal on ``EV(actions[0]) - EV(actions[1])`` of ``hand`` vs ``up``.

    See :class:`DecisionEffects`; 11 calls of
    :func:`~strategy_calc.blackjack.hand_analysis.analyse_hand` (milliseconds).
    """
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    up_card = parse_card(up) if isinstance(up, str) else up
    return effects_of(removal_analyses(rules, cards, up_card), actions)


RemovalAnalyses = tuple[HandAnalysis, Mapping[str, HandAnalysis]]
"""A hand off the top, and the same hand with one card of each rank (by symbol) gone."""


def removal_analyses(rules: BlackjackRules, cards: Sequence[Card], up: Card
                     ) -> RemovalAnalyses:
    """The 11 hand analyses every decision's effects of removal for ``cards`` vs ``up``
    are read from (:func:`decision_effects`); make them once for several decisions."""
    return (analyse_hand(cards, up, rules),
            {rank.symbol: analyse_hand(cards, up, rules, removed=[Card(rank)])
             for rank in RANKS})


def effects_of(analyses: RemovalAnalyses, actions: tuple[str, str]) -> DecisionEffects:
    """:class:`DecisionEffects` of ``actions`` read off :func:`removal_analyses`."""
    top, less = analyses
    full = ev_difference(top, actions)
    if full is None:
        raise RulesError(f"{' or '.join(actions)} is not allowed for "
                         f"{','.join(map(str, top.hand))} vs {top.up} under {top.rules.name}")
    effects: dict[str, float] = {}
    for symbol, analysis in less.items():
        value = ev_difference(analysis, actions)
        assert value is not None  # the same actions are allowed with one card fewer
        effects[symbol] = value - full
    return DecisionEffects(top.hand, top.up, actions, full, effects)


def chart_round_ev(rules: BlackjackRules, chart: Chart, shoe: Shoe) -> float:
    """EV per unit initial bet of a round from ``shoe`` playing ``chart`` (a
    :attr:`~strategy_calc.blackjack.game_analysis.GameAnalysis.chart`, made for another
    shoe): its two-card plays, split hands, total-dependent play and insurance are kept;
    only the cards change. Dealer blackjacks included.

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=2"])
    >>> top = analyse_game(rules)
    >>> abs(chart_round_ev(rules, top.chart, Shoe.full(2)) - top.ev_basic) < 1e-15
    True
    """
    game = whole_game_pass(PassRequest(rules, shoe, GivenPolicy(chart.policies)))
    for up in UP_ORDER:
        ups = game.ups[up]
        add_split_values(game, ups, split_hand_codes(ups, chart.split_hand_bits(up)))
    return round_evs(game, chart)[0]


def effects_of_removal(rules: BlackjackRules, progress: Progress = None,
                       definition: str = DEFAULT_EOR_DEFINITION) -> EffectsOfRemoval:
    """Effects of removal on the game and on stand vs hit for T,6 vs T.

    ``definition``: a key of :data:`EOR_DEFINITIONS` (default ``reoptimised``, the
    best play for each shoe; ``fixed-chart``, the full shoe's chart on every shoe).
    Eleven :func:`~strategy_calc.blackjack.game_analysis.analyse_game` passes, or whole-game passes
    under the fixed chart (about 0.05 s each at 6 decks); ``progress(done, 11)``
    after each. See :class:`EffectsOfRemoval` for the definitions and the (near) zero
    sum.
    """
    definition = check_eor_definition(definition)
    total = len(RANKS) + 1
    full = Shoe.full(rules.finite_decks("effects of removal"))
    top = analyse_game(rules)
    if definition == "fixed-chart":
        def value(shoe: Shoe) -> float:
            return chart_round_ev(rules, top.chart, shoe)

        ev_full = float(top.ev_basic)
    else:
        def value(shoe: Shoe) -> float:
            return float(analyse_game(rules, shoe=shoe).ev_optimal)

        ev_full = float(top.ev_optimal)
    progress_tick(progress, 1, total)
    game: dict[str, float] = {}
    for step, rank in enumerate(RANKS, start=2):
        game[rank.symbol] = value(full.remove([Card(rank)])) - ev_full
        progress_tick(progress, step, total)
    return EffectsOfRemoval(rules, ev_full, game, decision_effects(rules), definition)
