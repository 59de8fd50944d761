"""Checks of ``count --method stratified`` (issue 48 item 1): its standard errors by
replication over seeds, and its agreement with the direct method.

    python tools/check_stratified.py replicate --seeds 1-16 --sizes 20000,400,80 \
        [--uncontrolled] --jobs 2 --out rep.jsonl
    python tools/check_stratified.py agree --seed 1 --rounds 4000 --more 100000 \
        --sizes 400,80 --jobs 2 --out agree.jsonl
    python tools/check_stratified.py summary rep.jsonl

``replicate``: one two-phase run per seed (deluxe, 2 decks by default); for win, sd, ev
and score the SD of the estimates over the seeds against the root mean square of the
reported SEs (their ratio should be 1 within about 1/sqrt(2(K-1))).
``agree``: a direct run of ``--rounds`` rounds and two-phase runs of the same shoes
(controlled and not) and of ``--more`` rounds; each difference over its joint SE.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from strategy_calc.counting.counter import blackjack_counter, parse_spread
from strategy_calc.counting.runs import blackjack_count
from strategy_calc.counting.stratified import Sizes, TwoPhase, two_phase_count
from strategy_calc.parallel import executor
from strategy_calc.rules.files import blackjack_rules


def _seeds(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def _row(r: TwoPhase) -> dict[str, object]:
    return {"win": r.win.value, "win_se": r.win.se, "sd": r.sd, "sd_se": r.sd_se,
            "ev": r.ev.value, "ev_se": r.ev.se, "score": r.score, "score_se": r.score_se,
            "score_se_survey": r.score_se_survey, "score_se_sample": r.score_se_sample,
            "score_se_exact": r.score_se_exact, "score_se_moments": r.score_se_moments,
            "surveyed": r.sizes.surveyed, "exact": r.sizes.exact, "moments": r.sizes.moments,
            "shoes": r.shoes, "controlled": r.controlled, "seconds": r.seconds}


def _emit(out: str | None, row: dict[str, object]) -> None:
    line = json.dumps(row)
    print(line, flush=True)
    if out:
        with open(out, "a") as f:
            f.write(line + "\n")


def replicate(args: argparse.Namespace) -> None:
    rules = blackjack_rules(args.rules, [f"decks={args.decks}"])
    spread = parse_spread(args.spread)
    sizes = Sizes(*(int(x) for x in args.sizes.split(",")))
    with executor(jobs=args.jobs) as pool:
        for seed in _seeds(args.seeds):
            counter = blackjack_counter(rules, seed=seed)
            began = time.monotonic()
            r = two_phase_count(counter, spread, sizes, pool=pool,
                                controlled=not args.uncontrolled)
            row = {"kind": "replicate", "seed": seed, **_row(r),
                   "wall": time.monotonic() - began}
            _emit(args.out, row)


def agree(args: argparse.Namespace) -> None:
    rules = blackjack_rules(args.rules, [f"decks={args.decks}"])
    spread = parse_spread(args.spread)
    exact, moments = (int(x) for x in args.sizes.split(","))
    with executor(jobs=args.jobs) as pool:
        counter = blackjack_counter(rules, seed=args.seed)
        began = time.monotonic()
        d = blackjack_count(counter, args.rounds, spread, pool=pool)
        assert d.win_rate_per_round is not None
        _emit(args.out, {"kind": "direct", "seed": args.seed, "rounds": d.rounds,
                         "shoes": d.shoes, "win": d.win_rate_per_round.value,
                         "win_se": d.win_rate_per_round.se, "sd": d.sd_per_round,
                         "sd_se": d.sd_per_round_se, "ev": d.ev_per_round.value,
                         "ev_se": d.ev_per_round.se, "score": d.score, "score_se": d.score_se,
                         "moments": d.moment_rounds, "wall": time.monotonic() - began})
        for label, surveyed, controlled in (("same", d.rounds, False),
                                            ("same", d.rounds, True),
                                            ("more", args.more, True)):
            if not surveyed:
                continue
            counter = blackjack_counter(rules, seed=args.seed)
            began = time.monotonic()
            r = two_phase_count(counter, spread, Sizes(surveyed, exact, moments), pool=pool,
                                controlled=controlled)
            _emit(args.out, {"kind": label, "seed": args.seed, **_row(r),
                             "wall": time.monotonic() - began})


def controls(args: argparse.Namespace) -> None:
    """The shoes' controls averaged over ``--shoes`` shuffles against their exact means."""
    from strategy_calc.counting.controls import shoe_controls
    rules = blackjack_rules(args.rules, [f"decks={args.decks}"])
    spread = parse_spread(args.spread)
    counter = blackjack_counter(rules, seed=args.seed)
    ctl = shoe_controls(counter, spread)
    assert ctl is not None
    began = time.monotonic()
    exact = ctl.means()
    x = np.array([s.controls for s in counter.survey(range(args.shoes), controls=ctl)])
    mean, se = x.mean(axis=0), x.std(axis=0, ddof=1) / math.sqrt(len(x))
    _emit(args.out, {"kind": "controls", "seed": args.seed, "shoes": args.shoes,
                     "last": ctl.last, "exact": exact.tolist(), "mean": mean.tolist(),
                     "se": se.tolist(), "z": ((mean - exact) / se).tolist(),
                     "wall": time.monotonic() - began})


def sample(args: argparse.Namespace) -> None:
    """The sample's part alone: the same survey (seed ``--seed``, ``--rounds`` rounds,
    uncontrolled) valued ``--reps`` times with different sample draws; each run's
    estimates and its sample-part variances (what ``two_phase_count`` adds to the
    survey's), to set the SD of the estimates against."""
    from strategy_calc.counting import stratified as st
    rules = blackjack_rules(args.rules, [f"decks={args.decks}"])
    spread = parse_spread(args.spread)
    exact, moments = (int(x) for x in args.sizes.split(","))
    with executor(jobs=args.jobs) as pool:
        for rep in range(args.reps):
            counter = blackjack_counter(rules, seed=args.seed)
            began = time.monotonic()
            run = st._Run(counter, spread, pool, None, False)
            run.rng = np.random.default_rng([args.seed, 0x2FA5E, 1 + rep])
            run.survey(args.rounds)
            cap = max(2, run.pop.size // 3)
            pilot = run.pilot("ev", min(st.PILOT, cap, max(2, exact // 2)))
            moment_pilot = run.pilot("m2", min(st.MOMENT_PILOT, cap, max(2, moments // 2)))
            run.sample("ev", max(0, exact - pilot))
            run.sample("m2", max(0, moments - moment_pilot))
            r = st._estimate(run, None)
            pop, sid = run.pop, run.pop.strata()
            var_ev = st._terms(pop, "ev", np.ones(pop.size), sid)[1]
            var_win = st._terms(pop, "ev", pop.bet, sid)[1]
            _emit(args.out, {"kind": "sample", "seed": args.seed, "rep": rep, **_row(r),
                             "win_se_sample": math.sqrt(var_win),
                             "ev_se_sample": math.sqrt(var_ev),
                             "wall": time.monotonic() - began})


def summary(args: argparse.Namespace) -> None:
    with open(args.file) as f:
        rows = [json.loads(line) for line in f]
    reps = [r for r in rows if r["kind"] == "replicate"]
    for controlled in (True, False):
        group = [r for r in reps if r["controlled"] is controlled]
        k = len(group)
        if k < 2:
            continue
        print(f"controlled={controlled}: K={k} runs, mean wall "
              f"{np.mean([r['wall'] for r in group]):.1f} s, "
              f"ratio's own sampling SD ~ {1 / math.sqrt(2 * (k - 1)):.2f}")
        print(f"{'figure':6} {'mean':>10} {'SD(est)':>10} {'RMS(SE)':>10} {'ratio':>6}")
        for key in ("win", "sd", "ev", "score"):
            est = np.array([r[key] for r in group], float)
            se = np.array([r[key + "_se"] for r in group], float)
            sd = float(np.std(est, ddof=1))
            rms = float(np.sqrt(np.mean(se * se)))
            print(f"{key:6} {est.mean():10.5g} {sd:10.4g} {rms:10.4g} {sd / rms:6.2f}")
    fixed = [r for r in rows if r["kind"] == "sample"]
    if len(fixed) >= 2:
        k = len(fixed)
        print(f"fixed survey (seed {fixed[0]['seed']}, {fixed[0]['surveyed']} rounds), K={k}"
              f" sample draws: SD of the estimates against the RMS of the sample part of"
              f" the SE (ratio's own SD ~ {1 / math.sqrt(2 * (k - 1)):.2f})")
        for key in ("win", "ev", "score"):
            est = np.array([r[key] for r in fixed], float)
            se = np.array([r[key + "_se_sample"] for r in fixed], float)
            sd, rms = float(np.std(est, ddof=1)), float(np.sqrt(np.mean(se * se)))
            print(f"  {key:6} mean {est.mean():.5g}  SD {sd:.3g}  RMS(SE) {rms:.3g}  ratio"
                  f" {sd / rms:.2f}")
    direct = [r for r in rows if r["kind"] == "direct"]
    for d in direct:
        print(f"direct seed {d['seed']}: {d['rounds']} rounds, {d['shoes']} shoes, "
              f"{d['wall']:.0f} s")
        for r in (r for r in rows if r["kind"] in ("same", "more") and r["seed"] == d["seed"]):
            print(f"  vs {r['kind']} controlled={r['controlled']} ({r['surveyed']} rounds, "
                  f"{r['shoes']} shoes, {r['exact']} EVs, {r['moments']} moments, "
                  f"{r['wall']:.0f} s; SCORE's SE from the survey {r['score_se_survey']:.3g}, "
                  f"from the sample {r['score_se_sample']:.3g}):")
            for key in ("win", "sd", "ev", "score"):
                diff = r[key] - d[key]
                joint = math.hypot(r[key + "_se"], d[key + "_se"])
                print(f"    {key:6} direct {d[key]:.5g} +- {d[key + '_se']:.3g}  two-phase "
                      f"{r[key]:.5g} +- {r[key + '_se']:.3g}  diff/joint {diff / joint:+.2f}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("replicate", "agree"):
        q = sub.add_parser(name)
        q.add_argument("--rules", default="deluxe")
        q.add_argument("--decks", type=int, default=2)
        q.add_argument("--spread", default="0:1,1:2,2:4,3:8")
        q.add_argument("--jobs", type=int, default=2)
        q.add_argument("--out")
    rep = sub.choices["replicate"]
    rep.add_argument("--seeds", default="1-16")
    rep.add_argument("--sizes", default="20000,400,80")
    rep.add_argument("--uncontrolled", action="store_true")
    ag = sub.choices["agree"]
    ag.add_argument("--seed", type=int, default=1)
    ag.add_argument("--rounds", type=int, default=4000)
    ag.add_argument("--more", type=int, default=100_000)
    ag.add_argument("--sizes", default="400,80", help="exact EVs, second moments")
    c = sub.add_parser("controls")
    c.add_argument("--rules", default="deluxe")
    c.add_argument("--decks", type=int, default=2)
    c.add_argument("--spread", default="0:1,1:2,2:4,3:8")
    c.add_argument("--seed", type=int, default=101)
    c.add_argument("--shoes", type=int, default=20000)
    c.add_argument("--out")
    sm = sub.add_parser("sample")
    sm.add_argument("--rules", default="deluxe")
    sm.add_argument("--decks", type=int, default=2)
    sm.add_argument("--spread", default="0:1,1:2,2:4,3:8")
    sm.add_argument("--jobs", type=int, default=2)
    sm.add_argument("--seed", type=int, default=1)
    sm.add_argument("--rounds", type=int, default=4013)
    sm.add_argument("--sizes", default="400,80", help="exact EVs, second moments")
    sm.add_argument("--reps", type=int, default=10)
    sm.add_argument("--out")
    s = sub.add_parser("summary")
    s.add_argument("file")
    args = p.parse_args(argv)
    {"replicate": replicate, "agree": agree, "controls": controls, "sample": sample,
     "summary": summary}[args.cmd](args)


if __name__ == "__main__":
    main(sys.argv[1:])
