"""Start-up: a command imports only what it uses (issue 29: start-up must not dominate).

``hand`` needs the one-hand analysis and the renderer, not the whole-game analyses, the
count analyses or the counting systems; a top-level import of one of those in a module
every command loads (``report``) costs every command about 10 ms (measured 2026-12-06:
``hand T,6 --vs T`` 116.5 ms before such an import, 126.1 ms with it, medians of 15)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("strategy_calc.counting", "strategy_calc.blackjack.game_analysis",
         "strategy_calc.counting.counter", "strategy_calc.blackjack.distributions",
         "strategy_calc.drill", "strategy_calc.counting.ramps", "numpy", "scipy", "sympy")


def _loaded(args: list[str], modules: tuple[str, ...]) -> str:
    """Which of ``modules`` a fresh process has loaded once ``strategy-calc ARGS`` ran."""
    code = ("import sys\n"
            "from strategy_calc.cli import run\n"
            f"assert run({args!r}) == 0\n"
            f"print(sorted(m for m in {modules!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd="/")
    return done.stdout.strip().splitlines()[-1]


def test_hand_imports_no_whole_game_or_count_analysis() -> None:
    assert _loaded(["hand", "T,6", "--vs", "T"], HEAVY) == "[]"


# `edge` needs the rules, the whole-game pass and the renderer's edge_dict: not the
# one-hand analysis (blackjack.hand_analysis), baccarat, counting, nor the standard modules only
# other commands' renderers use (html, fractions) or importlib.resources (zipfile and tempfile
# come with it). Measured 2026-12-06: together with the script's exit (test below) these
# took `edge --json` from 153 to 121 ms (interleaved medians of 15, docs/PERFORMANCE.md).
EDGE_UNUSED = ("strategy_calc.blackjack.hand_analysis", "strategy_calc.baccarat",
               "strategy_calc.counting", "strategy_calc.drill", "html", "fractions",
               "importlib.resources", "zipfile", "numpy", "scipy", "sympy", "rich")


def test_edge_imports_only_the_game_pass_and_its_renderer() -> None:
    assert _loaded(["edge", "--rules", "deluxe", "--decks", "1", "--json"], EDGE_UNUSED) == "[]"
    assert _loaded(["edge", "--rules", "deluxe", "--decks", "1", "--strategy", "optimal",
                    "--json"], EDGE_UNUSED) == "[]"


FAMILIES = ("strategy_calc.cli.hand", "strategy_calc.cli.game", "strategy_calc.cli.risk",
            "strategy_calc.cli.count", "strategy_calc.cli.drill", "strategy_calc.cli.serve",
            "strategy_calc.blackjack", "strategy_calc.rules", "numpy", "rich")


def test_the_top_level_help_loads_no_command_family() -> None:
    """The index of commands is the command table's names and summaries: listing them
    imports no family, nor the library their options' vocabularies come from."""
    assert _loaded(["--help"], FAMILIES) == "[]"


def _script(body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The script's entry point (``strategy_calc.__main__.main``) on ``args``, after
    ``body`` ran in the same process."""
    code = (f"import sys\n{body}\nsys.argv = ['strategy-calc', *{list(args)!r}]\n"
            "from strategy_calc.__main__ import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd="/")


def test_the_scripts_quick_exit_keeps_output_status_and_atexit_functions() -> None:
    """The script ends with ``os._exit`` after a command: its whole output is still
    written (to a pipe, block-buffered), its status is the command's, and functions
    registered with ``atexit`` still run, after the command's output."""
    from strategy_calc.cli import run_captured

    args = ("edge", "--rules", "deluxe", "--decks", "1", "--json")
    code, expected, _err = run_captured(list(args))  # the same command, in this process
    ok = _script("import atexit\natexit.register(print, 'atexit ran')", *args)
    assert code == ok.returncode == 0, ok.stderr
    assert ok.stdout == expected.decode() + "atexit ran\n"
    bad = _script("", "hand", "T,6", "--vs", "X")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: ")


def test_the_script_waits_for_a_running_thread_as_python_does() -> None:
    """With another non-daemon thread alive the script exits the ordinary way, which
    waits for it (a quick exit would cut it off): the thread prints 0.2 s after the
    command has finished."""
    body = ("import threading, time\n"
            "import strategy_calc.cli as cli\n"
            "finished = threading.Event()\n"
            "command = cli.run_script\n"
            "def run_then_flag():\n"
            "    try:\n        return command()\n"
            "    finally:\n        finished.set()\n"
            "cli.run_script = run_then_flag\n"
            "def later():\n"
            "    finished.wait()\n    time.sleep(0.2)\n    print('thread done', flush=True)\n"
            "threading.Thread(target=later).start()")
    done = _script(body, "hand", "T,6", "--vs", "T", "--decks", "1", "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.rstrip("\n").split("\n")
    assert lines[-1] == "thread done" and lines[0].startswith("{"), done.stdout[-300:]
