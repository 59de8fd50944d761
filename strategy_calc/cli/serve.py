"""The local web page: ``serve``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from strategy_calc.cli.command import command
from strategy_calc.cli.respond import fail
from strategy_calc.cli.root import click_command, run_captured
from strategy_calc.web import server as web

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "serve", "strategy-calc serve", "strategy-calc serve --port 8080 --open")
def serve_command(
    *,
    host: Annotated[str, typer.Option(
        "--host", metavar="ADDRESS",
        help="Address to listen on (loopback by default; 0.0.0.0 makes the page"
        " reachable from the network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        "--port", metavar="PORT", help="TCP port (0: any free one).")] = 8000,
    open_: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")] = False,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", metavar="S",
        help="Refuse (HTTP 413) a request estimated to take longer, before it starts; a"
        " heavy one that has used twice this in CPU seconds is stopped.")] = 60.0,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", metavar="MB",
        help="Refuse (HTTP 413) a request estimated to need more memory (MiB); a heavy one"
        " that grows beyond it is stopped.")] = 1024.0,
    heavy_jobs: Annotated[int, typer.Option(
        "--heavy-jobs", metavar="N",
        help="Heavy requests (estimated over 10 s) run at once, each a process of its own;"
        " more are refused (HTTP 503) until one ends.")] = 1,
) -> None:
    """Serve the chart you can click, the hand calculator, the rules and their effects and
    baccarat on this machine (pip install 'strategy_calc[web]'), and /api/COMMAND: the JSON
    of hand, chart, edge, sweep, baccarat and rules, as their --json prints it."""
    import importlib.util

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec(
            "uvicorn") is None:
        raise fail("serve needs the web extra: pip install 'strategy_calc[web]'")
    if not 0 <= port <= 65535:
        raise fail(f"--port is 0 to 65535, not {port}")
    import math
    import os

    if not (math.isfinite(max_seconds) and max_seconds > 0):
        raise fail(f"--max-seconds is a number of seconds above 0, not {max_seconds}")
    if not (math.isfinite(max_memory) and max_memory > 0):
        raise fail(f"--max-memory is a number of MiB above 0, not {max_memory}")
    most = 4 * (os.cpu_count() or 1)
    if not 1 <= heavy_jobs <= most:
        raise fail(f"--heavy-jobs is 1 to {most} here (four per core), not {heavy_jobs}")
    budget = web.Budget(max_seconds, max_memory, heavy_jobs)
    warning = web.bind_warning(host)
    if warning:
        print(warning, file=sys.stderr)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"strategy-calc: serving on {url} (Ctrl-C to stop; a request over"
          f" {max_seconds:g} s or {max_memory:g} MiB is refused)", file=sys.stderr)
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    # Ctrl-C or SIGTERM: every worker killed at once, then uvicorn stops (web.uvicorn_server)
    web.uvicorn_server(web.create_app(run_captured, declared, budget), host, port).run()


def declared(command: str) -> list[web.Parameter]:
    """The parameters of ``command`` (``hand``) as its declaration makes them (click's
    build of it): what the web API's query parameters pass on (the server takes them from
    here: web sits below the command line and declares no flag of its own)."""
    return [web.Parameter(p.name or "", tuple(p.opts) if p.param_type_name == "option" else (),
                      bool(p.multiple), bool(getattr(p, "is_flag", False)))
            for p in click_command(command).params]
