"""Count indices: the count at which a play changes, for every count system and every play
of every hand: a true count for a balanced system, a running count from the IRC for an
unbalanced one (KO, Red 7: :class:`RunningCountFamily`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from strategy_calc.blackjack.hand_analysis import HandAnalysis, analyse_hand
from strategy_calc.cards import (
    RANKS,
    Rank,
    Shoe,
    parse_card,
    parse_cards,
    rank_counts,
)
from strategy_calc.counting.effects import (
    ALTERNATIVES,
    Progress,
    RemovalAnalyses,
    effects_of,
    ev_difference,
    progress_tick,
    removal_analyses,
)
from strategy_calc.counting.families import (  # (the families, re-exported: their old home)
    TRUE_COUNT_RANGE,
    Family,
    index_family,
)
from strategy_calc.counting.families import CountFamily as CountFamily
from strategy_calc.counting.families import RunningCountFamily as RunningCountFamily
from strategy_calc.counting.systems import HILO, CountSystem, find_system
from strategy_calc.rules import BlackjackRules, RulesError


def find_count(name: str) -> CountSystem:
    """The balanced count system called ``name`` (or in the TOML file ``name``): the
    index computations read a true count (:func:`strategy_calc.counting.systems.find_system`).

    >>> find_count("Hi-Lo").name
    'hilo'
    >>> find_count("ko")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: count system 'ko' is unbalanced (a deck sums to +4): ...
    """
    return find_system(name).require_balanced("count indices")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision whose count index is wanted.

    ``actions``: (the play taken at or above the index, the play below it),
    keys of :attr:`HandAnalysis.ev` (``decline`` is worth 0, for insurance).
    ``hand``: the two cards used (for a hard total without an ace, any two
    cards of that total give the same EVs in :class:`CountFamily`, which fixes
    the unseen cards). ``published``: the published Hi-Lo index, or None.
    """

    name: str
    hand: str
    up: str
    actions: tuple[str, str]
    published: int | None = None
    group: str = ""
    """The published set the decision belongs to (``Illustrious 18``, ``Fab 4``), if any."""


ILLUSTRIOUS_18: tuple[Decision, ...] = (
    Decision("insurance", "9,7", "A", ("insurance", "decline"), 3),
    Decision("16 vs T", "T,6", "T", ("stand", "hit"), 0),
    Decision("15 vs T", "T,5", "T", ("stand", "hit"), 4),
    Decision("T-T vs 5", "T,T", "5", ("split", "stand"), 5),
    Decision("T-T vs 6", "T,T", "6", ("split", "stand"), 4),
    Decision("10 vs T", "7,3", "T", ("double", "hit"), 4),
    Decision("12 vs 3", "T,2", "3", ("stand", "hit"), 2),
    Decision("12 vs 2", "T,2", "2", ("stand", "hit"), 3),
    Decision("11 vs A", "8,3", "A", ("double", "hit"), 1),
    Decision("9 vs 2", "7,2", "2", ("double", "hit"), 1),
    Decision("10 vs A", "7,3", "A", ("double", "hit"), 4),
    Decision("9 vs 7", "6,3", "7", ("double", "hit"), 3),
    Decision("16 vs 9", "T,6", "9", ("stand", "hit"), 5),
    Decision("13 vs 2", "T,3", "2", ("stand", "hit"), -1),
    Decision("12 vs 4", "T,2", "4", ("stand", "hit"), 0),
    Decision("12 vs 5", "T,2", "5", ("stand", "hit"), -2),
    Decision("12 vs 6", "T,2", "6", ("stand", "hit"), -1),
    Decision("13 vs 3", "T,3", "3", ("stand", "hit"), -2),
)
"""The Hi-Lo "Illustrious 18" (Don Schlesinger, *Blackjack Attack*), 6 decks, S17, DAS,
as in docs/REFERENCE.md: insure at +3 or more, stand on 16 vs T at 0 or more, and so on."""


FAB_4: tuple[Decision, ...] = (
    Decision("14 vs T (R)", "T,4", "T", ("surrender", "no_surrender"), 3, "Fab 4"),
    Decision("15 vs T (R)", "T,5", "T", ("surrender", "no_surrender"), 0, "Fab 4"),
    Decision("15 vs 9 (R)", "T,5", "9", ("surrender", "no_surrender"), 2, "Fab 4"),
    Decision("15 vs A (R)", "T,5", "A", ("surrender", "no_surrender"), 1, "Fab 4"),
)
"""The Hi-Lo "Fab 4" late-surrender indices (Schlesinger, *Blackjack Attack*), 6 decks,
S17, as in docs/REFERENCE.md: surrender 14 vs T at +3 or more, 15 vs T at 0, 15 vs 9 at
+2, 15 vs A at +1 (else play the hand out)."""


PUBLISHED: tuple[Decision, ...] = (
    *(Decision(d.name, d.hand, d.up, d.actions, d.published, "Illustrious 18")
      for d in ILLUSTRIOUS_18),
    *FAB_4,
)
"""Every published decision ``indices`` compares with: the Illustrious 18, then the Fab 4."""


FAB_4_RULES = ("deluxe", ("decks=6", "surrender=late"))
"""The ruleset the Fab 4 are compared under: as :data:`PUBLISHED_RULES`, with late
surrender against every up card."""


PUBLISHED_RULES = ("deluxe", ("decks=6", "surrender=none"))
"""The ruleset the published indices are compared under: 6 decks, peek, S17, double any
two cards, DAS, split once, no surrender (``blackjack_rules("deluxe", [...])``)."""


PUBLISHED_DIFFERENCE = (
    "the published index is a rounded integer from simulation: the true count is estimated"
    " and the EV difference averaged over every hand of the total, every depth and every shoe"
    " with that count (T-T vs 5/6 with resplits where allowed); this one is exact for the"
    " family's average shoe at half depth, one two-card hand, split once"
)
"""The note of a row more than 1 away from its published index under the reference rules
(none is, for :data:`PUBLISHED_RULES`; kept for other count systems and decisions)."""


@dataclass(frozen=True, slots=True)
class CountIndex:
    """The count at which a decision flips, and the EV differences it came from.

    ``index``: the family's count where ``EV(actions[0]) - EV(actions[1])``
    crosses 0: a true count (running count per deck remaining, see
    :class:`CountFamily`) for a balanced system, a running count from the IRC
    at half the shoe dealt (:class:`RunningCountFamily`) for an unbalanced one;
    the crossing nearest to the family's neutral count (true count 0) when there
    are several; None when it keeps one sign over the whole range or an action
    is not allowed. ``above``: the play that is better just above the index.
    ``points``: (the count, EV difference per unit initial bet) at each step of
    the family.
    """

    decision: Decision
    index: float | None
    above: str | None
    points: tuple[tuple[float, float], ...]
    note: str = ""
    linear_index: float | None = None
    """The removal-based linear estimate of the index (:func:`linear_index`), when asked
    for; None also when the linear model keeps one sign over the range."""
    risk_averse_index: float | None = None
    """The risk-averse index (:func:`risk_averse_index`), when asked for."""

    @property
    def difference(self) -> float | None:
        """``index - published`` when both exist."""
        published = self.decision.published
        if self.index is None or published is None:
            return None
        return self.index - published


def _is_reference(rules: BlackjackRules) -> bool:
    """Whether ``rules`` play like the published indices' game (6D S17 DAS peek, no surrender)."""
    return (rules.decks == 6 and not rules.dealer_hits_soft_17 and rules.peek
            and rules.double_on == "any" and rules.double_after_split
            and rules.surrender == "none" and not rules.has_bonus)


def count_index(
    rules: BlackjackRules, decision: Decision, count: CountSystem = HILO,
    linear: bool = False,
) -> CountIndex:
    """The count at which ``decision`` flips under ``rules`` (see :class:`CountIndex`):
    a true count, or for an unbalanced ``count`` a running count (:func:`index_family`).

    The EV difference is computed exactly (``analyse_hand`` with the cards
    outside the family's unseen cards removed) at every integer step of
    the family with a true count in ``[-20, 20]``, linearly
    interpolated between steps; ``scipy.optimize.brentq`` finds the root in the
    bracketing interval. ``linear``: also the removal-based estimate
    (:func:`linear_index`, 11 more hand analyses).

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=6", "surrender=none"])
    >>> row = count_index(rules, Decision("16 vs T", "T,6", "T", ("stand", "hit"), 0))
    >>> round(row.index, 2), row.above  # regression pin of the engine; published index 0
    (-0.13, 'stand')
    """
    family = index_family(rules.finite_decks("indices"), count)
    return _cell_indices(rules, family, (decision,), linear)[0]


NOT_ALLOWED = "not allowed under these rules"
"""How a :class:`CountIndex` note ends when the rules forbid one of its actions."""


def _cell_indices(
    rules: BlackjackRules, family: Family, decisions: Sequence[Decision], linear: bool,
) -> list[CountIndex]:
    """:func:`count_index` of several decisions of one hand and up card, from one hand
    analysis per step of the family (every decision reads the same EVs)."""
    points: list[list[tuple[float, float]]] = [[] for _ in decisions]
    refused: list[str | None] = [None] * len(decisions)
    try:
        for tc, analysis in _along_family(rules, family, decisions[0]):
            for k, decision in enumerate(decisions):
                value = ev_difference(analysis, decision.actions)
                if value is None:
                    refused[k] = f"{' / '.join(decision.actions)}: {NOT_ALLOWED}"
                else:
                    points[k].append((tc, value))
    except RulesError as exc:
        return [CountIndex(d, None, None, (), f"not computed: {exc}") for d in decisions]
    rows = []
    analyses = None
    for decision, pts, why in zip(decisions, points, refused, strict=True):
        if why is not None:
            rows.append(CountIndex(decision, None, None, (), why))
            continue
        row = _root(decision, tuple(pts), rules, family)
        if linear:
            if analyses is None:  # (one set of removals serves every play of the hand)
                analyses = removal_analyses(rules, parse_cards(decision.hand),
                                            parse_card(decision.up))
            row = replace(row, linear_index=linear_index(rules, decision, family, analyses))
        rows.append(row)
    return rows


def _along_family(rules: BlackjackRules, family: Family, decision: Decision,
                  outcomes: bool = False) -> Iterator[tuple[float, HandAnalysis]]:
    """(the family's count: true count, or running count for :class:`RunningCountFamily`;
    the decision's hand analysed with the cards outside the family's unseen cards removed)
    at every step of ``family`` (:meth:`CountFamily.steps`) whose composition holds the
    hand (``outcomes``: with outcomes and second moments), by increasing count. Where
    several steps of a rounded :class:`RunningCountFamily` have one running count (an
    ace and a ten trade places, both -1), the step whose line passes nearest to that
    count stands for it.
    Raises ``RulesError`` where the rules refuse a step's hand."""
    hand = parse_cards(decision.hand)
    up = parse_card(decision.up)
    nearest: dict[float, int] = {}  # count -> the step whose line passes nearest to it
    for step in family.steps():
        at = family.coordinate(step)
        best = nearest.get(at)
        if best is None or (abs(family.line_coordinate(step) - at)
                            < abs(family.line_coordinate(best) - at)):
            nearest[at] = step
    for at, step in sorted(nearest.items()):
        shoe = family.shoe_at(step, hand, up)
        if shoe is not None:
            yield at, analyse_hand(hand, up, rules, outcomes=outcomes, shoe=shoe)


BetAt = Callable[[float], float]
"""The bet in units at a true count (a ramp, e.g. ``count.parse_spread(...).bet``)."""


def _ra_difference(analysis: HandAnalysis, actions: tuple[str, str],
                   fraction: float) -> float | None:
    """``EV(a0) - EV(a1) - fraction / 2 (E[X0^2] - E[X1^2])`` (see
    :func:`risk_averse_index`); None if an action or its second moment is missing."""
    moments = analysis.second_moments or {}

    def pick(action: str) -> tuple[float, float] | None:
        names = ALTERNATIVES.get(action, (action,))
        allowed = [(v, moments.get(a)) for a in names if (v := analysis.ev[a]) is not None]
        if not allowed:
            return None
        value, m2 = max(allowed, key=lambda vm: vm[0])
        return None if m2 is None else (value, m2)

    if actions == ("insurance", "decline"):
        if not analysis.conditioned_on_no_dealer_blackjack or analysis.ev["insurance"] is None:
            return None  # (without a peek the hand's losses to a blackjack vary with the play)
        best = pick("no_surrender")
        if best is None:
            return None
        p = analysis.dealer_blackjack
        against = 0.0 if analysis.ev["even_money"] is not None else -1.0
        # X the hand, I the insurance (+1 on a blackjack, -1/2 otherwise), unconditioned
        cross = p * against - 0.5 * (1.0 - p) * best[0]
        extra = 2.0 * cross + p + 0.25 * (1.0 - p)
        return analysis.ev["insurance"] - fraction / 2.0 * extra
    first, second = pick(actions[0]), pick(actions[1])
    if first is None or second is None:
        return None
    return first[0] - second[0] - fraction / 2.0 * (first[1] - second[1])


def risk_averse_index(rules: BlackjackRules, decision: Decision, family: Family,
                      bet: BetAt, bankroll: float) -> tuple[float | None, str]:
    """The risk-averse index of ``decision`` along ``family`` and why it has none.

    Schlesinger's risk-averse index (*Blackjack Attack*): the count at which a
    deviation is worth taking for a player who sizes his bets for growth, not EV alone.
    Betting ``b`` units of a bankroll of ``B`` on a round of net result ``X`` (per unit
    bet), the growth rate is ``E[log(1 + f X)] = f E[X] - f^2 E[X^2] / 2 + ...`` with
    ``f = b / B``; so ``a0`` beats ``a1`` when ``EV(a0) - EV(a1) > (f / 2) (E[X0^2] -
    E[X1^2])``. ``b`` is the ramp's bet at each step's count (``bet``: at its true count,
    or along :class:`RunningCountFamily` its running count), both
    moments are exact (:attr:`HandAnalysis.second_moments`, on the EVs' scale, where a
    peek game's dealer blackjack costs both plays alike). Insurance adds its own bet I
    (+1 on a dealer blackjack, -1/2 otherwise) to the hand's result X, so its increase
    in ``E[(X + I)^2]`` is ``2 E[X I] + E[I^2]``: peek games only (without a hole-card
    check the hand's loss to a blackjack depends on its play). The difference is
    interpolated between steps and its root found as for :func:`count_index`.

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=6", "surrender=none"])
    >>> ra, _ = risk_averse_index(rules, ILLUSTRIOUS_18[5], CountFamily(6), lambda t: 0.0, 1)
    >>> round(ra, 2)  # with no bet the risk-averse index is the index: 10 vs T, +3.77
    3.77
    """
    if not bankroll > 0 or not math.isfinite(bankroll):
        raise RulesError(f"a bankroll is a positive number of units, not {bankroll:g}")
    points: list[tuple[float, float]] = []
    try:
        for tc, analysis in _along_family(rules, family, decision, outcomes=True):
            value = _ra_difference(analysis, decision.actions, bet(tc) / bankroll)
            if value is None:
                return None, "risk-averse index not computed for this play under these rules"
            points.append((tc, value))
    except RulesError as exc:
        return None, f"not computed: {exc}"
    row = _root(decision, tuple(points), rules, family)
    return row.index, row.note


def linear_index(rules: BlackjackRules, decision: Decision, family: Family,
                 analyses: RemovalAnalyses | None = None) -> float | None:
    """The removal-based linear estimate of ``decision``'s index along ``family``.

    Let ``s`` be the shoe the hand is dealt from off the top (the full shoe less the
    hand and the up card; ``N`` cards, ``s_r`` of rank ``r``), ``d0`` the decision's EV
    difference from ``s`` and ``E_r`` its effects of removal (:func:`decision_effects`).
    The linear model in the unseen cards' densities (Griffin, *The Theory of
    Blackjack*, ch. 6) is::

        d(u) = d0 - (N - 1) sum_r E_r (u_r / n - s_r / N)      (n = |u|)

    *Why (N - 1):* for ``u = s - e_q`` (one card of rank ``q`` gone, ``n = N - 1``)
    ``u_r / n - s_r / N = (s_r / N - [r = q]) / (N - 1)``, so the model gives
    ``d0 + E_q - sum_r E_r s_r / N``: every one-card removal exactly, up to the mean
    effect, which the model ignores (adding a constant to every ``E_r`` changes nothing,
    since ``sum_r (u_r / n - s_r / N) = 0``). A difference that is linear in the
    densities (insurance: ``(3 u_T / n - 1) / 2``) is reproduced exactly everywhere.

    Along :class:`CountFamily` ``u`` is linear in the step, so ``d`` is too; the index
    is the true count where it vanishes: None when that lies outside
    [-:data:`TRUE_COUNT_RANGE`, +:data:`TRUE_COUNT_RANGE`] or the model is flat. Along
    :class:`RunningCountFamily` the same on its line before rounding
    (:meth:`RunningCountFamily.line`), the index a running count (its equivalent true
    count within the range).
    ``analyses``: the hand's :func:`removal_analyses`, if already made (they serve
    every play of the hand).

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=6", "surrender=none"])
    >>> round(linear_index(rules, ILLUSTRIOUS_18[0], CountFamily(6)), 9)  # insurance: 10/3
    3.333333333
    """
    if analyses is None:
        analyses = removal_analyses(rules, parse_cards(decision.hand), parse_card(decision.up))
    effects = effects_of(analyses, decision.actions)
    gone = [a + b for a, b in zip(rank_counts(effects.hand), rank_counts([effects.up]),
                                  strict=True)]
    full = Shoe.full(rules.finite_decks("indices"))
    shoe = [c - g for c, g in zip(full.counts, gone, strict=True)]
    big_n = sum(shoe)
    n = family.unseen_cards
    rank_effects = [effects.effects[r.symbol] for r in RANKS]

    def model(step: int) -> float:
        return effects.full - (big_n - 1) * sum(
            e * (u / n - c / big_n)
            for e, u, c in zip(rank_effects, family.line(step), shoe, strict=True))

    at_zero = model(0)
    slope = model(1) - at_zero
    if slope == 0.0:
        return None
    x0, x1 = family.line_coordinate(0), family.line_coordinate(1)
    index = x0 - at_zero / slope * (x1 - x0)
    return index if abs(family.true_count_of(index)) <= TRUE_COUNT_RANGE else None


def _root(
    decision: Decision, points: tuple[tuple[float, float], ...], rules: BlackjackRules,
    family: Family | None = None,
) -> CountIndex:
    """The zero crossing of the interpolated EV difference nearest to the family's neutral
    count (true count 0; its running count along :class:`RunningCountFamily`)."""
    from scipy.optimize import brentq  # type: ignore[import-untyped, unused-ignore]

    points = tuple(sorted(points))
    centre = 0.0 if family is None else family.line_coordinate(0)
    kind = "running" if family is not None and family.index_kind == "running" else "true"
    crossings = [(a, b) for a, b in itertools.pairwise(points)
                 if (a[1] < 0) != (b[1] < 0) or a[1] == 0]
    if not crossings:
        better = decision.actions[0] if points and points[0][1] > 0 else decision.actions[1]
        span = f"{points[0][0]:+.1f} to {points[-1][0]:+.1f}" if points else "no count"
        return CountIndex(decision, None, None, points, f"{better} at every {kind} count"
                          f" from {span}")
    (t0, d0), (t1, d1) = min(crossings, key=lambda ab: min(abs(ab[0][0] - centre),
                                                           abs(ab[1][0] - centre)))

    def line(t: float) -> float:
        return d0 + (d1 - d0) * (t - t0) / (t1 - t0)

    index = t0 if d0 == 0 else float(brentq(line, t0, t1, xtol=1e-12, rtol=1e-12))
    above = decision.actions[0] if d1 > d0 else decision.actions[1]
    return CountIndex(decision, index, above, points, _note(decision, index, above, rules))


def _note(decision: Decision, index: float, above: str, rules: BlackjackRules) -> str:
    """The note of a row: why it differs from the published index, if it does."""
    notes = []
    if above != decision.actions[0]:
        notes.append(f"{above} is better above the index, the reverse of the published sense")
    published = decision.published
    if published is not None and abs(index - published) > 1:
        if _is_reference(rules):
            notes.append(PUBLISHED_DIFFERENCE)
        else:
            notes.append("the published index is for 6 decks S17 DAS peek without surrender;"
                         f" these rules differ ({rules})")
    return "; ".join(notes)


@dataclass(frozen=True, slots=True)
class IndexTable:
    """Count indices of several decisions under one ruleset and count system."""

    rules: BlackjackRules
    count: CountSystem
    family: Family
    rows: tuple[CountIndex, ...]
    risk_averse: str = ""
    """How the rows' risk-averse indices were made (:func:`risk_averse_index`: the ramp
    and bankroll), or empty when they were not."""


PUBLISHED_STEP_SECONDS = 0.0107
"""CPU seconds per step of the family for the published decisions with their linear
estimates (``indices --published``, hilo, macau-1983, 2026-12-07 on the 2-core machine:
4.70 s at 200 decks and 21.78 s at 1,000, 401 and 2,001 steps)."""
MATRIX_SECONDS = 4.15
"""CPU seconds of the matrix of every play (330 cells) besides its steps: ``indices`` less
``indices --published``, 11.8 s at 8 decks (17 steps) and 49.5 s at 50 (101 steps), a line
through both (2026-12-07)."""
MATRIX_STEP_SECONDS = 0.449
"""CPU seconds per step of the family for the matrix of every play (the same line)."""
START_SECONDS = 0.41
"""What an ``indices --published`` process costs besides its steps (the same fit)."""


def estimated_seconds(rules: BlackjackRules, count: str | CountSystem = "hilo",
                      matrix: bool = True) -> float:
    """About how long ``indices`` takes for ``rules`` and ``count`` on a machine like the one
    :data:`PUBLISHED_STEP_SECONDS` was measured on (an estimate, to ask before a long run):
    each decision is analysed at every step of its family, whose steps are ``20 / decks``
    true counts apart (:meth:`CountFamily.steps`: about ``2 * decks + 1`` of them), so the
    work grows with the decks; ``matrix``: with the matrix of every play.

    >>> from strategy_calc.rules import blackjack_rules
    >>> round(estimated_seconds(blackjack_rules("macau-1983", [], 8)))  # 17 steps
    12
    >>> round(estimated_seconds(blackjack_rules("macau-1983", [], 1000)) / 60)  # 2,001 steps
    15
    >>> round(estimated_seconds(blackjack_rules("macau-1983", [], 1000), "ko"))  # 21 steps
    14
    """
    system = count if isinstance(count, CountSystem) else find_system(count)
    steps = len(index_family(rules.finite_decks("indices"), system).steps())
    seconds = START_SECONDS + steps * PUBLISHED_STEP_SECONDS
    return seconds + (MATRIX_SECONDS + steps * MATRIX_STEP_SECONDS if matrix else 0.0)


def count_indices(
    rules: BlackjackRules,
    count: str = "hilo",
    progress: Progress = None,
    decisions: Sequence[Decision] = ILLUSTRIOUS_18,
    linear: bool = False,
    risk_averse: tuple[BetAt, float] | None = None,
) -> IndexTable:
    """Count indices of ``decisions`` (default: the Illustrious 18); ``progress`` per row;
    ``linear``: each with its removal-based estimate too (:func:`linear_index`);
    ``risk_averse``: (the ramp's bet at a true count, the bankroll in units): each with
    its risk-averse index too (:func:`risk_averse_index`). An unbalanced ``count`` (KO,
    Red 7) gives running counts (:class:`RunningCountFamily`; the ramp is then read at
    the running count) and no published figure beside them (the decisions' published
    figures are Hi-Lo true counts).

    Raises ``ValueError`` for an unknown count system.
    """
    system = find_system(count)
    family = index_family(rules.finite_decks("indices"), system)
    if family.index_kind == "running":
        decisions = [replace(d, published=None) for d in decisions]
    rows = []
    for done, decision in enumerate(decisions, start=1):
        row = count_index(rules, decision, system, linear)
        if risk_averse is not None:
            row = with_risk_averse(rules, family, row, *risk_averse)
        rows.append(row)
        progress_tick(progress, done, len(decisions))
    how = f"bet ramp and bankroll of {risk_averse[1]:g} units" if risk_averse else ""
    return IndexTable(rules, system, family, tuple(rows), how)


def with_risk_averse(rules: BlackjackRules, family: Family, row: CountIndex, bet: BetAt,
                     bankroll: float) -> CountIndex:
    """``row`` with its :func:`risk_averse_index` (where it has an index at all)."""
    if row.index is None:
        return row
    averse, _why = risk_averse_index(rules, row.decision, family, bet, bankroll)
    return replace(row, risk_averse_index=averse)


UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
"""The up cards of an index matrix, in the order counters print them."""


HARD_HANDS: Mapping[int, str] = {
    5: "3,2", 6: "4,2", 7: "5,2", 8: "6,2", 9: "7,2", 10: "7,3", 11: "8,3", 12: "T,2",
    13: "T,3", 14: "T,4", 15: "T,5", 16: "T,6", 17: "T,7", 18: "T,8", 19: "T,9",
}
"""The two cards that stand for each hard total (no pair, no ace): in
:class:`CountFamily` every such pair of cards gives the same EVs (the unseen cards are
fixed), so the choice does not matter."""


SOFT_HANDS: Mapping[int, str] = {total: f"A,{total - 11}" for total in range(13, 21)}
"""Soft totals 13 to 20: an ace and a card."""


PAIR_HANDS: tuple[str, ...] = ("2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9",
                               "T,T", "A,A")
"""The pairs of an index matrix."""


PLAYS: Mapping[str, tuple[str, str]] = {
    "stand": ("stand", "hit"),
    "double": ("double", "hit_or_stand"),
    "split": ("split", "no_split"),
    "surrender": ("surrender", "no_surrender"),
    "insurance": ("insurance", "decline"),
}
"""Each play a matrix indexes, and what it is weighed against (:data:`ALTERNATIVES`)."""


def cell_plays(kind: str, total: int, up: str) -> tuple[str, ...]:
    """The plays a counter's matrix indexes for a hand of ``kind`` (hard, soft, pair) and
    ``total`` against ``up``: standing on hard 12+ and soft 17+, doubling hard 5-11 and
    soft 13-20, splitting pairs, surrendering hard 13-17 (insurance, which reads no
    hand, is a cell of its own). ``up`` is not read yet: every up card has the same plays.

    >>> cell_plays("hard", 16, "A"), cell_plays("pair", 16, "T")
    (('stand', 'surrender'), ('split',))
    """
    plays: list[str] = []
    if kind == "pair":
        plays.append("split")
    else:
        if total >= (12 if kind == "hard" else 17):
            plays.append("stand")
        if total <= 11 or kind == "soft":
            plays.append("double")
        if kind == "hard" and 13 <= total <= 17:
            plays.append("surrender")
    return tuple(plays)


@dataclass(frozen=True, slots=True)
class CellIndices:
    """Every indexed play of one hand against one up card (:func:`index_matrix`).

    ``kind``: ``hard``, ``soft``, ``pair`` or ``cell`` (a hand asked for by its cards);
    ``label``: the total (``16``, ``A,7`` for soft 18) or the pair; ``rows``: one
    :class:`CountIndex` per play, plays the rules forbid left out.
    """

    kind: str
    label: str
    hand: str
    up: str
    rows: tuple[CountIndex, ...]


@dataclass(frozen=True, slots=True)
class IndexMatrix:
    """Count indices of every play of every starting hand, or of one cell."""

    rules: BlackjackRules
    count: CountSystem
    family: Family
    cells: tuple[CellIndices, ...]

    @property
    def up_cards(self) -> tuple[str, ...]:
        """The up cards in the order counters print them (:data:`UP_CARDS`)."""
        return UP_CARDS


def _matrix_cells() -> list[tuple[str, str, str, int]]:
    """(kind, label, hand, total) of every row of the matrix."""
    cells = [("hard", str(t), hand, t) for t, hand in HARD_HANDS.items()]
    cells += [("soft", hand, hand, t) for t, hand in SOFT_HANDS.items()]
    cells += [("pair", hand, hand, 0) for hand in PAIR_HANDS]
    return cells


def index_matrix(
    rules: BlackjackRules,
    count: str = "hilo",
    progress: Progress = None,
    hand: str | None = None,
    up: str | None = None,
) -> IndexMatrix:
    """Count indices of every play of every starting hand against every up card (the
    matrix a counter prints: :func:`cell_plays` says which plays), each exact along
    the system's family (:func:`index_family`: true counts, or running counts for an
    unbalanced system) and with its removal-based estimate (:func:`linear_index`);
    ``progress(done, total)`` per cell. With ``hand`` and ``up``: that cell alone, with
    every play the rules allow it (stand, double, split, surrender, insurance).

    Cost: one hand analysis per step of the family and 11 for the estimate, per cell
    (330 cells; at 6 decks 13 steps: about 8,000 analyses).

    >>> from strategy_calc.rules import blackjack_rules
    >>> m = index_matrix(blackjack_rules("deluxe", ["decks=6"]), hand="T,6", up="T")
    >>> [(r.decision.actions[0], r.index and round(r.index, 2)) for r in m.cells[0].rows]
    [('stand', -0.13), ('double', None)]

    (A regression pin: split and surrender are not allowed for T,6 vs T in Deluxe, and
    doubling never beats the best of hitting and standing; the published stand index is 0.)
    """
    system = find_system(count)
    family = index_family(rules.finite_decks("indices"), system)
    if (hand is None) != (up is None):
        raise RulesError("give both --hand and --vs for one cell, or neither for the matrix")
    if hand is not None and up is not None:
        cards = parse_cards(hand)
        up_card = parse_card(up)
        label = ",".join(str(c) for c in cards)
        plays = [p for p in PLAYS if p != "insurance" or up_card.rank is Rank.ACE]
        jobs = [("cell", label, label, str(up_card), plays)]
    else:
        jobs = [(kind, label, cards_, u, list(cell_plays(kind, total, u)))
                for kind, label, cards_, total in _matrix_cells() for u in UP_CARDS]
        jobs.append(("insurance", "insurance", "9,7", "A", ["insurance"]))
    cells = []
    for done, (kind, label, cards_, u, plays) in enumerate(jobs, start=1):
        decisions = [Decision(f"{p} {label} vs {u}", cards_, u, PLAYS[p]) for p in plays]
        rows = [row for row in _cell_indices(rules, family, decisions, linear=True)
                if not row.note.endswith(NOT_ALLOWED)]
        cells.append(CellIndices(kind, label, cards_, u, tuple(rows)))
        progress_tick(progress, done, len(jobs))
    return IndexMatrix(rules, system, family, tuple(cells))
