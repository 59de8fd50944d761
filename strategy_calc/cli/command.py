"""Declaring a command: :func:`command` registers a function on its family's app, with the
help's examples, and spreads the option groups it takes into options.

An option group (:class:`OptionGroup`) is options that go together, declared once as the
attributes of a class, each an ``Annotated`` typer option with its default
(:class:`~strategy_calc.cli.options.Ruleset`: ``--rules``, ``--set``, ``--decks``). A
command takes the group as one parameter; typer sees each of them as an option of the
command (its help, its parsing, its place in the synopsis), and the command receives the
group's value, whose methods do what the options mean (load the ruleset).

>>> class Pair(OptionGroup):
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

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., None])


class OptionGroup:
    """The base of the option groups: options declared as annotated class attributes
    (``Annotated[type, typer.Option(...)]``, the default as the value), spread into the
    options of every command that takes the group (:func:`spread`); a group's value is
    immutable and compares by its options' values. (Not a dataclass: making one generates
    code at import, milliseconds every command line would pay.)"""

    def __init__(self, **values: Any) -> None:
        for name in option_names(type(self)):
            object.__setattr__(self, name, values.pop(name, getattr(type(self), name)))
        if values:
            raise TypeError(f"{type(self).__name__}: no option {', '.join(values)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(other) == vars(self)

    # (its options may be lists: no hash)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"{type(self).__name__}({shown})"


def option_names(group: type[OptionGroup]) -> list[str]:
    """The options of ``group``, its bases' first (a redeclared one keeps its place)."""
    names: dict[str, None] = {}
    for cls in reversed(group.__mro__):
        names.update(dict.fromkeys(inspect.get_annotations(cls)))
    return list(names)


def examples(*lines: str) -> str:
    """A help epilog of example command lines (kept as written: click's ``\\b``).

    >>> examples("strategy-calc edge").splitlines()[1:]
    ['Examples:', '  strategy-calc edge']
    """
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def command(app: typer.Typer, name: str, *example_lines: str, **settings: Any
            ) -> Callable[[F], F]:
    """Register the decorated function as the command ``name`` of ``app``: its docstring
    the help, ``example_lines`` the help's examples, its option groups spread
    (:func:`spread`; its summary comes from the command table when the root loads the
    family: :data:`strategy_calc.cli.root.SUMMARIES`); the function itself is returned
    unchanged."""

    def register(func: F) -> F:
        app.command(name, epilog=examples(*example_lines), **settings)(spread(func))
        return func

    return register


_group_options: dict[str, list[inspect.Parameter]] = {}


def group_options(group: type[OptionGroup]) -> list[inspect.Parameter]:
    """The options of an option group, as keyword parameters (their annotations resolved
    once per group)."""
    key = f"{group.__module__}.{group.__qualname__}"
    if key not in _group_options:
        hints = typing.get_type_hints(group, include_extras=True)
        _group_options[key] = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                                 default=getattr(group, name),
                                                 annotation=hints[name])
                               for name in option_names(group)]
    return _group_options[key]


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
            values[name] = group(**{key: values.pop(key) for key in option_names(group)})
        func(**values)

    with_groups.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    with_groups.__annotations__ = {p.name: p.annotation for p in parameters}
    return with_groups
