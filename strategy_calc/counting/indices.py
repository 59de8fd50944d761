"""Count indices: the true count at which a play changes, for every count system and
every play of every hand."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from strategy_calc.blackjack.hand_analysis import HandAnalysis, analyse_hand
from strategy_calc.cards import (
    RANKS,
    Card,
    Rank,
    Shoe,
    check_decks,
    parse_card,
    parse_cards,
    rank_counts,
)
from strategy_calc.counting.effects import (
    ALTERNATIVES,
    ONE_DECK,
    Progress,
    RemovalAnalyses,
    effects_of,
    ev_difference,
    progress_tick,
    removal_analyses,
)
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


TRUE_COUNT_RANGE = 20.0
"""The family is explored for true counts in [-20, +20] (steps are at most 20 apart)."""


@dataclass(frozen=True, slots=True)
class CountFamily:
    """Unseen-card compositions indexed by true count: half a shoe, tilted along the count.

    *Unseen cards* are the cards not yet seen when the player decides: the
    player's own cards and the dealer's up card are seen (and counted). The
    family fixes their number at half the shoe, ``26 * decks`` cards, i.e.
    ``decks / 2`` decks remaining. Step ``j`` (an integer) holds, per rank
    ``r``, ``ONE_DECK[r] * decks / 2 - j * tag_r * ONE_DECK[r] / g`` cards
    (``g`` the gcd of the nonzero ``tag_r * ONE_DECK[r]``). For Hi-Lo: ``2 D``
    of each rank and ``8 D`` tens at step 0, then per step one more ace, four
    more tens and one fewer of each of 2-6 (7-9 unchanged): the low and the
    high groups move in proportion to their shares. The running count is
    ``10 j`` and the true count ``20 j / D``.

    Why this direction: for cards seen at random, the best linear predictor
    of the unseen count of rank ``r`` given the running count moves it in
    proportion to ``share_r * tag_r`` (the covariance of a hypergeometric
    sample with a balanced count), so each step is the average shoe at that
    count, not a shoe picked to suit a decision. Integer steps keep the
    composition *exactly* proportional within each group; between them the
    EV difference is interpolated linearly, which for the average shoe is
    exact to first order (the error is the curvature of the EV difference: a
    cubic through the four nearest steps moves none of the Illustrious 18 by
    more than 0.06 at 6 or 8 decks). The steps are ``20 / D`` true counts
    apart (3.3 at 6 decks), so the family is coarse for one or two decks.

    >>> family = CountFamily(6)
    >>> family.unseen(0), family.unseen(2)
    ((12, 12, 12, 12, 12, 12, 12, 12, 12, 48), (14, 10, 10, 10, 10, 10, 12, 12, 12, 56))
    >>> family.running_count(2), round(family.true_count(2), 4)
    (20, 6.6667)
    """

    decks: int
    count: CountSystem = HILO

    def __post_init__(self) -> None:
        check_decks(self.decks)
        self.count.require_balanced("a count family")

    @property
    def step_vector(self) -> tuple[int, ...]:
        """Change of each rank's unseen count per step (half-point tags doubled first)."""
        weighted = [Fraction(t) * n for t, n in zip(self.count.tags, ONE_DECK, strict=True)]
        scale = math.lcm(*(w.denominator for w in weighted))
        whole = [int(w * scale) for w in weighted]
        g = math.gcd(*whole)
        return tuple(-w // g for w in whole)

    @property
    def unseen_cards(self) -> int:
        """Number of unseen cards, the same at every step (half the shoe)."""
        return 26 * self.decks

    @property
    def decks_remaining(self) -> float:
        """Unseen cards in decks (the true count's divisor)."""
        return self.unseen_cards / 52

    def unseen(self, step: int) -> tuple[int, ...]:
        """Unseen cards per rank (ace first) at ``step``; may be negative (check yourself)."""
        return tuple(n * self.decks // 2 + step * v
                     for n, v in zip(ONE_DECK, self.step_vector, strict=True))

    def running_count(self, step: int) -> float:
        """Running count of the seen cards: minus the tag sum of the unseen (balanced count)."""
        return -sum(t * n for t, n in zip(self.count.tags, self.unseen(step), strict=True))

    def true_count(self, step: int) -> float:
        """Running count per deck remaining."""
        return self.running_count(step) / self.decks_remaining

    def removed(self, step: int, hand: Sequence[Card], up: Card) -> list[Card] | None:
        """The cards out of the shoe other than ``hand`` and ``up``, or None if impossible."""
        gone = [a + b for a, b in zip(rank_counts(hand), rank_counts([up]), strict=True)]
        out: list[Card] = []
        full = Shoe.full(self.decks).counts
        for rank, total, unseen, seen in zip(RANKS, full, self.unseen(step), gone, strict=True):
            left = total - unseen - seen
            if unseen < 0 or left < 0:
                return None
            out.extend([Card(rank)] * left)
        return out

    def describe(self) -> str:
        """One line for reports."""
        moves = ", ".join(f"{v:+d} {r.symbol}" for r, v in zip(RANKS, self.step_vector,
                                                                 strict=True) if v)
        return (f"unseen cards (after the player's two cards and the up card, which are counted)"
                f" = half the shoe: {self.unseen_cards} cards, {self.decks_remaining:g} decks"
                f" remaining; step j: neutral half shoe plus j times ({moves}); running count"
                f" {self.running_count(1)}j, true count {self.true_count(1):.4g}j; EV difference"
                f" linearly interpolated between integer steps; root by scipy brentq")


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
    """The true count at which a decision flips, and the EV differences it came from.

    ``index``: true count (running count per deck remaining, see
    :class:`CountFamily`) where ``EV(actions[0]) - EV(actions[1])`` crosses 0,
    the crossing nearest to 0 when there are several; None when it keeps one
    sign over the whole range or an action is not allowed. ``above``: the play
    that is better just above the index. ``points``: (true count, EV
    difference per unit initial bet) at each integer step of the family.
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
    """The true count at which ``decision`` flips under ``rules`` (see :class:`CountIndex`).

    The EV difference is computed exactly (``analyse_hand`` with the cards
    outside the family's unseen cards removed) at every integer step of
    :class:`CountFamily` with a true count in ``[-20, 20]``, linearly
    interpolated between steps; ``scipy.optimize.brentq`` finds the root in the
    bracketing interval. ``linear``: also the removal-based estimate
    (:func:`linear_index`, 11 more hand analyses).

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=6", "surrender=none"])
    >>> row = count_index(rules, Decision("16 vs T", "T,6", "T", ("stand", "hit"), 0))
    >>> round(row.index, 2), row.above  # regression pin of the engine; published index 0
    (-0.13, 'stand')
    """
    family = CountFamily(rules.decks, count)
    return _cell_indices(rules, family, (decision,), linear)[0]


NOT_ALLOWED = "not allowed under these rules"
"""How a :class:`CountIndex` note ends when the rules forbid one of its actions."""


def _cell_indices(
    rules: BlackjackRules, family: CountFamily, decisions: Sequence[Decision], linear: bool,
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
        row = _root(decision, tuple(pts), rules)
        if linear:
            if analyses is None:  # (one set of removals serves every play of the hand)
                analyses = removal_analyses(rules, parse_cards(decision.hand),
                                            parse_card(decision.up))
            row = replace(row, linear_index=linear_index(rules, decision, family, analyses))
        rows.append(row)
    return rows


def _along_family(rules: BlackjackRules, family: CountFamily, decision: Decision,
                  outcomes: bool = False) -> Iterator[tuple[float, HandAnalysis]]:
    """(true count, the decision's hand analysed with the cards outside the family's unseen
    cards removed) at every integer step of ``family`` with a true count in [-20, 20]
    whose composition holds the hand (``outcomes``: with outcomes and second moments).
    Raises ``RulesError`` where the rules refuse a step's hand."""
    hand = parse_cards(decision.hand)
    up = parse_card(decision.up)
    reach = max(1, math.floor(TRUE_COUNT_RANGE / family.true_count(1) + 1e-9))
    for step in range(-reach, reach + 1):
        removed = family.removed(step, hand, up)
        if removed is not None:
            yield family.true_count(step), analyse_hand(hand, up, rules, removed=removed,
                                                        outcomes=outcomes)


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


def risk_averse_index(rules: BlackjackRules, decision: Decision, family: CountFamily,
                      bet: BetAt, bankroll: float) -> tuple[float | None, str]:
    """The risk-averse index of ``decision`` along ``family`` and why it has none.

    Schlesinger's risk-averse index (*Blackjack Attack*): the count at which a
    deviation is worth taking for a player who sizes his bets for growth, not EV alone.
    Betting ``b`` units of a bankroll of ``B`` on a round of net result ``X`` (per unit
    bet), the growth rate is ``E[log(1 + f X)] = f E[X] - f^2 E[X^2] / 2 + ...`` with
    ``f = b / B``; so ``a0`` beats ``a1`` when ``EV(a0) - EV(a1) > (f / 2) (E[X0^2] -
    E[X1^2])``. ``b`` is the ramp's bet at each step's true count (``bet``), both
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
    row = _root(decision, tuple(points), rules)
    return row.index, row.note


def linear_index(rules: BlackjackRules, decision: Decision, family: CountFamily,
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
    [-:data:`TRUE_COUNT_RANGE`, +:data:`TRUE_COUNT_RANGE`] or the model is flat.
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
    shoe = [c - g for c, g in zip(Shoe.full(rules.decks).counts, gone, strict=True)]
    big_n = sum(shoe)
    n = family.unseen_cards
    rank_effects = [effects.effects[r.symbol] for r in RANKS]

    def model(step: int) -> float:
        return effects.full - (big_n - 1) * sum(
            e * (u / n - c / big_n)
            for e, u, c in zip(rank_effects, family.unseen(step), shoe, strict=True))

    at_zero = model(0)
    slope = model(1) - at_zero
    if slope == 0.0:
        return None
    index = -at_zero / slope * family.true_count(1)
    return index if abs(index) <= TRUE_COUNT_RANGE else None


def _root(
    decision: Decision, points: tuple[tuple[float, float], ...], rules: BlackjackRules
) -> CountIndex:
    """The zero crossing of the interpolated EV difference nearest to true count 0."""
    from scipy.optimize import brentq  # type: ignore[import-untyped, unused-ignore]

    crossings = [(a, b) for a, b in itertools.pairwise(points)
                 if (a[1] < 0) != (b[1] < 0) or a[1] == 0]
    if not crossings:
        better = decision.actions[0] if points and points[0][1] > 0 else decision.actions[1]
        span = f"{points[0][0]:+.1f} to {points[-1][0]:+.1f}" if points else "no count"
        return CountIndex(decision, None, None, points, f"{better} at every true count"
                          f" from {span}")
    (t0, d0), (t1, d1) = min(crossings, key=lambda ab: min(abs(ab[0][0]), abs(ab[1][0])))

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
    family: CountFamily
    rows: tuple[CountIndex, ...]
    risk_averse: str = ""
    """How the rows' risk-averse indices were made (:func:`risk_averse_index`: the ramp
    and bankroll), or empty when they were not."""


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
    its risk-averse index too (:func:`risk_averse_index`).

    Raises ``ValueError`` for an unknown count system.
    """
    system = find_count(count)
    family = CountFamily(rules.decks, system)
    rows = []
    for done, decision in enumerate(decisions, start=1):
        row = count_index(rules, decision, system, linear)
        if risk_averse is not None:
            row = with_risk_averse(rules, family, row, *risk_averse)
        rows.append(row)
        progress_tick(progress, done, len(decisions))
    how = f"bet ramp and bankroll of {risk_averse[1]:g} units" if risk_averse else ""
    return IndexTable(rules, system, family, tuple(rows), how)


def with_risk_averse(rules: BlackjackRules, family: CountFamily, row: CountIndex, bet: BetAt,
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
    family: CountFamily
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
    :class:`CountFamily` and with its removal-based estimate (:func:`linear_index`);
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
    system = find_count(count)
    family = CountFamily(rules.decks, system)
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
