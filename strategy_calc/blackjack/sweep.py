"""Rule-effects sweeps: the exact EV of many rule variants of one ruleset, in parallel.

- *grid*: every combination of the varied fields (their product), one row each;
- *effects*: the base game, then each single change from it, with its effect on
  the house edge in percentage points (as rule-effect tables print them);
- presets: named lists of changes (``macau-rules``: what each Macau 1983 rule
  costs or gives against a common 6-deck S17 DAS peek game).

Every variant is one whole-game analysis (:func:`strategy_calc.blackjack.game_analysis.strategy_ev`)
run on the execution layer (:mod:`strategy_calc.parallel`); a task carries the
ruleset's TOML table, not a file name, so it runs anywhere a worker has the
package. Results are deterministic: the same bits whatever the executor.

>>> variants = plan(parse_vary(["decks=1,2"]), "effects")
>>> [v.overrides for v in variants]
[(), ('decks=1',), ('decks=2',)]
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from strategy_calc.actions import Strategy
from strategy_calc.blackjack.game_analysis import strategy_ev
from strategy_calc.cards import Decks
from strategy_calc.parallel import run_all
from strategy_calc.rules import BlackjackRules, RulesError, build_rules, load_ruleset


class SweepMode(StrEnum):
    """How a sweep combines the varied fields (the value is ``sweep --mode``'s word).

    >>> SweepMode("grid") is SweepMode.GRID, SweepMode.EFFECTS == "effects"
    (True, True)
    """

    EFFECTS = "effects"
    """The base game, then each single change from it, with its effect on the house edge."""
    GRID = "grid"
    """Every combination of the varied fields (their product), one row each."""


MAX_VARIANTS = 10_000
"""A larger product needs ``--yes``."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One ruleset of a sweep: the base plus ``overrides`` (``FIELD=VALUE`` strings)."""

    overrides: tuple[str, ...]
    label: str = ""
    """A name for the change (a preset's rule), or empty."""


@dataclass(frozen=True, slots=True)
class Task:
    """One variant to evaluate, self-contained (picklable, runs on any worker)."""

    table: Mapping[str, Any]
    """The base ruleset's TOML table."""
    overrides: tuple[str, ...]
    strategy: str


@dataclass(frozen=True, slots=True)
class SweepRow:
    """One variant's result: EV per unit initial bet of a round off the top."""

    ruleset: str
    overrides: dict[str, str]
    ev: float
    label: str = ""
    effect: float | None = None
    """Change of the house edge from the base, in percentage points (None: the base)."""

    @property
    def house_edge(self) -> float:
        return -self.ev

    @property
    def rtp(self) -> float:
        return 1.0 + self.ev


@dataclass(frozen=True, slots=True)
class SweepResult:
    """A sweep's rows (the base first in effects mode), and for a preset its check."""

    base: str
    mode: SweepMode
    strategy: Strategy
    rows: tuple[SweepRow, ...]
    preset: str | None = None
    combined: SweepRow | None = None
    """Preset only: every change at once (its effect next to the sum of the single ones)."""
    target: SweepRow | None = None
    """Preset only: the exact ruleset the changes should reproduce."""
    notes: tuple[str, ...] = field(default=())
    decks: Decks = 0
    """The base ruleset's decks (``"inf"``: an infinite deck)."""
    name: str = ""
    """The base ruleset's name."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named sweep: a base built from a ruleset, and a list of labelled changes."""

    rules: str
    base: tuple[str, ...]
    changes: tuple[Variant, ...]
    target: str
    description: str


PRESETS: dict[str, Preset] = {
    "macau-rules": Preset(
        rules="macau-1983",
        base=("hole_card=peek", "double_on=any", "double_after_split=true", "surrender=none",
              "bonus_777=0", "bonus_suited_678=0"),
        changes=(
            Variant(("hole_card=enhc",), "no hole card, a dealer blackjack takes every bet"),
            Variant(("double_on=11",), "double on 11 only"),
            Variant(("double_after_split=false",), "no double after split"),
            Variant(("surrender=not_vs_ace",), "early surrender except against an ace"),
            Variant(("bonus_777=3",), "7-7-7 pays 3"),
            Variant(("bonus_suited_678=3",), "suited 6-7-8 pays 3"),
        ),
        target="macau-1983",
        description="what each Macau 1983 rule costs or gives against a common 6-deck S17"
                    " DAS peek game (3:2, double any two, split once)",
    ),
}
"""Built-in sweeps (``--preset NAME``)."""


def parse_vary(specs: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``FIELD=V1,V2,...`` specs to (field, values); fields and values checked later.

    >>> parse_vary(["decks=1,2", "surrender=none,late"])
    [('decks', ['1', '2']), ('surrender', ['none', 'late'])]
    """
    varies: list[tuple[str, list[str]]] = []
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.strip()
        items = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name or not items:
            raise RulesError(f"--vary needs FIELD=V1,V2,..., not {spec!r}")
        if name in (f for f, _v in varies):
            raise RulesError(f"--vary {name} is given twice: list every value in one --vary")
        varies.append((name, items))
    return varies


def plan(varies: Sequence[tuple[str, list[str]]], mode: SweepMode, yes: bool = False
         ) -> list[Variant]:
    """The variants of a sweep (effects: the base first, then each single change)."""
    if mode == "grid":
        count = 1
        for _field, values in varies:
            count *= len(values)
        if count > MAX_VARIANTS and not yes:
            raise RulesError(f"the grid has {count:,} variants (more than {MAX_VARIANTS:,}):"
                             " pass --yes to run it")
        return [Variant(tuple(f"{f}={v}" for (f, _vs), v in zip(varies, combo, strict=True)))
                for combo in itertools.product(*(values for _f, values in varies))]
    single = [Variant((f"{name}={value}",)) for name, values in varies for value in values]
    return [Variant(()), *single]


def evaluate(task: Task) -> dict[str, Any]:
    """One variant's EV (a worker's job): ``{"ruleset", "ev"}``."""
    rules = build_rules(BlackjackRules, task.table, task.overrides)
    return {"ruleset": str(rules), "ev": strategy_ev(rules, Strategy(task.strategy))}


def check_variants(table: Mapping[str, Any], variants: Sequence[Variant]) -> None:
    """Build every variant's rules once, so a bad field or value fails before any work."""
    for variant in variants:
        build_rules(BlackjackRules, table, variant.overrides)


def sweep(
    rules: str, base_overrides: Sequence[str], variants: Sequence[Variant], mode: SweepMode,
    strategy: Strategy, pool: Executor, cache: Path | None = None,
    progress: Callable[[int, int], None] | None = None, preset: str | None = None,
) -> SweepResult:
    """Evaluate ``variants`` of ``rules`` (plus ``base_overrides``) on ``pool``.

    ``cache``: a folder keeping one JSON result per ruleset and strategy, so
    that an interrupted sweep resumes where it stopped.
    """
    table = dict(load_ruleset(rules))
    base = build_rules(BlackjackRules, table, base_overrides)
    spec = PRESETS.get(preset) if preset else None
    check_variants(table, [Variant((*base_overrides, *v.overrides)) for v in variants])
    tasks = [Task(table, (*base_overrides, *v.overrides), strategy.value) for v in variants]
    every = Variant(tuple(o for v in variants for o in v.overrides), "every change at once")
    if spec is not None:
        tasks.append(Task(table, (*base_overrides, *every.overrides), strategy.value))
        tasks.append(Task(dict(load_ruleset(spec.target)), (), strategy.value))
    results = _cached_run(tasks, pool, cache, progress)
    rows = [_row(v, r) for v, r in zip(variants, results, strict=False)]
    if mode == "effects" and rows:
        base_edge = rows[0].house_edge
        rows = [rows[0], *(_with_effect(row, base_edge) for row in rows[1:])]
    combined = target = None
    if spec is not None:
        base_edge = rows[0].house_edge
        combined = _with_effect(_row(every, results[len(variants)]), base_edge)
        target = _with_effect(SweepRow(results[-1]["ruleset"], {}, results[-1]["ev"], spec.target),
                              base_edge)
    return SweepResult(str(base), mode, strategy, tuple(rows), preset, combined, target,
                       decks=base.decks, name=base.name)


def _row(variant: Variant, result: Mapping[str, Any]) -> SweepRow:
    overrides = dict(item.split("=", 1) for item in variant.overrides)
    return SweepRow(result["ruleset"], overrides, result["ev"], variant.label)


def _with_effect(row: SweepRow, base_edge: float) -> SweepRow:
    return SweepRow(row.ruleset, row.overrides, row.ev, row.label,
                    (row.house_edge - base_edge) * 100)


def _cache_file(cache: Path, task: Task) -> Path:
    key = json.dumps([sorted(task.table.items()), list(task.overrides), task.strategy],
                     sort_keys=True, default=str)
    return cache / (hashlib.sha256(key.encode()).hexdigest()[:24] + ".json")


def _cached_run(
    tasks: Sequence[Task], pool: Executor, cache: Path | None,
    progress: Callable[[int, int], None] | None,
) -> list[dict[str, Any]]:
    """Every task's result, reading and filling ``cache`` when given."""
    found: dict[int, dict[str, Any]] = {}
    if cache is not None:
        if cache.exists() and not cache.is_dir():
            raise RulesError(f"--cache {cache} is a file, not a folder")
        if not cache.is_dir() and not cache.parent.is_dir():
            raise RulesError(f"--cache {cache}: its parent folder {cache.parent} does not exist")
        cache.mkdir(exist_ok=True)  # the folder itself, in an existing parent
        for i, task in enumerate(tasks):
            path = _cache_file(cache, task)
            if path.is_file():
                found[i] = json.loads(path.read_text(encoding="utf-8"))
    todo = [i for i in range(len(tasks)) if i not in found]
    done_before = len(found)

    def tick(done: int, _total: int) -> None:
        if progress is not None:
            progress(done_before + done, len(tasks))

    fresh = run_all(pool, evaluate, [tasks[i] for i in todo], tick)
    for i, result in zip(todo, fresh, strict=True):
        found[i] = result
        if cache is not None:
            _cache_file(cache, tasks[i]).write_text(json.dumps(result), encoding="utf-8")
    return [found[i] for i in range(len(tasks))]


def preset_plan(name: str) -> tuple[Preset, list[Variant]]:
    """A preset and its variants (the base first, then each change)."""
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r}: one of {', '.join(PRESETS)}")
    spec = PRESETS[name]
    return spec, [Variant((), "common game"), *spec.changes]
