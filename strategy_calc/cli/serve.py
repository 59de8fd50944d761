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
    warning = web.bind_warning(host)
    if warning:
        print(warning, file=sys.stderr)
    import uvicorn

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"strategy-calc: serving on {url} (Ctrl-C to stop)", file=sys.stderr)
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(web.create_app(run_captured, declared), host=host, port=port,
                log_level="warning")


def declared(command: str) -> list[web.Parameter]:
    """The parameters of ``command`` (``hand``) as its declaration makes them (click's
    build of it): what the web API's query parameters pass on (the server takes them from
    here: web sits below the command line and declares no flag of its own)."""
    return [web.Parameter(p.name or "", tuple(p.opts) if p.param_type_name == "option" else (),
                      bool(p.multiple), bool(getattr(p, "is_flag", False)))
            for p in click_command(command).params]
