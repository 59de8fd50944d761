"""``serve``'s workers: the quick pool, the heavy jobs, their budget and their estimate.

Each request's command line runs off the event loop. A quick one (estimated at most
:data:`QUICK_SECONDS`: :func:`estimate`, the model of :mod:`strategy_calc.blackjack.cost`
the command line's "would take about ..." warning prints) runs in a pool of warm worker
processes; a heavy one in a process of its own, at most ``Budget.heavy_jobs`` at once,
watched while it runs and killed (with whatever it started) when its client goes away, when
it has used twice the time budget in CPU seconds or grown beyond the memory budget, or when
the server stops.
A request over the budget is refused before it starts (:meth:`Budget.refusal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from strategy_calc.blackjack.cost import BASE_MIB, BASE_SECONDS, Cost, game_cost, hand_cost, scaled
from strategy_calc.cards import parse_cards, parse_shoe
from strategy_calc.errors import InputError
from strategy_calc.rules import DEFAULT_BLACKJACK, BlackjackRules, blackjack_rules

CACHE_SIZE = 256
"""Answers kept (per query) before the oldest is dropped."""
PROCESSES = max(2, os.cpu_count() or 1)
"""Quick commands run at once; more requests wait their turn (each command is a process of
some 40 MB: 200 at once would exhaust the machine)."""
QUICK_SECONDS = 10.0
"""A request estimated to take longer (:func:`estimate`) is heavy: a process of its own,
at most ``Budget.heavy_jobs`` at once, stopped when its client goes away."""
HEAVY_NICE = 10
"""How much lower a heavy job's CPU priority is than the quick pool's (``nice``)."""
POLL_SECONDS = 0.1
"""How often a heavy job's client, time and memory are checked."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What one request may cost (``serve --max-seconds``, ``--max-memory``) and how many
    heavy requests run at once (``--heavy-jobs``).

    >>> Budget().as_dict()
    {'seconds': 60.0, 'memory_mib': 1024.0}
    """

    max_seconds: float = 60.0
    max_memory_mib: float = 1024.0
    heavy_jobs: int = 1

    def as_dict(self) -> dict[str, float]:
        """The budget as the refusals' JSON gives it."""
        return {"seconds": self.max_seconds, "memory_mib": self.max_memory_mib}

    def refusal(self, cost: Cost) -> str | None:
        """Why a request of this ``cost`` is refused, or None.

        >>> Budget(60, 1024).refusal(Cost(7200, 2400))[:60]
        'estimated at about 2.0 hours and 2.4 GB here: over this serv'
        >>> Budget(60, 1024).refusal(Cost(30, 900)) is None
        True
        """
        if cost.seconds <= self.max_seconds and cost.memory_mib <= self.max_memory_mib:
            return None
        return (f"estimated at {cost} here: over this"
                f" server's budget of {self.max_seconds:g} s and {self.max_memory_mib:g} MB"
                " (serve --max-seconds, --max-memory); use the command line")


def estimate(name: str, query: Sequence[tuple[str, str]]) -> Cost:
    """What the request ``/api/NAME?query`` (or a download of it) would cost, before it
    runs: :mod:`strategy_calc.blackjack.cost` for the ruleset, shoe, cards and split
    strategy asked; a quick command's cost for anything else, and for input its command
    will refuse at once.

    >>> estimate("hand", [("cards", "T,6"), ("vs", "T")]).seconds < QUICK_SECONDS
    True
    >>> estimate("edge", [("rules", "deluxe"), ("split_strategy", "optimal"),
    ...                   ("set", "max_split_hands=4")]).seconds > 3600
    True
    """
    given: dict[str, list[str]] = {}
    for key, value in query:
        given.setdefault(key, []).append(value)
    quick = Cost(BASE_SECONDS, BASE_MIB)
    strategy = given.get("split_strategy", ["cdp1"])[0]
    if name not in ("hand", "chart", "edge", "sweep") or (
            name in ("chart", "edge") and strategy.lower() not in ("optimal", "postsplit")):
        return quick  # (without reading the rules: a quick query costs the event loop less)
    try:
        ranks = tuple(int(c.rank) for c in parse_cards(given.get("cards", [""])[0]))
        if name == "hand" and (len(ranks) != 2 or ranks[0] != ranks[1]):
            return quick
        decks = given.get("decks", [])
        shoe = given.get("shoe", [])
        default = "macau-1983" if name == "sweep" else DEFAULT_BLACKJACK
        rules = _rules(given.get("rules", [default])[0], tuple(given.get("set", [])),
                       decks[0] if decks else None)
        if shoe:
            rules = replace(rules, decks=parse_shoe(shoe[0]).decks)
        if name == "hand":
            return hand_cost(rules, ranks, strategy)
        if name == "sweep":
            return scaled(game_cost(rules, "cdp1"), variants_of(given))
        return game_cost(rules, strategy)
    except (InputError, ValueError):
        return quick


@functools.lru_cache(maxsize=256)
def _rules(spec: str, sets: tuple[str, ...], decks: str | None) -> BlackjackRules:
    """A built-in ruleset with overrides (kept: the same request's rules are read once)."""
    return blackjack_rules(spec, list(sets), decks)


def variants_of(given: dict[str, list[str]]) -> int:
    """The variants of a sweep request (at most one per value of each ``vary``, times)."""
    variants = 1
    for vary in given.get("vary", []):
        variants *= max(1, len(vary.split("=", 1)[-1].split(",")))
    return variants


Progress = Callable[[str, int, int], None]
"""``progress(label, done, total)``: a command's progress bars as they tick."""
Command = Callable[[list[str], Progress | None], tuple[int, bytes, str]]
"""Runs one command line, reporting its progress: ``(exit status, stdout bytes, stderr
text)`` (:func:`strategy_calc.cli.run_captured`)."""


PROGRESS_KEPT = 1024
"""Progress states kept (per key) before the oldest is dropped."""

_progress_queue: Any = None
"""In a worker process: the queue its commands' progress goes to (:func:`_worker_start`)."""


def _worker_start(queue: Any) -> None:
    """A worker process's initialiser: where its commands report their progress; Ctrl-C
    (sent by a terminal to the whole process group) left to the server, which ends its
    workers itself; on Linux, killed if the server dies without ending it."""
    global _progress_queue
    _progress_queue = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


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


def _heavy_main(command: Command, args: list[str], key: str | None, queue: Any,
                sender: Any) -> None:
    """A heavy job's process: one command, its answer sent back through ``sender``; at a
    lower CPU priority (nice 10), so the quick pool's queries come first on a busy
    machine."""
    _worker_start(queue)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(HEAVY_NICE)
    sender.send(_worker_run(command, args, key))
    sender.close()


def _descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (from ``/proc``; none elsewhere)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                        ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and every process it started (a heavy job and its own workers)."""
    for victim in [*_descendants(pid), pid]:
        with contextlib.suppress(OSError):
            os.kill(victim, signal.SIGKILL)


def cpu_seconds(pid: int, otherwise: float) -> float:
    """The CPU seconds ``pid`` has used (``/proc``: on a busy machine a heavy job's wall
    time stretches, its work does not), or ``otherwise`` where ``/proc`` does not say.

    >>> 0 <= cpu_seconds(os.getpid(), -1.0) <= sum(os.times()[:2]) + 0.02
    True
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return otherwise


def _rss_mib(pid: int) -> float:
    """The resident memory of ``pid``, MiB (0 where ``/proc`` does not say)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


class Stopped(Exception):
    """A heavy job stopped before its answer: the HTTP status and why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


Disconnected = Callable[[], Awaitable[bool]]
"""Whether the request's client has gone (Starlette's ``request.is_disconnected``)."""


def refusal(status: int, reason: str, cost: Cost, budget: Budget) -> tuple[int, bytes]:
    """A refused or stopped request: ``{"error", "estimate", "budget"}``."""
    return status, json.dumps({"error": reason, "estimate": {
        "seconds": round(cost.seconds, 2), "memory_mib": round(cost.memory_mib)},
        "budget": budget.as_dict()}).encode()


class Runner:
    """Runs command lines off the event loop and keeps the answers per command line.

    With ``command`` (``strategy-calc serve`` passes
    :func:`strategy_calc.cli.run_captured`), each quick one runs in a pool of ``processes``
    warm worker processes: their imports stay, so a hand costs milliseconds after the
    first; each heavy one (estimated above :data:`QUICK_SECONDS`) in a process of its own,
    at most ``budget.heavy_jobs`` at once, killed when its client goes away. Without, each
    command line is a ``python -m strategy_calc`` process of its own, at most
    ``processes`` quick ones at a time.
    """

    def __init__(self, size: int = CACHE_SIZE, processes: int = PROCESSES,
                 command: Command | None = None, budget: Budget | None = None) -> None:
        self._answers: OrderedDict[tuple[str, ...], tuple[int, bytes]] = OrderedDict()
        self._size = size
        self._processes = processes
        self._command = command
        self.budget = budget or Budget()
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None  # made in the server's event loop
        self._progress: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: Any = None
        self._drain: threading.Thread | None = None
        self._heavy: set[int] = set()  # the running heavy jobs' process ids
        self._closed = False

    @property
    def heavy_running(self) -> int:
        """Heavy jobs running now."""
        return len(self._heavy)

    def close(self) -> None:
        """Kill every worker process, quick or heavy (a running command is not waited
        for), and stop the thread reading their progress."""
        self._closed = True
        for pid in list(self._heavy):
            kill_tree(pid)
        if self._pool is not None:
            workers = list((self._pool._processes or {}).values())  # (the pool keeps them)
            for worker in workers:
                if worker.pid:
                    kill_tree(worker.pid)
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.join(timeout=2)
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

    async def run(self, args: list[str], progress: str | None = None,
                  cost: Cost | None = None, disconnected: Disconnected | None = None
                  ) -> tuple[int, bytes]:
        """``(HTTP status, body)``: what the command prints (200), or its ``error:`` line as
        JSON ``{"error": ...}`` (400). ``progress``: the key its progress is kept under
        (:meth:`progress`). ``cost``: its estimate (:func:`estimate`); above
        :data:`QUICK_SECONDS` it is heavy: 503 (:func:`refusal`) when the heavy jobs
        already run, else stopped when ``disconnected()`` says its client went away."""
        key = tuple(args)
        if key in self._answers:
            self._answers.move_to_end(key)
            if progress is not None:
                self._note(progress, "answered before", 1, 1, True)
            return self._answers[key]
        if cost is not None and cost.seconds > QUICK_SECONDS:
            if len(self._heavy) >= self.budget.heavy_jobs or self._closed:
                return refusal(503, f"the heavy pool is full ({len(self._heavy)} of"
                               f" {self.budget.heavy_jobs} heavy requests running; serve"
                               " --heavy-jobs): try again when one has ended", cost,
                               self.budget)
            try:
                code, out, err, last = await self._heavy_job(args, progress, cost,
                                                             disconnected)
            except Stopped as stop:
                if progress is not None:
                    self._note(progress, "stopped", 0, 1, True)
                return refusal(stop.status, str(stop), cost, self.budget)
        else:
            if self._slots is None:
                self._slots = asyncio.Semaphore(self._processes)
            async with self._slots:
                if key in self._answers:  # (answered while this one waited)
                    return self._answers[key]
                try:
                    code, out, err, last = await self._execute(args, progress)
                except Stopped as stop:
                    return 503, json.dumps({"error": str(stop)}).encode()
        if progress is not None:
            label, done, total = last if last is not None else ("", 1, 1)
            self._note(progress, label, done, total, True)
        answer = _answer(code, out, err)
        if answer[0] != 500:
            self._answers[key] = answer
            while len(self._answers) > self._size:
                self._answers.popitem(last=False)
        return answer

    def _start_progress(self) -> Any:
        """The spawn context, the progress queue and its reading thread (made once)."""
        context = multiprocessing.get_context("spawn")
        if self._queue is None:
            self._queue = context.Queue()
            self._drain = threading.Thread(target=self._read_progress, daemon=True,
                                           name="progress")
            self._drain.start()
        return context

    async def _execute(self, args: list[str], progress: str | None
                       ) -> tuple[int, bytes, str, tuple[str, int, int] | None]:
        if self._closed:
            raise Stopped(503, "the server is stopping")
        if self._command is not None:
            if self._pool is None:
                context = self._start_progress()
                self._pool = ProcessPoolExecutor(
                    self._processes, mp_context=context, initializer=_worker_start,
                    initargs=(self._queue,))
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool, _worker_run, self._command,
                                                  args, progress)
            except BrokenProcessPool:
                if self._closed:
                    raise Stopped(503, "the server is stopping") from None
                self._pool = None  # (a worker died: a new pool for the next request)
                return 1, b"", "", None
        process = await _subprocess(args)
        out, err = await process.communicate()
        return process.returncode or 0, out, err.decode("utf-8", "replace"), None

    async def _heavy_job(self, args: list[str], progress: str | None, cost: Cost,
                         disconnected: Disconnected | None
                         ) -> tuple[int, bytes, str, tuple[str, int, int] | None]:
        """One heavy command in a process of its own, watched every
        :data:`POLL_SECONDS`: killed (with whatever it started) when its client goes away,
        when it has used twice the time budget in CPU seconds (:func:`cpu_seconds`) or
        grown beyond the memory budget, when the
        server stops (:meth:`close`), or when this coroutine is cancelled."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any]
        if self._command is not None:
            context = self._start_progress()
            receiver, sender = context.Pipe(duplex=False)
            job = context.Process(target=_heavy_main, name="strategy-calc heavy job",
                                  args=(self._command, args, progress, self._queue, sender))
            job.start()
            sender.close()
            pid = job.pid or 0
            answer = loop.run_in_executor(None, receiver.recv)
        else:
            process = await _subprocess(args)
            pid = process.pid
            answer = asyncio.ensure_future(process.communicate())
        self._heavy.add(pid)
        started = loop.time()
        try:
            while True:
                done, _ = await asyncio.wait({answer}, timeout=POLL_SECONDS)
                if done:
                    break
                if disconnected is not None and await disconnected():
                    raise Stopped(499, "the client went away: the job was stopped")
                spent = cpu_seconds(pid, loop.time() - started)
                if spent > 2 * self.budget.max_seconds:
                    raise Stopped(503, f"stopped after {spent:.0f} CPU seconds: past twice"
                                  " this server's time budget (serve --max-seconds)")
                if _rss_mib(pid) > self.budget.max_memory_mib:
                    raise Stopped(503, f"stopped at {_rss_mib(pid):.0f} MiB: beyond this"
                                  " server's memory budget (serve --max-memory)")
        finally:
            if not answer.done():
                kill_tree(pid)
            self._heavy.discard(pid)
            with contextlib.suppress(BaseException):
                await asyncio.wait({answer}, timeout=2)
                answer.exception()  # (retrieved: an answer cut off is no error to log)
            if self._command is not None:
                receiver.close()
                with contextlib.suppress(BaseException):  # (reaped off the event loop)
                    await loop.run_in_executor(None, job.join, 2)
        if self._closed:
            raise Stopped(503, "the server is stopping: the job was stopped")
        try:
            result = answer.result()
        except (EOFError, OSError):  # (the job died without an answer)
            return 1, b"", "", None
        if self._command is None:
            out, err = result
            return process.returncode or 0, out, err.decode("utf-8", "replace"), None
        return result  # type: ignore[no-any-return]


async def _subprocess(args: list[str]) -> Any:
    """``python -m strategy_calc ARGS``, its output piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "strategy_calc", *args, cwd=tempfile.gettempdir(),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)


def _answer(code: int, out: bytes, err: str) -> tuple[int, bytes]:
    if code == 0:
        return 200, out
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    if code == 2 and lines:
        return 400, json.dumps({"error": lines[-1][len("error:"):].strip()}).encode()
    return 500, json.dumps({"error": f"the command failed (status {code})"}).encode()
