"""The option groups of ``count`` (:mod:`strategy_calc.cli.count`): the systems, the deal,
the method, the table, the ramp and wonging, each checked before the run."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import OptionGroup
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.counting.counter import Spread, Wong
    from strategy_calc.counting.ramp_constraints import RampConstraints
    from strategy_calc.counting.ramps import RampLimits
    from strategy_calc.counting.risks import RiskQuestions
    from strategy_calc.counting.stratified import Sizes


class CountRuleset(opt.ShoeRuleset):
    """A blackjack ruleset for ``count`` (a baccarat one makes it ``baccarat count``)."""

    rules: Annotated[str | None, typer.Option(
        "--rules", metavar="NAME|FILE", help="Blackjack ruleset: macau-1983 (the default) or"
        " deluxe, or a TOML ruleset file; a baccarat ruleset (macau-baccarat) makes this"
        " baccarat count.")] = None


class Systems(OptionGroup):
    """``--system`` or ``--compare``: the count systems run."""

    system: Annotated[str | None, typer.Option(
        "--system", metavar="NAME|FILE", help="A count system (strategy-calc counts lists"
        " them) or a TOML count file (default hilo); an unbalanced one (ko, red7) bets and"
        " wongs by its running count from its IRC.")] = None
    compare: Annotated[str | None, typer.Option(
        "--compare", metavar="NAME,NAME,...", help="Several systems on the same seeded shoes"
        " (paired), a SCORE table.")] = None

    def compared(self) -> list[str] | None:
        """The systems of ``--compare A,B,...``: two or more, each once (None without it)."""
        if self.compare is None:
            return None
        if self.system is not None:
            raise InputError("give --system or --compare, not both")
        names = [x.strip() for x in self.compare.split(",") if x.strip()]
        if len(names) < 2 or len({n.lower() for n in names}) != len(names):
            raise InputError("--compare takes two or more different systems, e.g."
                             " hilo,zen,halves")
        return names


class Deal(OptionGroup):
    """How the shoes are dealt: the cut card, the rounds, the seed, the moments."""

    penetration: Annotated[float | None, typer.Option(
        "--penetration", metavar="P",
        help="Share of the shoe dealt before the cut card, instead of the ruleset's"
        " cut_card_from_end (where it states none: 0.75, less for 1 deck so that 20 cards"
        " stay behind).")] = None
    cut_card: Annotated[int | None, typer.Option(
        "--cut-card", metavar="CARDS_FROM_END", help="Cards behind the cut card (instead of"
        " the ruleset's cut_card_from_end or --penetration).")] = None
    rounds_: Annotated[int | None, typer.Option(
        "--rounds", metavar="N", help="Rounds to deal at least, in whole shoes (default"
        " 1000; --method stratified: the rounds surveyed, default 200000).")] = None
    seed: opt.SeedOpt = 1
    moment_every: Annotated[int | None, typer.Option(
        "--moment-every", metavar="K",
        help="Exact second moment on one round in N (default 25; 1 = every"
        " round, slow: split rounds are enumerated jointly).")] = None

    @property
    def rounds(self) -> int:
        """``--rounds``, or the direct method's default (1000)."""
        return self.rounds_ if self.rounds_ is not None else 1000

    @property
    def every(self) -> int:
        """One round in how many has its exact second moment."""
        from strategy_calc.counting.counter import MOMENT_EVERY

        return self.moment_every if self.moment_every is not None else MOMENT_EVERY


class Table(OptionGroup):
    """The boxes at the table and the player's."""

    seats: Annotated[int | None, typer.Option(
        "--seats", metavar="N", help="Boxes at the table, 1-7 (default 1): the player's is"
        " dealt and plays first, the others play the same way and their cards are seen.")
    ] = None
    boxes: Annotated[int | None, typer.Option(
        "--boxes", metavar="N", help="The player's boxes, 1-7 (default 1): each bets the"
        " round's bet; EV and variance per round are the boxes' total's, with the exact"
        " covariance between boxes.")] = None
    box_ramp: Annotated[str | None, typer.Option(
        "--box-ramp", metavar="TC:BOXES,...", help='Boxes by floored count, e.g. "2:2" (two'
        " boxes from true count +2; below the lowest step, --boxes).")] = None

    @property
    def counts(self) -> tuple[int, int]:
        """The boxes at the table and the player's (1 each unless given)."""
        return self.seats or 1, self.boxes or 1

    def steps(self) -> tuple[tuple[int, int], ...]:
        """``--box-ramp``'s steps (none without it)."""
        from strategy_calc.counting.counter import parse_box_ramp

        return parse_box_ramp(self.box_ramp) if self.box_ramp is not None else ()


class Ramp(OptionGroup):
    """The bet ramp, the bankroll, and ``--optimize-ramp`` with its limits."""

    spread: Annotated[str | None, typer.Option(
        "--spread", metavar="TC:UNITS,...", help='Bet ramp by floored true count, e.g.'
        ' "1:1,2:2,3:4,4:8".')] = None
    bankroll: Annotated[float | None, typer.Option(
        "--bankroll", metavar="B",
        help="Bankroll in units, for the risk of ruin and --optimize-ramp.")
    ] = None
    optimize_ramp: Annotated[bool, typer.Option(
        "--optimize-ramp", help="Also the bet ramp that maximises SCORE within --min-bet and"
        " --max-bet (needs --bankroll).")] = False
    min_bet: Annotated[float | None, typer.Option(
        "--min-bet", metavar="M", help="Smallest bet in units (the table's minimum), for"
        " --optimize-ramp.")] = None
    max_bet: Annotated[float | None, typer.Option(
        "--max-bet", metavar="M", help="Largest bet in units (the table's maximum), for"
        " --optimize-ramp.")] = None
    bet_unit: Annotated[float | None, typer.Option(
        "--bet-unit", metavar="U", help="--optimize-ramp under a chip unit: every bet a"
        " multiple of U units (within --min-bet and --max-bet); also gives the SCORE the"
        " constraint costs.")] = None
    max_spread: Annotated[float | None, typer.Option(
        "--max-spread", metavar="K", help="--optimize-ramp under a spread cap: the largest"
        " bet at most K times the smallest.")] = None
    max_bet_levels: Annotated[int | None, typer.Option(
        "--max-bet-levels", metavar="N", help="--optimize-ramp under a cover limit: at most"
        " N bet sizes, each on a run of consecutive counts (at most N-1 bet changes as the"
        " count rises).")] = None
    kelly_fraction: Annotated[float | None, typer.Option(
        "--kelly-fraction", metavar="F",
        help="--optimize-ramp: bet this fraction of the Kelly bet for"
        " --bankroll at each count, clipped to the limits (instead of the SCORE optimum).")
    ] = None
    max_ror: Annotated[float | None, typer.Option(
        "--max-ror", metavar="R",
        help="--optimize-ramp: the highest win rate whose risk of ruin for"
        " --bankroll is at most this (at most --kelly-fraction's bets when given).")] = None
    rounds_per_hour: Annotated[float | None, typer.Option(
        "--rounds-per-hour", metavar="N",
        help="Rounds dealt an hour: --optimize-ramp's hours to double the bankroll"
        " (default 100), --trip-hours, and --confidence's hours.")] = None
    trip_rounds: Annotated[float | None, typer.Option(
        "--trip-rounds", metavar="N", help="The ramp's risk of losing --bankroll within a"
        " trip of N rounds (diffusion approximation).")] = None
    trip_hours: Annotated[float | None, typer.Option(
        "--trip-hours", metavar="H", help="The trip in hours, with --rounds-per-hour"
        " (instead of --trip-rounds).")] = None
    goal: Annotated[float | None, typer.Option(
        "--goal", metavar="G", help="The chance the ramp wins G units before losing"
        " --bankroll.")] = None
    target_ror: Annotated[float | None, typer.Option(
        "--target-ror", metavar="R", help="The bankroll (units) whose lifetime risk of ruin"
        " is R for the ramp.")] = None
    confidence: Annotated[float | None, typer.Option(
        "--confidence", metavar="C", help="The rounds (and, with --rounds-per-hour, hours)"
        " after which the ramp is ahead with probability C (0.5 < C < 1).")] = None

    def questions(self, ramped: bool) -> RiskQuestions | None:
        """The risk questions asked (None: none), checked before the run: each needs a
        bet ramp (``ramped``: --spread or wonging), the trip and the goal a bankroll."""
        from strategy_calc.counting.risks import RiskQuestions

        asked = RiskQuestions(self.trip_rounds, self.trip_hours, self.goal, self.target_ror,
                              self.confidence, self.rounds_per_hour)
        if not asked.asked:
            return None
        flag = next(f for f, v in (("--trip-rounds", self.trip_rounds),
                                   ("--trip-hours", self.trip_hours), ("--goal", self.goal),
                                   ("--target-ror", self.target_ror),
                                   ("--confidence", self.confidence)) if v is not None)
        if not ramped:
            raise InputError(f"{flag} asks about a bet ramp's risk: add --spread (or"
                             " --enter/--exit)")
        if asked.need_bankroll is not None and self.bankroll is None:
            raise InputError(f"{asked.need_bankroll} needs --bankroll (units)")
        if self.bankroll is not None and not (math.isfinite(self.bankroll)
                                              and self.bankroll > 0):
            raise InputError(f"--bankroll must be a positive number of units, not"
                             f" {self.bankroll:g}")
        return asked

    def ramp(self) -> Spread | None:
        """``--spread``'s ramp (None without it)."""
        from strategy_calc.counting.counter import parse_spread

        return parse_spread(self.spread) if self.spread is not None else None

    def constraints(self, limits: RampLimits | None) -> RampConstraints | None:
        """``--optimize-ramp``'s constraints (None: none given), checked before the run:
        each needs --optimize-ramp (``limits``), not --max-ror (a spread cap under
        --kelly-fraction a unit), and a chip unit some bet within the limits is a
        multiple of."""
        from strategy_calc.counting.ramp_constraints import RampConstraints, bet_sizes

        given = [(f, v) for f, v in (("--bet-unit", self.bet_unit),
                                     ("--max-spread", self.max_spread),
                                     ("--max-bet-levels", self.max_bet_levels))
                 if v is not None]
        if not given:
            return None
        if limits is None:
            raise InputError(f"{given[0][0]} is an --optimize-ramp option: add"
                             " --optimize-ramp")
        constraints = RampConstraints(self.bet_unit, self.max_spread, self.max_bet_levels)
        if limits.criterion == "max-ror":
            raise InputError(f"{given[0][0]} constrains the SCORE-optimal or the Kelly ramp:"
                             " not with --max-ror")
        if (limits.criterion == "kelly" and constraints.max_spread is not None
                and constraints.bet_unit is None):
            raise InputError("--max-spread with --kelly-fraction needs --bet-unit (the Kelly"
                             " ramp under a spread cap is searched over its smallest bet)")
        if constraints.bet_unit is not None:
            bet_sizes(limits, constraints.bet_unit)
        return constraints

    def limits(self, wonging: bool) -> RampLimits | None:
        """``--optimize-ramp``'s limits: it needs --bankroll, --min-bet and --max-bet, and
        its other flags need it (None without it); not with ``wonging``."""
        from strategy_calc.counting.ramps import ROUNDS_PER_HOUR, RampLimits

        hourly = self.trip_hours is not None or self.confidence is not None
        optional = (("--kelly-fraction", self.kelly_fraction), ("--max-ror", self.max_ror),
                    ("--rounds-per-hour", None if hourly else self.rounds_per_hour))
        if not self.optimize_ramp:
            for flag, value in (("--min-bet", self.min_bet), ("--max-bet", self.max_bet),
                                *optional):
                if value is not None:
                    also = (" (or of --trip-hours and --confidence)"
                            if flag == "--rounds-per-hour" else "")
                    raise InputError(f"{flag} is an --optimize-ramp option{also}: add"
                                     " --optimize-ramp")
            return None
        if wonging:
            raise InputError("--optimize-ramp is for a counter betting every round: not"
                             " with --enter or --exit")
        if self.bankroll is None or self.min_bet is None or self.max_bet is None:
            flag = ("--bankroll" if self.bankroll is None else
                    "--min-bet" if self.min_bet is None else "--max-bet")
            raise InputError(f"--optimize-ramp needs {flag} (units)")
        per_hour = self.rounds_per_hour
        return RampLimits(self.bankroll, self.min_bet, self.max_bet, self.kelly_fraction,
                          self.max_ror, per_hour if per_hour is not None else ROUNDS_PER_HOUR)


class Wonging(OptionGroup):
    """``--enter TC --exit TC``: play only at good counts."""

    enter: Annotated[float | None, typer.Option(
        "--enter", metavar="TC", help="Wonging: start playing at this true count or above"
        " (with --exit).")] = None
    exit_: Annotated[float | None, typer.Option(
        "--exit", metavar="TC", help="Wonging: stop playing when the true count falls below"
        " this (with --enter).")] = None
    optimize_wong: Annotated[bool, typer.Option(
        "--optimize-wong", help="Also the whole entry and exit counts whose wonging"
        " maximises SCORE on the run's rounds (the --spread ramp, or flat bets, on the rounds"
        " played), against playing every round (and --enter/--exit).")] = False

    def wong(self) -> Wong | None:
        """Both or neither."""
        from strategy_calc.counting.counter import Wong

        if (self.enter is None) != (self.exit_ is None):
            raise InputError("wonging needs both --enter TC and --exit TC")
        if self.enter is None or self.exit_ is None:
            return None
        return Wong(self.enter, self.exit_)


class Method(OptionGroup):
    """``--method``: how the figures are estimated; the stratified method's sizes and aim."""

    method: Annotated[str | None, typer.Option(
        "--method", metavar="direct|stratified", help="direct: every round dealt valued"
        " exactly (the default); stratified: a survey of many rounds dealt by the chart and"
        " exact values of a stratified sample of them, far more precise for the time"
        " (docs/MODEL.md 'Two-phase estimation'; the chart and its index plays, one box,"
        " exact decks).")] = None
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="P", help="Run until SCORE's standard error is at most P"
        " times SCORE (e.g. 0.01), growing the survey and the samples; implies --method"
        " stratified and needs --spread.")] = None
    exact_rounds: Annotated[int | None, typer.Option(
        "--exact-rounds", metavar="N", help="--method stratified: rounds whose EV is computed"
        " exactly (default 2000; with --precision, the first step, default 600).")] = None
    moment_rounds: Annotated[int | None, typer.Option(
        "--moment-rounds", metavar="N", help="--method stratified: rounds whose second"
        " moment is computed exactly (default 400; with --precision, the first step, default"
        " 120).")
    ] = None
    max_minutes: Annotated[float | None, typer.Option(
        "--max-minutes", metavar="M", help="--precision: stop after M minutes even if the"
        " aim is not reached (default 10).")] = None

    @property
    def stratified(self) -> bool:
        """Whether the run is two-phase (``--method stratified``, or ``--precision``)."""
        if self.method not in (None, "direct", "stratified"):
            raise InputError(f"--method is direct or stratified, not {self.method!r}")
        if self.precision is not None and self.method == "direct":
            raise InputError("--precision is reached by --method stratified: drop --method"
                             " direct")
        return self.method == "stratified" or self.precision is not None

    def sizes(self, rounds: int | None) -> Sizes:
        """The stratified run's sizes (checked; its options refused under the direct one).

        >>> Method(method="stratified").sizes(5000)
        Sizes(surveyed=5000, exact=2000, moments=400)
        >>> Method(precision=0.01).sizes(None)  # (a first step: the run grows it)
        Sizes(surveyed=200000, exact=600, moments=120)
        """
        from strategy_calc.counting.stratified import Sizes

        if self.max_minutes is not None and self.precision is None:
            raise InputError("--max-minutes bounds a --precision run: add --precision")
        if not self.stratified:
            for flag, value in (("--exact-rounds", self.exact_rounds),
                                ("--moment-rounds", self.moment_rounds)):
                if value is not None:
                    raise InputError(f"{flag} is a --method stratified option")
        if self.precision is not None and not (math.isfinite(self.precision)
                                               and 0 < self.precision < 1):
            raise InputError(f"--precision is a share of SCORE between 0 and 1 (e.g. 0.01),"
                             f" not {self.precision:g}")
        if self.max_minutes is not None and not (math.isfinite(self.max_minutes)
                                                 and self.max_minutes > 0):
            raise InputError(f"--max-minutes must be positive, not {self.max_minutes:g}")
        first = self.precision is not None  # (then a first step: the run grows it)
        exact = (600 if first else 2000) if self.exact_rounds is None else self.exact_rounds
        moments = (120 if first else 400) if self.moment_rounds is None else self.moment_rounds
        for flag, value in (("--exact-rounds", exact), ("--moment-rounds", moments)):
            if value < 4:
                raise InputError(f"{flag} must be at least 4 (a pilot and a sample), not"
                                 f" {value}")
        survey = 200_000 if rounds is None else rounds
        if survey < 4:
            raise InputError(f"--rounds must be at least 4 for --method stratified, not"
                             f" {survey}")
        return Sizes(survey, exact, moments)

    @property
    def budget(self) -> float | None:
        """Seconds a ``--precision`` run may take (None without it)."""
        if self.precision is None:
            return None
        return 60.0 * (self.max_minutes if self.max_minutes is not None else 10.0)
