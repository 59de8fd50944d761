"""The synopsis of docs/CLI.md, made from the commands' declarations: one line per command,
per subcommand (``sidebet pair``, ``baccarat count``) and per form of a command that
declares its forms (``drill``: :data:`strategy_calc.cli.drill.FORMS`).

An argument is its metavar (``CARDS``; in brackets when optional), an option its long
name and its value's metavar (the declared one, a choice's values ``a|b``, else its name in
capitals), ``...`` when it repeats, in brackets unless required; ``--help`` is left out.
tests/cli/test_synopsis.py checks docs/CLI.md against :func:`synopsis`; ``python -m
strategy_calc.cli.synopsis docs/CLI.md`` writes it there.

>>> synopsis_lines("counts")
['strategy-calc counts [--system NAME|FILE] [--format text|json] [--json]']
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

from strategy_calc.cli.root import COMMANDS, click_command

PROGRAM = "strategy-calc"


def _value(parameter: Any) -> str:
    """The metavar of an option's value."""
    if parameter.metavar:
        return str(parameter.metavar)
    choices = getattr(parameter.type, "choices", None)
    if choices:
        return "|".join(str(choice) for choice in choices)
    return str(parameter.name).strip("_").upper()


def usage(parameter: Any) -> str:
    """One parameter as the synopsis writes it (``[--set FIELD=VALUE ...]``, ``--vs UP``)."""
    if parameter.param_type_name == "argument":
        text = str(parameter.metavar or parameter.name.upper())
        return text if parameter.required or text.startswith("[") else f"[{text}]"
    names = [*parameter.opts, *parameter.secondary_opts]
    text = "|".join(names) if getattr(parameter, "is_flag", False) else (
        f"{parameter.opts[0]} {_value(parameter)}")
    text += " ..." if parameter.multiple else ""
    return text if parameter.required else f"[{text}]"


def paths() -> list[str]:
    """Every command the synopsis has a line for, in the help's order: a group's own
    invocation where it has one (``baccarat``), then its subcommands (``baccarat
    count``)."""
    found: list[str] = []
    for name in COMMANDS:
        command = click_command(name)
        subcommands = getattr(command, "commands", None)
        if subcommands is None or getattr(command, "invoke_without_command", False):
            found.append(name)
        found += [f"{name} {sub}" for sub in subcommands or ()]
    return found


def synopsis_lines(path: str) -> list[str]:
    """The synopsis line(s) of the command ``path``: one per form it declares, else one."""
    command = click_command(path)
    shown = [p for p in command.params if p.name != "help"]
    module = importlib.import_module(f"strategy_calc.cli.{COMMANDS[path.split()[0]]}")
    forms = getattr(module, "FORMS", {}).get(path)
    if forms is None:
        return [" ".join([PROGRAM, path, *(usage(p) for p in shown)])]
    by_name = {p.name: p for p in shown}
    return [" ".join([PROGRAM, path, words, *(usage(by_name[name]) for name in names)])
            for words, names in forms]


def synopsis() -> str:
    """The synopsis: every command's lines."""
    return "\n".join(line for path in paths() for line in synopsis_lines(path))


BLOCK = re.compile(r"(## Synopsis\n\n```sh\n)(.*?)(\n```)", re.DOTALL)
"""The synopsis block of docs/CLI.md."""


def in_document(text: str) -> str:
    """The synopsis block of a document (docs/CLI.md's text)."""
    found = BLOCK.search(text)
    if found is None:
        raise ValueError("no '## Synopsis' section with a ```sh block")
    return found.group(2)


def with_synopsis(text: str) -> str:
    """The document with its synopsis block made anew."""
    in_document(text)  # (there is one)
    return BLOCK.sub(lambda m: m.group(1) + synopsis() + m.group(3), text, count=1)


def main(argv: list[str]) -> int:
    """``python -m strategy_calc.cli.synopsis [FILE]``: print the synopsis, or write it into
    FILE's synopsis block."""
    if not argv:
        print(synopsis())
        return 0
    path = Path(argv[0])
    path.write_text(with_synopsis(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
