"""The project's jobs: ``bench`` and ``tables``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import dump_json, fail, guarded, progress_bar

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "tables", "strategy-calc tables", "strategy-calc tables --check")
def tables_command(
    *,
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", help="Directory to write.")] = Path("tables"),
    check: Annotated[
        bool, typer.Option("--check", help="Only compare with the files there; exit 1 if stale.")
    ] = False,
) -> None:
    """Regenerate the charts of every built-in blackjack ruleset (markdown, HTML, PDF)."""
    from strategy_calc.jobs.tables import generate, generate_pdfs, pdf_names

    if check and not out.is_dir():
        raise fail(f"no {out} folder to check: run from the repository root or pass --out DIR")
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file, not a folder")
    if not check and not out.exists() and not out.parent.is_dir():
        raise fail(f"--out {out}: its parent folder {out.parent} does not exist")
    with progress_bar("generating tables") as tick:
        files = generate(tick)
    stale = [name for name, text in files.items()
             if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != text]
    stale += [name for name in pdf_names() if check and not (out / name).is_file()]
    if check:
        if stale:
            print(f"error: stale tables (run strategy-calc tables): {', '.join(stale)}",
                  file=sys.stderr)
            raise typer.Exit(1)
        print(f"{len(files)} text and HTML tables up to date in {out}; its"
              f" {len(pdf_names())} PDFs are present (checked to exist, not compared:"
              " typesetting them again takes seconds each)")
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    try:
        with progress_bar("typesetting PDFs") as tick:
            pdfs = generate_pdfs(tick)
    except ValueError as exc:  # no weasyprint: the text tables are still written
        print(f"warning: PDFs not written: {exc}", file=sys.stderr)
        pdfs = {}
    for name, data in pdfs.items():
        (out / name).write_bytes(data)
    print(f"wrote {len(files) + len(pdfs)} files to {out} ({len(stale)} text files changed)")


@command(commands, "bench",
         "strategy-calc bench --only game-8d --repeat 9", "strategy-calc bench --json")
def bench_command(
    *,
    repeat: Annotated[int, typer.Option(
        "--repeat", metavar="N", help="Timed runs per workload.")] = 7,
    only: Annotated[list[str] | None, typer.Option(
        "--only", metavar="NAME", help="Time only this workload (repeatable), e.g. game-8d.")
    ] = None,
    output: opt.Output,
) -> None:
    """Time the standard workloads: median, min and max wall time of several runs.

    Workload names are stable (game-8d, game-1d, all-hands-8d, splits-8d,
    process-edge, ...); `--json` prints {"workloads": {NAME: {"median_ms": ...,
    "min_ms": ..., "max_ms": ..., "peak_mib": ...}}}. Each workload runs in a process of
    its own; resplit-optimal-6d and resplit-optimal-6d-22 (2,2 vs T, within 4,096 MiB)
    run only when named with --only.
    """
    as_json = output.json
    from strategy_calc.jobs import bench as bench_module

    total = len(set(only)) if only else len(bench_module.names(default=True))
    if sys.stderr.isatty() and repeat >= 1:
        expected = bench_module.expected_seconds(repeat, only or ())
        print(f"timing {total} workloads, {repeat} runs each: about"
              f" {max(1, round(expected / 60))} minutes here", file=sys.stderr)
    done = 0
    with progress_bar("timing the workloads") as tick:
        def note(_name: str) -> None:
            nonlocal done
            tick(done, total)
            done += 1

        timings = guarded(lambda: bench_module.run(repeat, only or (), note))
    if as_json:
        print(dump_json(bench_module.as_json(timings)))
    else:
        print(bench_module.as_text(timings))
