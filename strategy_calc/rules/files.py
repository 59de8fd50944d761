"""Ruleset files: TOML tables with bases and cited sources, and the rules values built
from them with ``FIELD=VALUE`` overrides."""

from __future__ import annotations

import dataclasses
import pkgutil
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from strategy_calc.rules.baccarat import BaccaratRules
from strategy_calc.rules.blackjack import BlackjackRules
from strategy_calc.rules.bonus_hands import parse_bonus_hands
from strategy_calc.rules.fields import RulesError, coerce, field_hints
from strategy_calc.rules.registry import (
    BUILTIN_RULESETS,
    DEFAULT_BACCARAT,
    DEFAULT_BLACKJACK,
    RULESETS,
    builtin_ruleset,
)

if TYPE_CHECKING:
    pass


RulesT = TypeVar("RulesT")


META_KEYS = ("game", "description", "base", "sources")
"""Keys a ruleset file may carry that are not rule fields: the game, a description, the
ruleset it inherits from (``base``) and a ``[sources]`` table of each field's rule text."""


def build_rules(
    cls: type[RulesT], table: Mapping[str, Any], overrides: Sequence[str] = (), game: str = ""
) -> RulesT:
    """Build a rules value of ``cls`` from a TOML table plus ``FIELD=VALUE`` overrides.

    Unknown fields and invalid values raise :class:`RulesError` naming them.

    >>> build_rules(BlackjackRules, {"decks": 2}, ["dealer_hits_soft_17=true"]).dealer_hits_soft_17
    True
    """
    rules_class: type = cls
    hints = field_hints(rules_class)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kind = game or cls.__name__.removesuffix("Rules").lower()
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key in META_KEYS:
            continue
        if key not in names:
            raise RulesError(f"unknown field {key!r} for {kind} rules")
        values[key] = (parse_bonus_hands(raw, False) if key == "bonus_hands"
                       else coerce(key, hints[key], raw, from_text=False))
    for item in overrides:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise RulesError(f"--set needs FIELD=VALUE, not {item!r}")
        if key not in names:
            raise RulesError(f"unknown field {key!r} for {kind} rules")
        values[key] = (parse_bonus_hands(raw, True) if key == "bonus_hands"
                       else coerce(key, hints[key], raw.strip(), from_text=True))
    try:
        return cls(**values)
    except TypeError as exc:  # pragma: no cover - guarded by the name check above
        raise RulesError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class RulesetTable:
    """A ruleset file (or built-in) read with its bases (:func:`read_ruleset`)."""

    table: dict[str, Any]
    """Every field and the ``game``, ``name`` and ``description`` keys, bases merged in."""
    set_by: dict[str, str]
    """Per field, the ruleset that gave it its value: the file itself or one of its bases
    (a built-in's name, or a base file's name)."""
    sources: dict[str, str]
    """Per field, the rule text it comes from (the ``[sources]`` tables), or absent."""


def _read_table(spec: str, folder: Path | None) -> tuple[dict[str, Any], str, Path | None]:
    """One TOML table (no bases): ``(table, its name, the folder its bases are read
    from)``. A spec that is not a built-in is a path, relative to ``folder`` if given."""
    if not spec.strip():
        raise RulesError("empty ruleset name: give a built-in name"
                         f" ({', '.join(BUILTIN_RULESETS)}) or a TOML file")
    builtin = builtin_ruleset(spec)
    if builtin is not None:
        # through the package's loader (a zipped install too), without importlib.resources
        # (its import, zipfile and tempfile among it, costs `edge` about 2 ms; issue 29)
        data = pkgutil.get_data("strategy_calc.rules", f"rulesets/{builtin.file}")
        if data is None:  # pragma: no cover - a loader that cannot read package data
            raise RulesError(f"built-in ruleset {builtin.name} cannot be read here")
        return tomllib.loads(data.decode("utf-8")), builtin.name, None
    path = Path(spec) if folder is None or Path(spec).is_absolute() else folder / spec
    if path.is_dir():
        raise RulesError(f"ruleset {spec!r} is a folder, not a TOML file")
    if not path.is_file():
        raise RulesError(f"unknown ruleset {spec!r}: not a built-in"
                         f" ({', '.join(BUILTIN_RULESETS)}) and no such file")
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"invalid ruleset file {spec}: {exc}") from None
    if not any(key not in (*META_KEYS, "name") for key in table) and "base" not in table:
        raise RulesError(f"ruleset file {spec} sets no rules (an empty file?)")
    table.setdefault("name", path.stem)
    return table, str(table["name"]), path.parent


def read_ruleset(spec: str, _folder: Path | None = None,
                 _seen: tuple[str, ...] = ()) -> RulesetTable:
    """A built-in ruleset or a ruleset file, with the ruleset it names as ``base``.

    A file inherits only from its ``base`` (a built-in name, or another file, relative to
    the file's folder), which may name its own; the file's fields override the base's.
    A table that leaves fields unset and names no base is refused, listing them: nothing
    is ever filled in from defaults the file does not name.

    >>> t = read_ruleset("macau-1983")
    >>> t.table["double_on"], t.set_by["double_on"], t.sources["double_on"][:7]
    ('11', 'macau-1983', 'Art. 11')
    """
    table, name, folder = _read_table(spec, _folder)
    raw_sources = table.pop("sources", {})
    if not isinstance(raw_sources, dict):
        raise RulesError(f"ruleset {spec}: [sources] must be a table of field = \"text\"")
    sources = {str(k): str(v) for k, v in raw_sources.items()}
    game_of = str(table.get("game", "")) or None
    _check_sources(spec, sources, game_of)
    base_spec = table.pop("base", None)
    own = [k for k in table if k not in (*META_KEYS, "name")]
    if base_spec is None:
        game = str(table.get("game", "blackjack"))
        fields = [f.name for f in dataclasses.fields(_RULES_CLASSES.get(game, BlackjackRules))]
        for key in own:
            if key not in fields:
                raise RulesError(f"unknown field {key!r} for {game} rules")
        missing = [f for f in fields if f != "name" and f not in table]
        if missing:
            first, *others = [f'"{r.name}"' for r in RULESETS if r.game == game]
            shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more"
                                              if len(missing) > 6 else "")
            raise RulesError(
                f"ruleset {spec} names no base and leaves {len(missing)} fields unset:"
                f" add base = {first} (or {', '.join([*others, 'another file'])}) to"
                f" inherit them ({shown})")
        return RulesetTable(table, {k: name for k in own}, sources)
    if not isinstance(base_spec, str):
        raise RulesError(f"ruleset {spec}: base must be a ruleset name or a file, not"
                         f" {base_spec!r}")
    key = str((folder / base_spec).resolve()) if folder is not None and builtin_ruleset(
        base_spec) is None else base_spec.strip().lower()
    if key in _seen:
        raise RulesError(f"ruleset {spec}: its bases form a loop ({base_spec} again)")
    base = read_ruleset(base_spec, folder, (*_seen, key))
    game = table.get("game", base.table.get("game", "blackjack"))
    if game != base.table.get("game", "blackjack"):
        raise RulesError(f"ruleset {spec} is for {game} but its base {base_spec} is for"
                         f" {base.table.get('game', 'blackjack')}")
    merged = {**base.table, **table, "game": game}
    if "description" not in table:
        merged["description"] = f"{name}: {base.table['name']} with {', '.join(own) or 'no'}"\
            " changes"
    inherited = {k: v for k, v in base.sources.items() if k not in own}
    return RulesetTable(merged, {**base.set_by, **{k: name for k in own}},
                        {**inherited, **sources})


def _check_sources(spec: str, sources: Mapping[str, str], game: str | None) -> None:
    """A ``[sources]`` key must be a field of the game (of either game when the file does
    not say which: its base decides, and build_rules checks the fields themselves)."""
    classes = [_RULES_CLASSES[game]] if game in _RULES_CLASSES else list(
        _RULES_CLASSES.values())
    names = {f.name for cls in classes for f in dataclasses.fields(cls)}
    for key in sources:
        if key not in names:
            raise RulesError(f"ruleset {spec}: [sources] names {key!r}, which is not a rules"
                             " field")


def load_ruleset(spec: str) -> dict[str, Any]:
    """The table of a built-in ruleset name or of a ruleset file path, its bases merged
    in (:func:`read_ruleset`).

    >>> load_ruleset("deluxe")["game"]
    'blackjack'
    """
    return read_ruleset(spec).table


def blackjack_rules(
    spec: str = DEFAULT_BLACKJACK, overrides: Sequence[str] = (),
    decks: int | str | None = None,
) -> BlackjackRules:
    """Load a blackjack ruleset (built-in name or TOML path), then apply overrides.

    ``decks`` is short for the override ``decks=N`` (``"inf"``: an infinite deck).
    """
    table = load_ruleset(spec)
    game = table.get("game", "blackjack")
    if game != "blackjack":
        raise RulesError(f"ruleset {spec!r} is for {game}, not blackjack")
    extra = [*overrides, *([f"decks={decks}"] if decks is not None else [])]
    return build_rules(BlackjackRules, table, extra)


_RULES_CLASSES: dict[str, type] = {"blackjack": BlackjackRules, "baccarat": BaccaratRules}
"""The rules record of each game (the fields a ruleset without a base must set)."""


def baccarat_rules(
    spec: str = DEFAULT_BACCARAT, overrides: Sequence[str] = (),
    decks: int | str | None = None,
) -> BaccaratRules:
    """Load a baccarat ruleset (built-in name or TOML path), then apply ``FIELD=VALUE`` overrides.

    ``decks`` is short for the override ``decks=N``.

    >>> baccarat_rules("macau-baccarat", ["tie_pays=9:1"], decks=6).tie_pays
    9.0
    >>> baccarat_rules("deluxe")
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: ruleset 'deluxe' is for blackjack, not baccarat
    """
    table = load_ruleset(spec)
    game = table.get("game", "baccarat")
    if game != "baccarat":
        raise RulesError(f"ruleset {spec!r} is for {game}, not baccarat")
    extra = [*overrides, *([f"decks={decks}"] if decks is not None else [])]
    return build_rules(BaccaratRules, table, extra, game="baccarat")
