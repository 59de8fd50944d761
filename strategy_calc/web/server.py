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

What a request may ask is narrower than the command line: built-in rulesets only (no
file is read or written: no ``--rules FILE``, ``--out``, ``--cache``), at most
:data:`MAX_DECKS` decks, sweeps of at most :data:`MAX_VARIANTS` variants, a query of at
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

import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any

from strategy_calc.errors import InputError
from strategy_calc.rules import RULESETS

MAX_DECKS = 8
"""The most decks a request may ask for (``decks``, or a ``--set decks=N``)."""
MAX_VARIANTS = 64
"""The most rule variants one sweep request may ask for."""
MAX_QUERY = 2000
"""The longest query string accepted, characters."""
CACHE_SIZE = 256
"""Answers kept (per query) before the oldest is dropped."""
PROCESSES = max(2, os.cpu_count() or 1)
"""Commands run at once; more requests wait their turn (each command is a process of some
40 MB: 200 at once would exhaust the machine)."""


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
    "rules": Endpoint("rules", ("name",)),
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
    for spec in given.get("rules", []) + given.get("name", []):
        if spec not in builtins:
            raise InputError(f"rules: a built-in ruleset ({', '.join(builtins)})")
    decks = list(given.get("decks", []))
    decks += [s.split("=", 1)[1] for s in given.get("set", []) if s.startswith("decks=")]
    for d in decks:
        if not d.strip().isdigit() or not 1 <= int(d) <= MAX_DECKS:
            raise InputError(f"decks: a whole number from 1 to {MAX_DECKS} here, not {d!r}")
    if name == "sweep":
        variants = 1
        for vary in given.get("vary", []):
            variants *= max(1, len(vary.split("=", 1)[-1].split(",")))
        if variants > MAX_VARIANTS:
            raise InputError(f"a sweep of {variants} variants is more than this page runs"
                             f" ({MAX_VARIANTS}); use strategy-calc sweep")
    for shoe in given.get("shoe", []):
        counts = [part.split("=", 1)[-1] for part in shoe.split(",")]
        if all(c.strip().isdigit() for c in counts) and sum(map(int, counts)) > 52 * MAX_DECKS:
            raise InputError(f"shoe: at most {52 * MAX_DECKS} cards here")


Progress = Callable[[str, int, int], None]
"""``progress(label, done, total)``: a command's progress bars as they tick."""
Command = Callable[[list[str], Progress | None], tuple[int, bytes, str]]
"""Runs one command line, reporting its progress: ``(exit status, stdout bytes, stderr
text)`` (:func:`strategy_calc.cli.run_captured`)."""

PROGRESS_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a request's ``progress`` key may be (the page makes one per request)."""
PROGRESS_KEPT = 1024
"""Progress states kept (per key) before the oldest is dropped."""

_progress_queue: Any = None
"""In a worker process: the queue its commands' progress goes to (:func:`_worker_start`)."""


def _worker_start(queue: Any) -> None:
    """A worker process's initialiser: where its commands report their progress."""
    global _progress_queue
    _progress_queue = queue


def _worker_run(command: Command, args: list[str], key: str | None
                ) -> tuple[int, bytes, str, tuple[str, int, int] | None]:
    """Run ``command`` in a worker, its progress sent under ``key`` to the server as it
    ticks; the last tick comes back with the answer (so the final state never races it)."""
    queue = _progress_queue
    last: list[tuple[str, int, int]] = []

    def sink(label: str, done: int, total: int) -> None:
        last[:] = [(label, done, total)]
        if queue is not None:
            queue.put((key, label, done, total))

    code, out, err = command(args, sink if key is not None else None)
    return code, out, err, (last[0] if last else None)


class Runner:
    """Runs command lines off the event loop and keeps the answers per command line.

    With ``command`` (``strategy-calc serve`` passes
    :func:`strategy_calc.cli.run_captured`), each runs in a pool of ``processes`` warm
    worker processes: their imports stay, so a hand costs milliseconds after the
    first. Without, each command line is a ``python -m strategy_calc`` process
    of its own, at most ``processes`` at a time.
    """

    def __init__(self, size: int = CACHE_SIZE, processes: int = PROCESSES,
                 command: Command | None = None) -> None:
        self._answers: OrderedDict[tuple[str, ...], tuple[int, bytes]] = OrderedDict()
        self._size = size
        self._processes = processes
        self._command = command
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None  # made in the server's event loop
        self._progress: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: Any = None
        self._drain: threading.Thread | None = None

    def close(self) -> None:
        """Stop the worker processes (if any) and the thread reading their progress."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self._queue is not None and self._drain is not None:
            self._queue.put(None)
            self._drain.join(timeout=5)
            self._queue = self._drain = None

    def progress(self, key: str) -> dict[str, Any]:
        """The progress of the request that gave ``key``: ``{"label", "done", "total",
        "finished"}`` as its command's progress bar last ticked (``{}`` before any tick, or
        for an unknown key)."""
        with self._lock:
            return dict(self._progress.get(key, {}))

    def _note(self, key: str, label: str, done: int, total: int, finished: bool) -> None:
        with self._lock:
            state = self._progress.get(key)
            if state is not None and state.get("finished"):
                return  # (a tick that arrives after the answer changes nothing)
            self._progress[key] = {"label": label, "done": done, "total": total,
                                   "finished": finished}
            self._progress.move_to_end(key)
            while len(self._progress) > PROGRESS_KEPT:
                self._progress.popitem(last=False)

    def _read_progress(self) -> None:
        """The thread that files the workers' ticks by request key, until ``None``."""
        while True:
            item = self._queue.get()
            if item is None:
                return
            key, label, done, total = item
            if key is not None:
                self._note(key, label, done, total, False)

    async def run(self, args: list[str], progress: str | None = None) -> tuple[int, bytes]:
        """``(HTTP status, body)``: what the command prints (200), or its ``error:`` line as
        JSON ``{"error": ...}`` (400). ``progress``: the key its progress is kept under
        (:meth:`progress`)."""
        key = tuple(args)
        if key in self._answers:
            self._answers.move_to_end(key)
            if progress is not None:
                self._note(progress, "answered before", 1, 1, True)
            return self._answers[key]
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._processes)
        async with self._slots:
            if key in self._answers:  # (answered while this one waited)
                return self._answers[key]
            code, out, err, last = await self._execute(args, progress)
        if progress is not None:
            label, done, total = last if last is not None else ("", 1, 1)
            self._note(progress, label, done, total, True)
        answer = _answer(code, out, err)
        if answer[0] != 500:
            self._answers[key] = answer
            while len(self._answers) > self._size:
                self._answers.popitem(last=False)
        return answer

    async def _execute(self, args: list[str], progress: str | None
                       ) -> tuple[int, bytes, str, tuple[str, int, int] | None]:
        if self._command is not None:
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._queue = context.Queue()
                self._drain = threading.Thread(target=self._read_progress, daemon=True,
                                               name="progress")
                self._drain.start()
                self._pool = ProcessPoolExecutor(
                    self._processes, mp_context=context, initializer=_worker_start,
                    initargs=(self._queue,))
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, _worker_run, self._command, args,
                                              progress)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "strategy_calc", *args, cwd=tempfile.gettempdir(),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        out, err = await process.communicate()
        return process.returncode or 0, out, err.decode("utf-8", "replace"), None


def _answer(code: int, out: bytes, err: str) -> tuple[int, bytes]:
    if code == 0:
        return 200, out
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    if code == 2 and lines:
        return 400, json.dumps({"error": lines[-1][len("error:"):].strip()}).encode()
    return 500, json.dumps({"error": f"the command failed (status {code})"}).encode()


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


def create_app(command: Command | None, declared: Declared) -> Any:
    """The Starlette app: ``/`` the page, ``/static/NAME`` its files, ``/api/...``,
    ``/download/...``; ``command``: how a command line runs (:class:`Runner`);
    ``declared``: the commands' parameters (:class:`Api`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    runner = Runner(command=command)
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
        status, body = await runner.run(args, key)
        return Response(body.strip(), status_code=status, media_type="application/json")

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
        status, body = await runner.run(args)
        if status != 200:
            return Response(body, status_code=status, media_type="application/json")
        return Response(body, media_type=kind,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        yield
        runner.close()  # the worker processes end with the server

    return Starlette(routes=[
        Route("/", index), Route("/static/{name}", static), Route("/api/progress", progress),
        Route("/api/{name}", api), Route("/download/{name}", download)], lifespan=lifespan)


@contextlib.contextmanager
def serving(command: Command | None, declared: Declared) -> Iterator[str]:
    """The page served by uvicorn in a thread on a free loopback port, for as long as the
    block runs (tests and tools): its base URL, ``http://127.0.0.1:PORT``."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(command, declared), host="127.0.0.1",
                                           port=port, log_level="warning"))
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


__all__ = ["ENDPOINTS", "Api", "Endpoint", "Parameter", "bind_warning", "create_app"]
