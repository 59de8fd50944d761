"""``count --method stratified``: a counted run's figures from a cheap survey of many rounds
and exact values of a stratified sample of them (two-phase sampling, docs/MODEL.md
"Two-phase estimation").

Phase 1 deals shoes exactly as the direct method does (the same shuffles, procedure and
plays: :meth:`strategy_calc.counting.counter.BlackjackCounter.survey_one`) without valuing
their rounds, keeping for each round its bet count and the cards unseen. Phase 2 values
exactly a sample of those rounds, drawn without replacement within strata (survey block
by bet), and a predictor fitted on a pilot sample carries the rest:

    W = (1/N) [ sum over known rounds of b y + sum over the others of b (f(x) + e_h) ]

with ``y`` a round's exact EV, ``f(x)`` the predictor's value from the cards unseen,
``e_h`` the mean residual ``y - f`` of the sample of the round's stratum. Given the
survey, the sample's expectation is the direct estimate over every surveyed round (each
stratum's mean residual is unbiased for its population's), so the method estimates what
the direct method does, only with far fewer exact rounds. E[X^2] (the SD) is estimated
the same way from its own sample with its own predictor.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

from strategy_calc.counting.controls import ratio_se, regression_estimate, shoe_controls
from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
from strategy_calc.counting.dealing import SurveyedShoe
from strategy_calc.counting.ramps import score as score_of
from strategy_calc.counting.runs import rounds_per_shoe
from strategy_calc.counting.sampling import Estimate, batches
from strategy_calc.errors import InputError
from strategy_calc.parallel import run_all

Progress = Callable[[str, int, int], None] | None
"""``progress(stage, done, total)`` of a long run, or None."""

PILOT = 300
"""Rounds whose exact EV fits the EV predictor (at most a third of the first survey)."""

MOMENT_PILOT = 60
"""Rounds whose exact second moment fits the E[X^2] predictor."""

FIRST_SURVEY = 20_000
"""Rounds surveyed before the pilot under ``--precision`` (fewer if ``--rounds`` says)."""

ORDERS = ("pilot-ev", "pilot-m2", "ev", "m2")
"""The streams of :func:`priorities`: each pilot's and each sample's order."""

GROWTH = 4.0
"""Under ``--precision``, a step grows each part at most this many times."""


def priorities(seed: int, stream: int, shoe: np.ndarray, rnd: np.ndarray) -> np.ndarray:
    """Per surveyed round (``shoe``: its shoe's index in the run, ``rnd``: its place in the
    shoe), a uniform number in [0, 1) that depends on nothing else (SplitMix64 of the run's
    ``seed``, the ``stream``, the shoe and the place): the order in which a sample takes a
    stratum's rounds. The ``k`` smallest of a stratum's rounds not yet taken are a
    simple random sample of them (the numbers are independent of which rounds are in the
    stratum), and the systems of ``--compare``, whose surveys deal the same rounds, give
    each round the same number, so their samples share most of their rounds (and their
    exact values, :class:`SharedValues`).

    >>> u = priorities(1, 0, np.array([0, 0, 7]), np.array([0, 1, 0]))
    >>> bool(((0 <= u) & (u < 1)).all()), len(set(u.tolist()))
    (True, 3)
    >>> bool((priorities(1, 0, np.array([7]), np.array([0])) == u[2]).all())
    True
    """
    head = ((seed * 0x9E3779B97F4A7C15) ^ (stream << 56)) & 0xFFFFFFFFFFFFFFFF
    x: np.ndarray = (shoe.astype(np.uint64) << np.uint64(20)) | rnd.astype(np.uint64)
    x = x ^ np.uint64(head)
    for _ in range(2):  # (two rounds of SplitMix64's mix; uint64 products wrap mod 2^64)
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
    out: np.ndarray = (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    return out


class SharedValues:
    """Exact values of rounds by their unseen cards, kept across the runs of one
    ``--compare`` (its systems' rounds are the same cards under the same chart, so a
    round's exact EV and second moment do not depend on the system)."""

    def __init__(self) -> None:
        self.values: dict[str, dict[bytes, float]] = {"ev": {}, "m2": {}}


@dataclass(frozen=True, slots=True)
class Sizes:
    """How much a run does: rounds surveyed, exact EVs sampled, second moments sampled."""

    surveyed: int
    exact: int
    moments: int


@dataclass(frozen=True, slots=True)
class TwoPhase:
    """The figures of a two-phase run and what they rest on (``count --json``'s
    ``"stratified"``). Money per round in units of the ramp (1 unit flat)."""

    win: Estimate
    """The ramp's win per round."""
    sd: float
    sd_se: float
    score: float | None
    score_se: float | None
    ev: Estimate
    """Flat bets: the EV per round."""
    by_count: tuple[tuple[int, float, float], ...]
    """(floored count, share of rounds, mean EV) per count."""
    sizes: Sizes
    pilot: int
    moment_pilot: int
    residual_sd: float
    """SD of a sampled round's EV about the predictor (units per unit bet)."""
    moment_residual_sd: float
    score_se_survey: float | None
    """The part of :attr:`score_se` from which rounds the survey dealt."""
    score_se_sample: float | None
    """The part from which of them had their values computed: the EVs' and the second
    moments' parts, below, in quadrature."""
    score_se_exact: float | None
    score_se_moments: float | None
    precision: float | None
    """The aim (``--precision``: SE of SCORE over SCORE), or None."""
    seconds: float
    shoes: int
    controlled: bool = False
    """Whether the survey's figures were adjusted by the shoes' control variates
    (:mod:`strategy_calc.counting.controls`)."""
    values_reused: int = 0
    """Exact values (EVs and second moments) of sampled rounds that were not computed
    again: a round with the unseen cards of one already valued (an earlier system's of
    the same ``--compare``, or this run's own: every shoe's first round is one)."""


def features(states: np.ndarray, start: Sequence[int]) -> np.ndarray:
    """The predictor's regressors of rounds whose unseen cards are the rows of ``states``
    (ten rank counts each, ace first), for a run whose shoes start from ``start``: 1, the
    shares of A..9 less the full shoe's, 1/cards, and the products of the ace, ten and
    small-card (2-6) surpluses (the curvature of EV in the count).

    >>> features(np.array([[4, 4, 4, 4, 4, 4, 4, 4, 4, 16]]), [4] * 9 + [16]).round(6).tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.019231, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
    """
    counts = states.astype(float)
    n = counts.sum(axis=1)
    base = np.asarray(start, float)
    d = counts / n[:, None] - base / base.sum()
    ace, ten, low = d[:, 0], d[:, 9], d[:, 1:6].sum(axis=1)
    return np.column_stack([np.ones(len(n)), d[:, :9], 1.0 / n, ace * ace, ten * ten,
                            ace * ten, low * low, low * ace, low * ten])


LINEAR = 11
"""The first regressors of :func:`features` (1, nine shares, 1/cards): the E[X^2]
predictor's when its pilot is small."""


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of ``y`` on ``x`` (the minimum-norm solution when there
    are fewer rows than columns: any fixed predictor keeps the estimator unbiased)."""
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    return np.asarray(beta)


class _Population:
    """The surveyed rounds, in survey order: per round its shoe, survey block, bet,
    floored count and unseen cards; and, per round, each sample's state (``kind``: 0
    not valued, 1 in its pilot, 2 in its sample) and value (NaN where not valued)."""

    def __init__(self, counter: BlackjackCounter, spread: Spread | None,
                 wong: Wong | None = None) -> None:
        self.spread = spread
        self.wong = wong
        self.played = 0  # (rounds wonging plays: all of them without it)
        self.seed = counter.seed
        self.start = counter.start().counts
        self.shoes = 0
        self.blocks = 0
        self.shoe = np.zeros(0, dtype=np.int64)
        self.block = np.zeros(0, dtype=np.int64)
        self.bet = np.zeros(0)
        self.key = np.zeros(0, dtype=np.int64)
        self.states = np.zeros((0, 10), dtype=np.uint16)
        self.play_keys = np.zeros(0)
        """Per round, the count its index plays read (0 without plays)."""
        self.plays = counter.plays
        self.order = {s: np.zeros(0) for s in ORDERS}
        """Per round, its :func:`priorities` for each pilot and each sample (independent
        streams: the EV and E[X^2] samples are drawn independently, as the standard
        error's parts in quadrature assume)."""
        self.controls: list[tuple[float, ...]] = []
        """Per shoe, its controls (:mod:`strategy_calc.counting.controls`; empty without)."""
        self.kind = {s: np.zeros(0, dtype=np.int8) for s in ("ev", "m2")}
        self.value = {s: np.zeros(0) for s in ("ev", "m2")}
        self.pred = {s: np.zeros(0) for s in ("ev", "m2")}

    @property
    def size(self) -> int:
        """Rounds surveyed."""
        return len(self.bet)

    def add(self, shoes: Sequence[SurveyedShoe]) -> None:
        """A new survey block of ``shoes`` (their rounds after those already held)."""
        keys = np.floor(np.concatenate([np.frombuffer(s.keys, dtype=float) for s in shoes]))
        per = np.array([len(s.keys) for s in shoes])
        grow = len(keys)
        self.shoe = np.concatenate(
            [self.shoe, np.repeat(np.arange(self.shoes, self.shoes + len(shoes)), per)])
        self.block = np.concatenate([self.block, np.full(grow, self.blocks)])
        self.key = np.concatenate([self.key, keys.astype(np.int64)])
        bets = _bets(self.spread, self.key[-grow:]) if grow else np.zeros(0)
        if self.wong is not None:  # (a watched round bets 0: the wong's own state per shoe)
            bets = bets * np.array([in_play for s in shoes for in_play in
                                    self.wong.playing(s.keys.tolist())], dtype=float)
        self.played += int(np.count_nonzero(bets))
        self.bet = np.concatenate([self.bet, bets])
        self.states = np.concatenate([self.states, np.concatenate(
            [np.frombuffer(s.states, dtype=np.uint16) for s in shoes]).reshape(-1, 10)])
        self.play_keys = np.concatenate([self.play_keys, *(
            np.zeros(len(s.keys)) if s.play_keys is None
            else np.frombuffer(s.play_keys, dtype=float) for s in shoes)])
        index = np.repeat(np.array([s.index for s in shoes], dtype=np.int64), per)
        place = np.arange(grow) - np.repeat(np.cumsum(per) - per, per)
        for stream, name in enumerate(ORDERS):
            self.order[name] = np.concatenate([self.order[name],
                                               priorities(self.seed, stream, index, place)])
        self.controls.extend(s.controls for s in shoes)
        self.shoes += len(shoes)
        self.blocks += 1
        for sample in ("ev", "m2"):
            self.kind[sample] = np.concatenate([self.kind[sample], np.zeros(grow, np.int8)])
            self.value[sample] = np.concatenate([self.value[sample], np.full(grow, np.nan)])

    def regressors(self, rows: np.ndarray | slice) -> np.ndarray:
        """The predictor's regressors of ``rows``: :func:`features` of their unseen cards
        and, with index plays, two more: how many plays of positive index their count
        takes, and how many of index 0 or below it does not (a play's gain starts at its
        index; cross-validated at 2 decks with Hi-Lo's plays, the EV's residual SD 0.0030
        -> 0.0026)."""
        x = features(self.states[rows], self.start)
        if not self.plays:
            return x
        index = np.array([p.index for p in self.plays])
        tc = self.play_keys[rows][:, None]
        positive = ((tc >= index) & (index > 0)).sum(axis=1)
        negative = ((tc < index) & (index <= 0)).sum(axis=1)
        return np.column_stack([x, positive, negative])

    def value_key(self, i: int) -> bytes:
        """What round ``i``'s exact values depend on: its unseen cards and, with index
        plays, what each play does at its count (the key of :class:`SharedValues`)."""
        key: bytes = self.states[i].tobytes()
        if self.plays:  # (each play and what it takes: another system's plays differ)
            tc = float(self.play_keys[i])
            key += repr([(p.up, p.total, p.pair, p.play(tc)) for p in self.plays]).encode()
        return key

    def strata(self) -> np.ndarray:
        """Each round's stratum (0, 1, ...): its survey block and its bet."""
        levels = np.unique(self.bet, return_inverse=True)[1]
        return np.unique(self.block * (levels.max() + 1) + levels, return_inverse=True)[1]


class _Run:
    """One two-phase run in progress: the survey, the pilots' predictors, the samples."""

    def __init__(self, counter: BlackjackCounter, spread: Spread | None,
                 pool: Executor | None, progress: Progress, controlled: bool,
                 shared: SharedValues | None = None, wong: Wong | None = None) -> None:
        self.counter, self.pool, self.progress = counter, pool, progress
        self.shared = shared if shared is not None else SharedValues()
        self.reused = 0  # (sampled rounds whose values were known: :attr:`TwoPhase.values_reused`)
        self.controls = shoe_controls(counter, spread) if controlled else None
        self.control_means = None if self.controls is None else self.controls.means()
        self.job = functools.partial(counter.survey, controls=self.controls)
        self.pop = _Population(counter, spread, wong)
        self.began = time.monotonic()
        self.clock = {"survey": 0.0, "ev": 0.0, "m2": 0.0}
        self.counted = {"survey": 0, "ev": 0, "m2": 0}
        self.coef: dict[str, np.ndarray] = {}
        self.per_shoe = rounds_per_shoe(counter)  # (a guess; the survey learns its own)

    def _tick(self, stage: str) -> Callable[[int, int], None] | None:
        progress = self.progress
        if progress is None:
            return None
        return lambda done, total: progress(stage, done, total)

    def survey(self, rounds: int) -> None:
        """Survey the fewest further whole shoes holding at least ``rounds`` rounds."""
        pop = self.pop
        dealt: list[SurveyedShoe] = []
        began = time.monotonic()
        have = 0
        while have < rounds:
            need = max(1, math.ceil((rounds - have) / self.per_shoe))
            first = pop.shoes + len(dealt)
            parts = [range(first + p.start, first + p.stop) for p in batches(need, 50)]
            got = ([self.job(p) for p in parts] if self.pool is None
                   else run_all(self.pool, self.job, parts, self._tick("survey")))
            dealt.extend(s for part in got for s in part)
            have = sum(len(s.keys) for s in dealt)
            self.per_shoe = max(1.0, have / len(dealt))
        while len(dealt) > 1 and have - len(dealt[-1].keys) >= rounds:
            have -= len(dealt.pop().keys)  # the fewest first whole shoes (as the direct run)
        before = pop.size
        pop.add(dealt)
        for sample, coef in self.coef.items():
            pop.pred[sample] = np.concatenate([pop.pred[sample][:before],
                                               _predicted(pop, coef, before)])
        self.clock["survey"] += time.monotonic() - began
        self.counted["survey"] += have

    def value(self, sample: str, indices: np.ndarray, kind: int) -> None:
        """Value the rounds ``indices`` exactly (``sample`` ``ev``: their EVs; ``m2``: their
        second moments) and mark them ``kind`` (1 pilot, 2 sample)."""
        if not len(indices):
            return
        pop, moments = self.pop, sample == "m2"
        known = self.shared.values[sample]
        keys = [pop.value_key(i) for i in indices.tolist()]
        missing = {k: i for k, i in zip(keys, indices.tolist(), strict=True) if k not in known}
        new = sorted(missing.items(), key=lambda item: item[1])
        self.reused += len(keys) - len(new)
        items = [(tuple(int(c) for c in pop.states[i]), moments, float(pop.play_keys[i]))
                 for _key, i in new]
        size = max(4, math.ceil(len(items) / 16))  # (a worker's copy of the run costs a plan)
        parts = [items[p.start:p.stop] for p in batches(len(items), size)]
        began = time.monotonic()
        got = ([self.counter.exact_rounds(p) for p in parts] if self.pool is None
               else run_all(self.pool, self.counter.exact_rounds, parts, self._tick(sample)))
        for (key, _i), (ev, m2) in zip(new, (v for part in got for v in part), strict=True):
            if moments and m2 is None:
                raise InputError("a sampled round has no exact second moment (resplits from a"
                                 " shoe too short to be exact): use --method direct")
            known[key] = m2 if moments and m2 is not None else ev
        values = [known[k] for k in keys]
        pop.value[sample][indices] = values
        pop.kind[sample][indices] = kind
        self.clock[sample] += time.monotonic() - began
        self.counted[sample] += len(indices)

    def pilot(self, sample: str, k: int) -> int:
        """Value ``k`` rounds drawn with probability proportional to the bet (``ev``) or
        its square (``m2``) and fit ``sample``'s predictor to them; how many there were.

        Which rounds the pilot holds changes no expectation (they are known rounds, and
        the predictor is fixed before the sample is drawn), only how well it predicts."""
        pop = self.pop
        weight = pop.bet if sample == "ev" else pop.bet * pop.bet
        k = min(k, pop.size)
        safe = np.where(weight > 0, weight, 1.0)  # (a round wonging watches: never first)
        key = np.where(weight > 0, pop.order[f"pilot-{sample}"] ** (1.0 / safe), -1.0)
        chosen = np.sort(np.argsort(-key)[:k])
        self.value(sample, chosen, 1)  # (weighted draws without replacement: Efraimidis-Spirakis)
        x = pop.regressors(chosen)
        cols = x.shape[1] if sample == "ev" or k >= 4 * x.shape[1] else LINEAR
        coef = fit(x[:, :cols], pop.value[sample][chosen])
        self.coef[sample] = coef
        pop.pred[sample] = _predicted(pop, coef, 0)
        return k

    def sample(self, sample: str, target: int) -> None:
        """Grow ``sample`` towards ``target`` rounds, within strata (:meth:`_Population.strata`)
        in proportion to each one's rounds times its bet (``ev``; its square: ``m2``) times
        its residual SD in the sample so far (Neyman's allocation; before the sample has
        residuals, the SDs taken equal: rounds times bet), at least two a stratum (all of
        a smaller one); each stratum's added rounds are those not yet valued with the
        smallest :func:`priorities`, so that its sample stays a simple random sample of its
        rounds."""
        pop = self.pop
        sid, kind = pop.strata(), pop.kind[sample]
        m = int(sid.max()) + 1
        open_ = kind != 1
        size = np.bincount(sid[open_], minlength=m)
        have = np.bincount(sid[kind == 2], minlength=m)
        weight = np.bincount(sid, weights=pop.bet if sample == "ev" else pop.bet ** 2,
                             minlength=m) / np.maximum(np.bincount(sid, minlength=m), 1)
        sd = np.sqrt(_residual_stats(sid, kind, pop.value[sample] - pop.pred[sample], m)[0])
        if target >= size.sum():
            aim = size
        else:
            need = size * weight * np.maximum(sd, 1e-12)
            aim = np.maximum(np.minimum(2, size),
                             np.minimum(size, np.rint(target * need / need.sum()).astype(int)))
        chosen = []
        for s in np.flatnonzero(aim > have).tolist():
            free = np.flatnonzero((sid == s) & (kind == 0))
            take = int(aim[s] - have[s])
            chosen.append(free[np.argsort(pop.order[sample][free], kind="stable")[:take]])
        if chosen:
            self.value(sample, np.sort(np.concatenate(chosen)), 2)


def _bets(spread: Spread | None, keys: np.ndarray) -> np.ndarray:
    """The ramp's bet at each floored count of ``keys`` (1 unit flat without one), the
    ramp read once per count that occurs."""
    if spread is None:
        return np.ones(len(keys))
    counts, where = np.unique(keys, return_inverse=True)
    return np.array([spread.bet(c) for c in counts.tolist()], dtype=float)[where]


def _predicted(pop: _Population, coef: np.ndarray, start: int) -> np.ndarray:
    """The predictor ``coef`` at the rounds from ``start`` on (regressors made a million
    rounds at a time)."""
    out = np.empty(pop.size - start)
    step = 1 << 20
    for a in range(start, pop.size, step):
        x = pop.regressors(slice(a, a + step))
        out[a - start:a - start + len(x)] = x[:, :len(coef)] @ coef
    return out


def _residual_stats(sid: np.ndarray, kind: np.ndarray, resid: np.ndarray, m: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Per stratum, over its sampled rounds (``kind`` 2): the variance of the residuals
    (the pooled one where a stratum has fewer than three), their mean and their number;
    and the pooled variance."""
    got = kind == 2
    s, r = sid[got], resid[got]
    n = np.bincount(s, minlength=m)
    pooled = float(np.var(r, ddof=1)) if len(r) >= 2 else 0.0
    total = np.bincount(s, weights=r, minlength=m)
    mean = np.divide(total, n, out=np.zeros(m), where=n > 0)
    sq = np.bincount(s, weights=(r - mean[s]) ** 2, minlength=m)
    var = np.where(n >= 3, np.divide(sq, np.maximum(n - 1, 1)), pooled)
    return var, mean, n, pooled


def _terms(pop: _Population, sample: str, weight: np.ndarray, sid: np.ndarray
           ) -> tuple[np.ndarray, float, float]:
    """Each round's weighted value in ``sample``'s estimate: ``weight`` times its exact value
    where valued, else ``weight`` times the predictor plus its stratum's mean of ``weight``
    times the sampled rounds' residuals; the sampling variance given the survey of their
    sum over N; and the residuals' pooled SD (unweighted).

    Within a stratum the sample is a simple random sample of its N_h rounds outside the
    pilot, so the mean of ``weight * (y - f)`` over it is unbiased for theirs, whatever the
    weights (a ramp other than the strata's: :func:`_estimate`'s ``bets``). Var = sum over
    strata of (N_h / N)^2 (1 - n_h / N_h) s_h^2 / n_h, s_h^2 the variance of ``weight *
    (y - f)`` over the stratum's n_h sampled rounds (where fewer than three: its mean
    weight squared times the pooled variance of the residuals)."""
    kind, value, pred = pop.kind[sample], pop.value[sample], pop.pred[sample]
    m = int(sid.max()) + 1
    resid = value - pred
    pooled = _residual_stats(sid, kind, resid, m)[3]
    var_w, mean, n_h, _pooled_w = _residual_stats(sid, kind, weight * resid, m)
    size = np.bincount(sid[kind != 1], minlength=m)
    if np.any((size > 0) & (n_h == 0)):
        raise AssertionError("a stratum without a sampled round")
    w_mean = np.bincount(sid, weights=weight, minlength=m) / np.maximum(
        np.bincount(sid, minlength=m), 1)
    s2 = np.where(n_h >= 3, var_w, w_mean ** 2 * pooled)
    some = n_h > 0
    var = float(np.sum(((size / pop.size) ** 2 * (1.0 - n_h / np.maximum(size, 1)) * s2
                        / np.maximum(n_h, 1))[some]))
    z = weight * pred + mean[sid]
    valued = kind > 0
    z[valued] = (weight * value)[valued]
    return z, var, math.sqrt(pooled)


def _estimate(run: _Run, precision: float | None, bets: np.ndarray | None = None
              ) -> TwoPhase:
    """The figures of the rounds surveyed so far and the samples valued (module doc), for
    the ramp's bets (or ``bets``, one a round: another ramp on the same rounds and
    samples): the survey's part of each standard error from the shoes (a ratio over
    independent shoes, by the delta method), the sample's part from the strata, added
    (the sample is drawn given the survey)."""
    pop = run.pop
    sid, n = pop.strata(), pop.size
    bet = pop.bet if bets is None else bets
    z, var_ev, resid_sd = _terms(pop, "ev", np.ones(n), sid)
    zw, var_win, _sd = _terms(pop, "ev", bet, sid)
    qw, var_q, m_resid_sd = _terms(pop, "m2", bet * bet, sid)
    k = pop.shoes
    rounds = np.bincount(pop.shoe, minlength=k).astype(float)
    x = np.array(pop.controls) if run.controls is not None else None
    mean_x = run.control_means
    ev_value, ev_resid = regression_estimate(np.bincount(pop.shoe, weights=z, minlength=k),
                                             rounds, x, mean_x)
    w, win_resid = regression_estimate(np.bincount(pop.shoe, weights=zw, minlength=k),
                                       rounds, x, mean_x)
    m2, q_resid = regression_estimate(np.bincount(pop.shoe, weights=qw, minlength=k),
                                      rounds, x, mean_x)
    variance = m2 - w * w
    if not variance > 0:
        raise InputError("the ramp's estimated variance is not positive: survey more rounds")
    sd = math.sqrt(variance)
    mean_n = float(rounds.mean())
    dev_w, dev_q = (win_resid - win_resid.mean()) / mean_n, (q_resid - q_resid.mean()) / mean_n

    def clustered(a: float, b: float) -> float:  # Var of a w + b m2 from the shoes
        psi = a * dev_w + b * dev_q
        return float((psi * psi).sum() / (k * (k - 1))) if k > 1 else math.nan

    sd_se = math.sqrt(clustered(-w / sd, 0.5 / sd) + (w / sd) ** 2 * var_win
                      + (0.5 / sd) ** 2 * var_q)
    value = score_of(w, sd)
    se = se1 = se2 = se_e = se_m = None
    if value is not None:  # SCORE = 10^6 w^2 / (m2 - w^2): its partial derivatives
        s_w, s_q = 2e6 * w * m2 / variance ** 2, -1e6 * w * w / variance ** 2
        v1, v_e, v_m = clustered(s_w, s_q), s_w * s_w * var_win, s_q * s_q * var_q
        se, se1, se2 = math.sqrt(v1 + v_e + v_m), math.sqrt(v1), math.sqrt(v_e + v_m)
        se_e, se_m = math.sqrt(v_e), math.sqrt(v_m)
    keys, where = np.unique(pop.key, return_inverse=True)
    share = np.bincount(where) / n
    mean_ev = np.bincount(where, weights=z) / np.bincount(where)
    table = tuple((int(t), float(f), float(e))
                  for t, f, e in zip(keys.tolist(), share.tolist(), mean_ev.tolist(), strict=True))
    kinds = pop.kind
    return TwoPhase(
        win=Estimate(w, math.sqrt(ratio_se(win_resid, rounds) ** 2 + var_win)), sd=sd,
        sd_se=sd_se, score=value, score_se=se,
        ev=Estimate(ev_value, math.sqrt(ratio_se(ev_resid, rounds) ** 2 + var_ev)), by_count=table,
        sizes=Sizes(n, int(np.count_nonzero(kinds["ev"])), int(np.count_nonzero(kinds["m2"]))),
        pilot=int(np.count_nonzero(kinds["ev"] == 1)),
        moment_pilot=int(np.count_nonzero(kinds["m2"] == 1)), residual_sd=resid_sd,
        moment_residual_sd=m_resid_sd, score_se_survey=se1, score_se_sample=se2,
        score_se_exact=se_e, score_se_moments=se_m,
        precision=precision, seconds=time.monotonic() - run.began, shoes=k,
        controlled=run.controls is not None, values_reused=run.reused)


def two_phase_count(counter: BlackjackCounter, spread: Spread | None, sizes: Sizes,
                    precision: float | None = None, budget: float | None = None,
                    pool: Executor | None = None, progress: Progress = None,
                    controlled: bool = True) -> TwoPhase:
    """The run's figures by two-phase sampling (:func:`_two_phase`)."""
    return _two_phase(counter, spread, sizes, precision, budget, pool, progress,
                      controlled)[0]


def _two_phase(counter: BlackjackCounter, spread: Spread | None, sizes: Sizes,
               precision: float | None = None, budget: float | None = None,
               pool: Executor | None = None, progress: Progress = None,
               controlled: bool = True, shared: SharedValues | None = None,
               wong: Wong | None = None) -> tuple[TwoPhase, _Run]:
    """The run's figures by two-phase sampling: a survey of ``sizes.surveyed`` rounds
    (whole shoes, shoe ``i`` the direct run's shoe ``i``), ``sizes.exact`` exact EVs and
    ``sizes.moments`` exact second moments among them (pilots included). With
    ``precision``: grown step by step until SCORE's standard error is at most that share
    of SCORE, or ``budget`` seconds have gone (``sizes`` is then the first step).
    ``shared``: exact values already known (another system's run of one ``--compare``).
    ``wong``: a watched round bets 0 (the rounds are dealt alike: :class:`Wong`)."""
    counter.check_surveyable()
    counter.check_dealable()
    if precision is not None and spread is None and wong is None:
        raise InputError("--precision aims at the ramp's SCORE: add --spread")
    run = _Run(counter, spread, pool, progress, controlled, shared, wong)
    run.survey(max(1, sizes.surveyed if precision is None
                   else min(sizes.surveyed, FIRST_SURVEY)))
    if run.pop.size < 4:
        raise InputError(f"the survey dealt {run.pop.size} rounds: too few to sample (raise"
                         " --rounds)")
    cap = max(2, run.pop.size // 3)
    pilot = run.pilot("ev", min(PILOT, cap, max(2, sizes.exact // 2)))
    moment_pilot = run.pilot("m2", min(MOMENT_PILOT, cap, max(2, sizes.moments // 2)))
    want = Sizes(run.pop.size, max(0, sizes.exact - pilot), max(0, sizes.moments - moment_pilot))
    while True:
        run.sample("ev", want.exact)
        run.sample("m2", want.moments)
        result = _estimate(run, precision)
        if precision is None:
            return result, run
        spent = time.monotonic() - run.began
        if progress is not None and result.score and result.score_se is not None:
            progress("precision", min(round(1e4 * precision * result.score),
                                      round(1e4 * result.score_se)), round(1e4 * result.score_se))
        if (result.score is not None and result.score_se is not None
                and result.score_se <= precision * result.score) or (
                budget is not None and spent >= budget):
            return result, run
        if result.score is None:
            raise InputError("the ramp does not win on the rounds surveyed, so SCORE has no"
                             " precision to reach: check the ramp, or give --rounds")
        want = _next_sizes(run, result, precision, budget, spent)
        if want.surveyed > run.pop.size:
            run.survey(want.surveyed - run.pop.size)


def _next_sizes(run: _Run, result: TwoPhase, precision: float, budget: float | None,
                spent: float) -> Sizes:
    """The next step towards ``precision``: each part's variance of SCORE taken as
    inversely proportional to its size (the survey's a/N, the EVs' b/n, the second
    moments' c/m) at its cost per round measured so far, the
    cheapest sizes reaching the aim (each proportional to the square root of its variance
    constant over its cost), grown at most :data:`GROWTH`-fold a step, within the budget."""
    assert result.score is not None and result.score_se_survey is not None
    assert result.score_se_exact is not None and result.score_se_moments is not None
    aim = (precision * result.score) ** 2
    now = [run.pop.size, int(np.count_nonzero(run.pop.kind["ev"] == 2)),
           int(np.count_nonzero(run.pop.kind["m2"] == 2))]
    parts = [result.score_se_survey ** 2 * now[0], result.score_se_exact ** 2 * max(now[1], 1),
             result.score_se_moments ** 2 * max(now[2], 1)]
    costs = [run.clock[s] / max(run.counted[s], 1) for s in ("survey", "ev", "m2")]
    k = sum(math.sqrt(p * c) for p, c in zip(parts, costs, strict=True)) / aim
    sizes = [max(cur, min(GROWTH * max(cur, 1), math.sqrt(p / max(c, 1e-9)) * k))
             for p, c, cur in zip(parts, costs, now, strict=True)]
    if budget is not None:
        cost = sum((s - cur) * c for s, cur, c in zip(sizes, now, costs, strict=True))
        left = budget - spent
        if cost > left > 0:
            sizes = [cur + (s - cur) * left / cost for s, cur in zip(sizes, now, strict=True)]
    return Sizes(math.ceil(sizes[0]), math.ceil(sizes[1]), math.ceil(sizes[2]))


SECONDS_PER = {"survey": 8e-6, "ev": 0.016, "m2": 0.25}
"""CPU seconds a surveyed round (dealt by the engine, its shoe's controls included), an
exact EV and an exact second moment take at six decks (measured here, 2026-12-07): what
:func:`estimated_seconds` adds up."""


def estimated_seconds(sizes: Sizes, workers: int) -> float:
    """About how long a two-phase run of ``sizes`` takes on ``workers`` workers, seconds.

    >>> round(estimated_seconds(Sizes(200_000, 2000, 400), 2))
    67
    """
    cpu = (sizes.surveyed * SECONDS_PER["survey"] + sizes.exact * SECONDS_PER["ev"]
           + sizes.moments * SECONDS_PER["m2"])
    return cpu / max(1, workers)
