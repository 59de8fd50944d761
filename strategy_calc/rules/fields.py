"""The machinery of a rules record's fields: the error they raise, their choices and
coercion from TOML or ``--set`` text."""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from typing import TYPE_CHECKING, Any, Literal

from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass


class RulesError(InputError):
    """An unknown ruleset, an unknown field or an invalid value (the message names it)."""


RulesError.__module__ = "strategy_calc.rules"  # its public name (the package exports it)


def payout_slug(pays: float) -> str:
    """``1.5`` -> ``3:2``, ``1.2`` -> ``6:5``, otherwise the number."""
    for num, den in ((3, 2), (6, 5), (1, 1), (2, 1), (7, 5)):
        if abs(pays - num / den) < 1e-12:
            return f"{num}:{den}"
    return f"{pays:g}:1"


@functools.cache
def field_hints(cls: type) -> dict[str, Any]:
    """A rules class's resolved field types (``typing.get_type_hints``, about 0.2 ms: once
    per class, not per rules value or ruleset read). Callers must not change the dict."""
    return typing.get_type_hints(cls)


@functools.cache
def _choice_fields(cls: type) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """``(field, choices)`` of each ``Literal`` field of a rules class, in field order
    (every rules value checks them)."""
    hints = field_hints(cls)
    return tuple((field.name, typing.get_args(hints[field.name]))
                 for field in dataclasses.fields(cls)
                 if typing.get_origin(hints[field.name]) is Literal)


def check_choices(value: Any) -> None:
    """Reject a value of a ``Literal`` field outside its choices, naming the field."""
    cls: type = type(value)
    for name, choices in _choice_fields(cls):
        if getattr(value, name) not in choices:
            raise RulesError(
                f"invalid value {getattr(value, name)!r} for {name}"
                f" (choose from {', '.join(map(str, choices))})"
            )


def coerce(field: str, hint: Any, raw: Any, from_text: bool) -> Any:
    """Convert ``raw`` (a TOML value, or a string from ``--set``) to the field's type."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        return _coerce_range(field, raw, from_text)
    if origin in (typing.Union, types.UnionType):  # a number or a word (burn_start)
        return _coerce_number_or_word(field, hint, raw, from_text)
    if origin is Literal:
        text = str(raw).strip().lower() if from_text else str(raw)
        if text not in typing.get_args(hint):
            raise RulesError(
                f"invalid value {raw!r} for {field}"
                f" (choose from {', '.join(typing.get_args(hint))})"
            )
        return text
    if hint is bool:
        return _coerce_bool(field, raw, from_text)
    if hint is int:
        if isinstance(raw, bool) or not (isinstance(raw, int) or from_text):
            raise RulesError(f"invalid value {raw!r} for {field} (expected an integer)")
        try:
            return int(str(raw))
        except ValueError:
            raise RulesError(f"invalid value {raw!r} for {field} (expected an integer)") from None
    if hint is float:
        if isinstance(raw, bool) or not (isinstance(raw, int | float) or from_text):
            raise RulesError(f"invalid value {raw!r} for {field} (expected a number)")
        try:
            return _parse_number(str(raw))
        except ValueError:
            raise RulesError(f"invalid value {raw!r} for {field} (expected a finite number"
                             " or a ratio such as 3:2)") from None
    if hint is str:
        if not isinstance(raw, str):
            raise RulesError(f"invalid value {raw!r} for {field} (expected a string)")
        return raw
    raise RulesError(f"field {field} cannot be set")  # pragma: no cover


def _coerce_bool(field: str, raw: Any, from_text: bool) -> bool:
    """True or false (from text also yes/no, 1/0, on/off)."""
    if isinstance(raw, bool):
        return raw
    if from_text and str(raw).lower() in ("true", "yes", "1", "on"):
        return True
    if from_text and str(raw).lower() in ("false", "no", "0", "off"):
        return False
    raise RulesError(f"invalid value {raw!r} for {field} (expected true or false)")


def _coerce_number_or_word(field: str, hint: Any, raw: Any, from_text: bool) -> int | str:
    """A whole number or one of the words of ``hint`` (``int | Literal[...]``).

    >>> _coerce_number_or_word("f", int | Literal["decks"], "Decks", True)
    'decks'
    """
    words = [w for a in typing.get_args(hint) if typing.get_origin(a) is Literal
             for w in typing.get_args(a)]
    text = str(raw).strip().lower() if from_text else raw
    if text in words:
        return str(text)
    bad = RulesError(f"invalid value {raw!r} for {field} (expected a whole number or"
                     f" {' or '.join(words)})")
    if isinstance(raw, bool) or not (isinstance(raw, int) or from_text):
        raise bad
    try:
        return int(str(raw))
    except ValueError:
        raise bad from None


def _coerce_range(field: str, raw: Any, from_text: bool) -> tuple[int, ...]:
    """A range of whole numbers: a TOML array ``[LOW, HIGH]`` (``[]``: none), or text
    ``LOW-HIGH``, ``LOW,HIGH``, ``[LOW, HIGH]``, one number ``N`` (``N-N``) or ``none``.

    >>> _coerce_range("f", "20-30", True), _coerce_range("f", "26", True)
    ((20, 30), (26, 26))
    >>> _coerce_range("f", [20, 30], False), _coerce_range("f", "none", True)
    ((20, 30), ())
    """
    bad = RulesError(f"invalid value {raw!r} for {field} (expected a range LOW-HIGH of"
                     " whole numbers, e.g. 20-30, or none)")
    if not from_text:
        if not isinstance(raw, list) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in raw):
            raise bad
        values = list(raw)
    else:
        text = str(raw).strip().strip("[]").strip()
        if text.lower() in ("", "none"):
            return ()
        if text.startswith("-"):
            raise bad
        parts = text.replace(",", "-").split("-")
        try:
            values = [int(p.strip()) for p in parts]
        except ValueError:
            raise bad from None
    if len(values) == 1:
        values = values * 2
    if len(values) not in (0, 2):
        raise bad
    return tuple(values)


def _parse_number(text: str) -> float:
    """A finite number, or a ratio such as ``3:2`` or ``6/5`` (ValueError otherwise).

    >>> _parse_number("6:5"), _parse_number("1.5")
    (1.2, 1.5)
    """
    value = None
    for sep in (":", "/"):
        if sep in text:
            num, den = text.split(sep, 1)
            if float(den) == 0:
                raise ValueError("a ratio over zero")
            value = float(num) / float(den)
            break
    if value is None:
        value = float(text)
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value
