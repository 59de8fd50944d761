"""Declaring a command: :func:`command` registers a function on its family's app, with the
help's examples, and spreads the option groups it takes into options.

An option group (:class:`OptionGroup`) is options that go together, declared once as the
fields of a frozen dataclass, each field an ``Annotated`` typer option with its default
(:class:`~strategy_calc.cli.options.Ruleset`: ``--rules``, ``--set``, ``--decks``). A
command takes the group as one parameter; typer sees each field as an option of the
command (its help, its parsing, its place in the synopsis), and the command receives the
group's value, whose methods do what the options mean (load the ruleset).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair(OptionGroup):
...     low: typing.Annotated[int, typer.Option("--low")] = 1
...     high: typing.Annotated[int, typer.Option("--high")] = 2
>>> def show(pair: Pair, name: str = "x") -> None:
...     print(name, pair)
>>> spread_show = spread(show)
>>> list(inspect.signature(spread_show).parameters)
['low', 'high', 'name']
>>> spread_show(low=3, high=4, name="y")
y Pair(low=3, high=4)
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., None])


class OptionGroup:
    """The base of the option groups: a frozen dataclass whose fields are options
    (``Annotated[type, typer.Option(...)]`` with a default), spread into the options of
    every command that takes it (:func:`spread`)."""


def examples(*lines: str) -> str:
    """A help epilog of example command lines (kept as written: click's ``\\b``).

    >>> examples("strategy-calc edge").splitlines()[1:]
    ['Examples:', '  strategy-calc edge']
    """
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def command(app: typer.Typer, name: str, short_help: str, *example_lines: str,
            **settings: Any) -> Callable[[F], F]:
    """Register the decorated function as the command ``name`` of ``app`` (its docstring
    the help, ``example_lines`` the help's examples), its option groups spread
    (:func:`spread`); the function itself is returned unchanged."""

    def register(func: F) -> F:
        app.command(name, short_help=short_help, epilog=examples(*example_lines),
                    **settings)(spread(func))
        return func

    return register


def group_options(group: type[OptionGroup]) -> list[inspect.Parameter]:
    """The options of an option group, as keyword parameters (their annotations resolved)."""
    hints = typing.get_type_hints(group, include_extras=True)
    return [inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY,
                              default=field.default, annotation=hints[field.name])
            for field in dataclasses.fields(group)]  # type: ignore[arg-type]


def spread(func: Callable[..., None]) -> Callable[..., None]:
    """``func`` with each parameter whose type is an :class:`OptionGroup` replaced by the
    group's options: typer declares those, and the call builds the group from their values.
    Two options of one name are refused (a bug in the declarations)."""
    hints = typing.get_type_hints(func, include_extras=True)
    parameters: list[inspect.Parameter] = []
    groups: dict[str, type[OptionGroup]] = {}
    for parameter in inspect.signature(func).parameters.values():
        hint = hints[parameter.name]
        if isinstance(hint, type) and issubclass(hint, OptionGroup):
            groups[parameter.name] = hint
            parameters += group_options(hint)
        else:
            parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY,
                                                annotation=hint))
    names = [p.name for p in parameters]
    if len(set(names)) != len(names):
        raise TypeError(f"{func.__name__}: an option is declared twice ({', '.join(names)})")

    @functools.wraps(func)
    def with_groups(**values: Any) -> None:
        for name, group in groups.items():
            fields = dataclasses.fields(group)  # type: ignore[arg-type]
            values[name] = group(**{field.name: values.pop(field.name) for field in fields})
        func(**values)

    with_groups.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    with_groups.__annotations__ = {p.name: p.annotation for p in parameters}
    return with_groups
