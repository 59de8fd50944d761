"""``strategy-calc serve``: a local web page over the command line, and its JSON API.

An ASGI app (Starlette, served by uvicorn; the ``web`` extra). Each API endpoint is one
CLI command: ``/api/hand?cards=T,6&vs=T&rules=deluxe&set=surrender=none`` runs
``strategy-calc hand T,6 --vs T --rules deluxe --set surrender=none --json`` and returns
exactly what it prints (a query parameter is the option's name, ``set`` and ``vary`` and
``removed`` repeatable, a flag ``true``: the options as the command line declares them,
handed over when the app is made; this module chooses only which of them each endpoint
exposes, which are required, and the limits); bad input is HTTP 400 with
``{"error": "the CLI's message"}``. Each request runs the command off the event loop, in a
pool of warm worker processes (:class:`Runner`; they keep their imports between requests),
and the answers are kept per query.

Before any command runs, its cost is estimated (:func:`estimate`: the model of
:mod:`strategy_calc.blackjack.cost`, the one the command line's "would take about ..."
warning prints). A request over the budget (:class:`Budget`: ``serve --max-seconds``,
``--max-memory``) is refused with 413 and JSON ``{"error", "estimate": {"seconds",
"memory_mib"}, "budget": {"seconds", "memory_mib"}}``. One estimated above
:data:`QUICK_SECONDS` is heavy: it runs in a process of its own (at most
``--heavy-jobs`` at once; another is refused with 503, the same JSON and a
``Retry-After``: heavy requests are not queued), apart from the quick pool, so a hand
query answers while the heavy ones run. A heavy job is stopped (its process and any it
started killed) when its client goes away, when it has used twice the time budget in CPU
seconds or grown beyond the memory budget (503), and when the server stops: every worker,
quick or heavy, ends with the server (and, on Linux, with its parent process if that is
killed).

What a request may ask is narrower than the command line: built-in rulesets only (no
file is read or written: no ``--rules FILE``, ``--out``, ``--cache``), at most
:data:`MAX_DECKS` decks (or an infinite deck, ``decks=inf``, where the command takes
one), sweeps of at most :data:`MAX_VARIANTS` variants, a query of at
most :data:`MAX_QUERY` characters.

>>> hand = [Parameter("cards"), Parameter("vs", ("--vs",)), Parameter("rules", ("--rules",)),
...         Parameter("set_", ("--set",), repeatable=True),
...         Parameter("as_json", ("--json",), is_flag=True), Parameter("format_", ("--format",))]
>>> api = Api({"hand": hand}.__getitem__,
...           {"hand": Endpoint("hand", ("cards", "rules", "set", "vs"), ("cards", "vs"))})
>>> api.argv("hand", [("cards", "T,6"), ("vs", "T"), ("set", "surrender=none"),
...                   ("set", "decks=6")])
['hand', 'T,6', '--set', 'surrender=none', '--set', 'decks=6', '--vs', 'T', '--json']
>>> api.argv("hand", [("cards", "T,6"), ("vs", "T"), ("rules", "/etc/passwd")])
Traceback (most recent call last):
...
strategy_calc.errors.InputError: rules: a built-in ruleset (macau-1983, deluxe, macau-baccarat)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from strategy_calc.errors import InputError
from strategy_calc.rules import RULESETS
from strategy_calc.web.runner import (
    PROCESSES,
    Budget,
    Command,
    Progress,
    Runner,
    estimate,
    refusal,
    variants_of,
)

if TYPE_CHECKING:
    from starlette.responses import Response

MAX_DECKS = 8
"""The most decks a request may ask for (``decks``, or a ``--set decks=N``)."""
INFINITE = "inf"
"""The decks of an infinite deck (``decks=inf``: every card drawn with replacement), taken
wherever the command line takes it."""
REAL_CARDS = ("baccarat",)
"""Endpoints whose command has no infinite deck: ``decks=inf`` is refused here in one
message (the command line's own would name its option). (``sidebet``'s command refuses
an infinite deck in its own words.)"""
MAX_VARIANTS = 64
"""The most rule variants one sweep request may ask for."""
MAX_QUERY = 2000
"""The longest query string accepted, characters."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a command as the command line declares it (handed over by the CLI:
    :func:`strategy_calc.cli.serve.declared`): its name, its option strings (none: a
    positional argument), whether it may be repeated, whether it is a flag.

    >>> Parameter("split_strategy", ("--split-strategy",)).query_name
    'split_strategy'
    """

    name: str
    flags: tuple[str, ...] = ()
    repeatable: bool = False
    is_flag: bool = False

    @property
    def query_name(self) -> str:
        """Its query parameter's name: the long option's, ``-`` as ``_``; an argument's own."""
        long = [flag for flag in self.flags if flag.startswith("--")]
        return long[0][2:].replace("-", "_") if long else self.name


Declared = Callable[[str], Sequence[Parameter]]
"""The parameters of a command (``hand``), as the command line declares them."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One API endpoint: its command, the query parameters it exposes (its command's
    parameters by query name, in the order its command line is written), those required."""

    command: str
    parameters: tuple[str, ...]
    required: tuple[str, ...] = ()


_COMMON = ("rules", "set", "decks")
ENDPOINTS: dict[str, Endpoint] = {
    "hand": Endpoint("hand", ("cards", *_COMMON, "vs", "shoe", "removed", "split_strategy",
                              "postsplit", "exact"), ("cards", "vs")),
    "chart": Endpoint("chart", (*_COMMON, "shoe", "split_strategy")),
    "edge": Endpoint("edge", (*_COMMON, "shoe", "split_strategy", "strategy")),
    "sweep": Endpoint("sweep", ("rules", "set", "vary", "preset", "mode", "strategy")),
    "baccarat": Endpoint("baccarat", (*_COMMON, "shoe", "removed", "exact", "eor")),
    "rules": Endpoint("rules", ("name", "set", "decks")),
    "sidebet": Endpoint("sidebet bet", ("name", *_COMMON, "removed", "paytable", "eor"),
                        ("name",)),
    "sidebets": Endpoint("sidebet", ("list",), ("list",)),
}
"""The API: ``/api/NAME`` for each (the CLI commands of the same names)."""

OUTPUT = ("json", "format")
"""The parameters that choose every endpoint command's output: ``json`` (the API's) and
``format`` (a download's)."""


DOWNLOADS = {"chart.pdf": ("chart", "pdf", "application/pdf"),
             "chart.csv": ("chart", "csv", "text/csv; charset=utf-8")}
"""``/download/NAME``: (endpoint, ``format``, content type) of the files the page offers."""


class Api:
    """The command lines of the API: each endpoint's query parameters, mapped to the
    options its command declares (``declared``); an endpoint naming a parameter its
    command lacks is refused here, when the app is made."""

    def __init__(self, declared: Declared, endpoints: Mapping[str, Endpoint] = ENDPOINTS
                 ) -> None:
        self.endpoints = dict(endpoints)
        self.parameters: dict[str, dict[str, Parameter]] = {}
        for name, endpoint in self.endpoints.items():
            known = {p.query_name: p for p in declared(endpoint.command)}
            wanted = (*endpoint.parameters, *OUTPUT)
            missing = [key for key in wanted if key not in known]
            if missing:
                raise ValueError(f"/api/{name}: {', '.join(missing)}: not a parameter of"
                                 f" {endpoint.command}")
            self.parameters[name] = {key: known[key] for key in wanted}

    def argv(self, name: str, query: Sequence[tuple[str, str]], output: str = "json"
             ) -> list[str]:
        """The command line (after ``strategy-calc``) that answers ``/api/NAME?query``, or
        :class:`~strategy_calc.errors.InputError` for anything the page may not ask.
        ``output``: ``json`` (the API), or the ``format`` of a download (``pdf``, ``csv``)."""
        endpoint = self.endpoints.get(name)
        if endpoint is None:
            raise InputError(f"no such endpoint /api/{name} (one of:"
                             f" {', '.join(self.endpoints)})")
        parameters = self.parameters[name]
        given: dict[str, list[str]] = {}
        for key, value in query:
            if key not in endpoint.parameters:
                raise InputError(f"unknown parameter {key!r} for /api/{name}"
                                 f" (known: {', '.join(sorted(endpoint.parameters)) or 'none'})")
            if key in given and not parameters[key].repeatable:
                raise InputError(f"parameter {key!r} given twice")
            given.setdefault(key, []).append(value)
        for key in endpoint.required:
            if key not in given:
                raise InputError(f"/api/{name} needs the parameter {key!r}")
        _check_limits(name, given)
        out = endpoint.command.split()
        keys = sorted(endpoint.parameters, key=lambda k: bool(parameters[k].flags))
        for key in keys:  # (the positional arguments first)
            out += _arguments(key, parameters[key], given.get(key, []))
        if output == "json":
            return [*out, parameters["json"].flags[0]]
        return [*out, parameters["format"].flags[0], output]


def _arguments(key: str, parameter: Parameter, values: list[str]) -> list[str]:
    """The arguments that pass ``values`` (a query parameter's) to ``parameter``."""
    if not parameter.flags:
        return values
    out: list[str] = []
    for value in values:
        if parameter.is_flag:
            if value.lower() not in ("true", "false", "1", "0", ""):
                raise InputError(f"{key} is true or false, not {value!r}")
            if value.lower() in ("true", "1", ""):
                out.append(parameter.flags[0])
        else:
            out += [parameter.flags[0], value]
    return out


def _check_limits(name: str, given: dict[str, list[str]]) -> None:
    """Refuse what could read a file or run for too long."""
    builtins = [r.name for r in RULESETS]
    names = given.get("name", []) if name == "rules" else []  # (a side bet's: its own check)
    for spec in given.get("rules", []) + names:
        if spec not in builtins:
            raise InputError(f"rules: a built-in ruleset ({', '.join(builtins)})")
    decks = list(given.get("decks", []))
    decks += [s.split("=", 1)[1] for s in given.get("set", []) if s.startswith("decks=")]
    decks += [d for s in given.get("vary", []) if s.startswith("decks=")
              for d in s.split("=", 1)[1].split(",")]
    for d in decks:
        if d.strip().lower() == INFINITE and name in REAL_CARDS:
            raise InputError(f"decks: /api/{name} deals real cards, a whole number of decks"
                             f" from 1 to {MAX_DECKS}; an infinite deck ({INFINITE}) is"
                             " blackjack's (hand, chart, edge, sweep)")
        if d.strip().lower() != INFINITE and (
                not d.strip().isdigit() or not 1 <= int(d) <= MAX_DECKS):
            raise InputError(f"decks: a whole number from 1 to {MAX_DECKS} here, or"
                             f" {INFINITE} (an infinite deck), not {d!r}")
    if name == "sweep":
        variants = variants_of(given)
        if variants > MAX_VARIANTS:
            raise InputError(f"a sweep of {variants} variants is more than this page runs"
                             f" ({MAX_VARIANTS}); use strategy-calc sweep")
    for shoe in given.get("shoe", []):
        counts = [part.split("=", 1)[-1] for part in shoe.split(",")]
        if all(c.strip().isdigit() for c in counts) and sum(map(int, counts)) > 52 * MAX_DECKS:
            raise InputError(f"shoe: at most {52 * MAX_DECKS} cards here")


PROGRESS_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a request's ``progress`` key may be (the page makes one per request)."""
def page(name: str) -> str:
    """A static file of the page (shipped in the package: no CDN, works offline)."""
    return (resources.files("strategy_calc.web") / "static" / name).read_text(encoding="utf-8")


def _error(status: int, message: str) -> Any:
    """A JSON ``{"error": message}`` response."""
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)


def _command_line(request: Any, api: Api, endpoint: str, output: str) -> Any:
    """The request's command line (:meth:`Api.argv`; its ``progress`` key is not part of
    it), or the response refusing it."""
    if len(request.url.query) > MAX_QUERY:
        return _error(413, f"the query is longer than {MAX_QUERY} characters")
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "progress"]
    try:
        return api.argv(endpoint, query, output)
    except InputError as exc:
        return _error(404 if str(exc).startswith("no such endpoint") else 400, str(exc))


def _progress_key(request: Any) -> Any:
    """The request's ``progress`` key (None without one), or the response refusing it."""
    key = request.query_params.get("progress")
    if key is not None and not PROGRESS_KEY.fullmatch(key):
        return _error(400, "progress: 1 to 40 letters, digits, - or _")
    return key


async def _answer(runner: Runner, request: Any, endpoint: str, args: list[str],
                  key: str | None) -> tuple[int, bytes]:
    """The command's answer (:meth:`Runner.run`), or the refusal of a request over the
    budget before it starts (413, :func:`refusal`)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "progress"]
    cost = estimate(endpoint, query)
    why = runner.budget.refusal(cost)
    if why is not None:
        return refusal(413, why, cost, runner.budget)
    return await runner.run(args, key, cost, request.is_disconnected)


def _response(status: int, body: bytes, kind: str = "application/json",
              headers: dict[str, str] | None = None) -> Response:
    """The HTTP response of an answer; a 503 (the heavy pool full, or a job stopped) says
    when to try again."""
    from starlette.responses import Response

    if status == 503:
        headers = {**(headers or {}), "Retry-After": "30"}
    return Response(body.strip() if kind == "application/json" else body,
                    status_code=status, media_type=kind, headers=headers)


def create_app(command: Command | None, declared: Declared, budget: Budget | None = None
               ) -> Any:
    """The Starlette app: ``/`` the page, ``/static/NAME`` its files, ``/api/...``,
    ``/download/...``; ``command``: how a command line runs (:class:`Runner`);
    ``declared``: the commands' parameters (:class:`Api`); ``budget``: what a request
    may cost (:class:`Budget`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    runner = Runner(command=command, budget=budget)
    lines = Api(declared)

    async def index(_request: Request) -> Response:
        return HTMLResponse(page("index.html"))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        kinds = {"app.js": "text/javascript", "style.css": "text/css"}
        if name not in kinds:
            return Response("not found", status_code=404)
        return Response(page(name), media_type=kinds[name])

    async def api(request: Request) -> Response:
        args = _command_line(request, lines, request.path_params["name"], "json")
        key = _progress_key(request)
        if isinstance(args, Response):
            return args
        if isinstance(key, Response):
            return key
        status, body = await _answer(runner, request, request.path_params["name"], args, key)
        return _response(status, body)

    async def progress(request: Request) -> Response:
        key = request.query_params.get("key", "")
        if not PROGRESS_KEY.fullmatch(key):
            return _error(400, "key: 1 to 40 letters, digits, - or _")  # type: ignore[no-any-return]
        return JSONResponse(runner.progress(key))

    async def download(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in DOWNLOADS:
            return _error(404, f"no such download {name}")  # type: ignore[no-any-return]
        endpoint, output, kind = DOWNLOADS[name]
        args = _command_line(request, lines, endpoint, output)
        if isinstance(args, Response):
            return args
        status, body = await _answer(runner, request, endpoint, args, None)
        if status != 200:
            return _response(status, body)
        return _response(status, body, kind,
                         {"Content-Disposition": f'attachment; filename="{name}"'})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        yield
        runner.close()  # the worker processes end with the server

    app = Starlette(routes=[
        Route("/", index), Route("/static/{name}", static), Route("/api/progress", progress),
        Route("/api/{name}", api), Route("/download/{name}", download)], lifespan=lifespan)
    app.state.runner = runner
    return app


def uvicorn_server(app: Any, host: str, port: int) -> Any:
    """The uvicorn server of ``app`` (made by :func:`create_app`): on SIGINT or SIGTERM it
    kills every worker at once (:meth:`Runner.close`; the requests they served answer 503),
    so the open requests end, then it stops (giving them at most 2 s)."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            app.state.runner.close()
            super().handle_exit(sig, frame)

    return Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                 timeout_graceful_shutdown=2))


@contextlib.contextmanager
def serving(command: Command | None, declared: Declared, budget: Budget | None = None
            ) -> Iterator[str]:
    """The page served by uvicorn in a thread on a free loopback port, for as long as the
    block runs (tests and tools): its base URL, ``http://127.0.0.1:PORT``."""
    import socket
    import threading
    import time


    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn_server(create_app(command, declared, budget), "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def bind_warning(host: str) -> str | None:
    """What to say before serving on ``host``: nothing on loopback.

    >>> bind_warning("127.0.0.1") is None, bind_warning("0.0.0.0") is not None
    (True, True)
    """
    if host in ("127.0.0.1", "localhost", "::1"):
        return None
    return (f"warning: serving on {host}: the page is reachable from the network, by anyone"
            " who can reach this machine")


__all__ = ["ENDPOINTS", "PROCESSES", "Api", "Budget", "Endpoint", "Parameter", "Progress",
           "Runner", "bind_warning", "create_app", "estimate", "uvicorn_server"]
