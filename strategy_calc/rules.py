"""Rulesets: one immutable value per game variant, loaded from TOML.

The built-in rulesets are TOML files shipped in ``strategy_calc/rulesets``;
a user's own file has the same shape (``game``, ``name``, ``description`` and
one key per field). Single fields can be overridden with ``FIELD=VALUE``
strings, as the CLI's ``--set`` does.

>>> rules = blackjack_rules("macau-1983")
>>> rules.hole_card, rules.decks, rules.double_on
('enhc', 6, '11')
>>> str(blackjack_rules("deluxe", ["decks=2", "surrender=late"]))
'deluxe: 2D S17 peek 3:2 DA DAS split-2 LS'
>>> blackjack_rules("deluxe", ["max_split=3"])
Traceback (most recent call last):
...
strategy_calc.rules.RulesError: unknown field 'max_split' for blackjack rules
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import pkgutil
import tomllib
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from strategy_calc.cards import CardError, check_decks
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from fractions import Fraction


class RulesError(InputError):
    """An unknown ruleset, an unknown field or an invalid value (the message names it)."""


HoleCard = Literal["peek", "enhc"]
EnhcLoses = Literal["all", "original"]
DoubleOn = Literal["any", "9-11", "10-11", "11", "none"]
_DOUBLE_TOTALS: dict[str, tuple[int, int]] = {
    "any": (0, 21), "9-11": (9, 11), "10-11": (10, 11), "11": (11, 11), "none": (1, 0)}
"""The best two-card totals each ``double_on`` allows (low, high): :meth:`may_double`."""
Surrender = Literal["none", "late", "early", "not_vs_ace", "2-9", "late_vs_ten_ace"]
PairTable = Literal["none", "any", "perfect"]

@dataclass(frozen=True, slots=True)
class Ruleset:
    """A built-in ruleset: its name, its game and the package TOML file that holds it."""

    name: str
    game: Literal["blackjack", "baccarat"]
    file: str
    description: str
    aliases: tuple[str, ...] = ()


RULESETS: tuple[Ruleset, ...] = (
    Ruleset("macau-1983", "blackjack", "macau-1983.toml",
            "Macau's approved blackjack rules (1983): no hole card, double on 11, suited "
            "6-7-8 / 7-7-7 bonus", ("macau",)),
    Ruleset("deluxe", "blackjack", "deluxe.toml",
            "Deluxe live-dealer blackjack: 8 decks, peek, surrender vs 2-9, pair side bet"),
    Ruleset("macau-baccarat", "baccarat", "macau-baccarat.toml",
            "Macau baccarat: Banker 5% commission, Tie 8:1, pairs 11:1", ("baccarat",)),
)
"""Every built-in ruleset, in one registry (:func:`find_ruleset` looks names up)."""

BUILTIN_RULESETS: dict[str, str] = {r.name: r.file for r in RULESETS}
"""Built-in ruleset names and the package file that holds each."""


def _builtin(name: str) -> Ruleset | None:
    """The built-in ruleset called ``name`` (case-insensitive; aliases allowed), or None."""
    key = name.strip().lower()
    return next((r for r in RULESETS if key == r.name or key in r.aliases), None)


def find_ruleset(name: str, game: str | None = None) -> Ruleset:
    """The built-in ruleset called ``name`` (case-insensitive; aliases allowed).

    ``game``: also require it to be of that game.

    >>> find_ruleset("Deluxe").file, find_ruleset("macau").name
    ('deluxe.toml', 'macau-1983')
    >>> find_ruleset("deluxe", game="baccarat")
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: ruleset 'deluxe' is for blackjack, not baccarat
    """
    ruleset = _builtin(name)
    if ruleset is not None:
        if game is not None and ruleset.game != game:
            raise RulesError(f"ruleset {ruleset.name!r} is for {ruleset.game}, not {game}")
        return ruleset
    names = ", ".join(r.name for r in RULESETS if game is None or r.game == game)
    raise RulesError(f"unknown ruleset {name!r}: the built-in ones are {names}")


DEFAULT_BLACKJACK = "macau-1983"


@dataclass(frozen=True, slots=True)
class BlackjackRules:
    """The rules of one blackjack game; every field is a ruleset option.

    Payouts are multiples of the bet. ``str(rules)`` is a stable short slug.
    """

    name: str = "custom"
    """The ruleset's name (``macau-1983``, ``deluxe`` or the user's own)."""
    decks: int = 6
    """Number of 52-card decks in the shoe, 1 to 12."""
    single_deck_one_round: bool = False
    """With one deck (Macau's "metal box"), exactly one round is dealt per shuffle, so
    every round is dealt off the top: a counted run deals no second round and has no
    cut card. No effect with more decks."""
    dealer_hits_soft_17: bool = False
    """True: dealer hits soft 17 (H17); False: stands on all 17s (S17)."""
    hole_card: HoleCard = "peek"
    """``peek``: the dealer checks for blackjack before anyone plays and a
    blackjack ends the round at once; ``enhc``: no hole card is checked (European
    no-hole-card), the player acts without knowing."""
    enhc_loses: EnhcLoses = "all"
    """Under ``enhc``: a dealer blackjack takes every bet on the box (``all``:
    doubles and split bets too) or only the original bet (``original``: the first split
    hand's stake, the hand of the pair card given first; the second hand's stake and
    every double are returned. With suits known the two hands can differ, so the order a
    suited pair is given in can change the split's EV: ``hand`` says so)."""
    blackjack_pays: float = 1.5
    """What a player blackjack wins, per unit bet."""
    double_on: DoubleOn = "any"
    """Which first two cards may be doubled: ``any``, totals ``9-11``,
    ``10-11``, ``11`` only (hard, as a two-card A+T is blackjack), or ``none``."""
    double_after_split: bool = True
    """Whether a split hand may be doubled (under the same ``double_on``)."""
    hand_of_21_stands: bool = False
    """A hand that reaches 21 stands at once, split hands and a blackjack included: it
    is never doubled, nor (a blackjack) surrendered (Deluxe: "a hand reaching 21 stands
    automatically")."""
    max_split_hands: int = 2
    """Most hands a player may hold after splitting: 1 = no split, 2 = split once, up to 4."""
    resplit_aces: bool = False
    """Whether split aces may be split again (within ``max_split_hands``)."""
    split_aces_one_card: bool = True
    """Split aces get exactly one card each."""
    surrender: Surrender = "none"
    """``none``; ``late`` (lost whole to a dealer blackjack); ``early`` (half
    back even against a dealer blackjack); ``not_vs_ace`` (Macau: any up card but
    an ace, decided before the dealer draws, so early); ``2-9`` (Deluxe: only
    against 2-9, where the dealer cannot have blackjack); ``late_vs_ten_ace`` (late,
    only against a ten or an ace: the game of Wizard of Odds' effects-of-removal table,
    docs/REFERENCE.md)."""
    insurance: bool = True
    """Insurance (half the bet, pays 2:1) is offered against an ace."""
    even_money: bool = False
    """A player blackjack may take 1:1 at once against an ace."""
    even_money_vs_ten: bool = False
    """Even money is offered against a ten too (Macau's 1991 amendment)."""
    bonus_suited_678: float = 0.0
    """Payout (multiple of the bet) of a three-card suited 6-7-8; 0 = none."""
    bonus_777: float = 0.0
    """Payout (multiple of the bet) of a three-card 7-7-7; 0 = none."""
    bonus_on_split_hands: bool = True
    """Whether the 6-7-8 / 7-7-7 bonuses count on split hands."""
    pair_bet: PairTable = "none"
    """Pair side bet on the player's first two cards: ``none``; ``any`` (any
    same-rank pair pays ``pair_pays_any``); ``perfect`` (perfect pairs: mixed
    colours / same colour / same suit pay the three ``pair_pays_*`` below)."""
    pair_pays_any: float = 11.0
    """Any-pair table: payout of a same-rank pair (J-J yes, J-Q no)."""
    pair_pays_mixed: float = 6.0
    """Perfect-pairs table: same rank, one red and one black."""
    pair_pays_coloured: float = 12.0
    """Perfect-pairs table: same rank and colour, different suits."""
    pair_pays_perfect: float = 25.0
    """Perfect-pairs table: same rank and suit."""

    def __post_init__(self) -> None:
        _check_choices(self)
        try:
            check_decks(self.decks)
        except CardError as exc:
            raise RulesError(str(exc)) from None
        if not 1 <= self.max_split_hands <= 4:
            raise RulesError(f"max_split_hands must be 1 to 4, not {self.max_split_hands}")
        for field in ("blackjack_pays", "bonus_suited_678", "bonus_777", "pair_pays_any",
                      "pair_pays_mixed", "pair_pays_coloured", "pair_pays_perfect"):
            value = getattr(self, field)
            if not math.isfinite(value) or value < 0:
                raise RulesError(f"{field} must be a finite number >= 0, not {value}")


    @property
    def peek(self) -> bool:
        """True when the dealer checks for blackjack before the players act."""
        return self.hole_card == "peek"

    @property
    def has_bonus(self) -> bool:
        """True when either of the suited 6-7-8 / 7-7-7 bonuses is paid."""
        return self.bonus_suited_678 > 0 or self.bonus_777 > 0

    # ---- rule predicates: the one place each rule's meaning is spelled out

    def may_double(self, total: int) -> bool:
        """Whether a first-two-card hand of best total ``total`` may be doubled.

        >>> BlackjackRules(double_on="9-11").may_double(9)
        True
        >>> BlackjackRules(double_on="11").may_double(10)
        False
        """
        if total == 21 and self.hand_of_21_stands:
            return False
        low, high = _DOUBLE_TOTALS[self.double_on]
        return low <= total <= high

    def may_surrender(self, up: int) -> bool:
        """Whether a two-card initial hand may surrender against up card ``up`` (1..10).

        >>> BlackjackRules(surrender="2-9").may_surrender(10)
        False
        >>> BlackjackRules(surrender="not_vs_ace").may_surrender(10)
        True
        >>> [BlackjackRules(surrender="late_vs_ten_ace").may_surrender(up) for up in (1, 9, 10)]
        [True, False, True]
        """
        if self.surrender == "none":
            return False
        if self.surrender == "not_vs_ace":
            return up != 1
        if self.surrender == "2-9":
            return 2 <= up <= 9
        if self.surrender == "late_vs_ten_ace":
            return up in (1, 10)
        return True

    def offers_insurance(self, up: int) -> bool:
        """Whether insurance is offered against up card ``up`` (1..10): against an ace.

        >>> BlackjackRules().offers_insurance(1), BlackjackRules().offers_insurance(10)
        (True, False)
        """
        return self.insurance and up == 1

    def offers_even_money(self, up: int) -> bool:
        """Whether a player blackjack may take 1:1 at once against up card ``up`` (1..10).

        >>> macau = BlackjackRules(even_money=True, even_money_vs_ten=True)
        >>> macau.offers_even_money(10), BlackjackRules(even_money=True).offers_even_money(10)
        (True, False)
        """
        return self.even_money and (up == 1 or (up == 10 and self.even_money_vs_ten))

    @property
    def surrender_loses_to_blackjack(self) -> bool:
        """Late surrender: decided after the peek, so a dealer blackjack takes the whole bet;
        every other kind gives half the bet back regardless."""
        return self.surrender in ("late", "late_vs_ten_ace")

    def dealer_blackjack_takes(self, second_split_hand: bool = False) -> tuple[float, float]:
        """What an ENHC dealer blackjack takes from a standing hand: (on a bet of 1, doubled).

        Under ``enhc_loses = "original"`` only the original bet (the first
        hand's stake) is lost; a second split hand and every double are returned.

        >>> BlackjackRules(enhc_loses="original").dealer_blackjack_takes(second_split_hand=True)
        (0.0, 0.0)
        """
        if self.enhc_loses == "all":
            return 1.0, 2.0
        return (0.0, 0.0) if second_split_hand else (1.0, 1.0)

    def split_aces_take_one_card(self, pair_is_ace: bool) -> bool:
        """Whether each hand of this split takes exactly one card (split aces)."""
        return pair_is_ace and self.split_aces_one_card

    def split_hands_may_double(self, pair_is_ace: bool) -> bool:
        """Double after split, for this pair: never on one-card split aces."""
        return self.double_after_split and not self.split_aces_take_one_card(pair_is_ace)

    def __str__(self) -> str:
        parts = [
            f"{self.decks}D",
            "H17" if self.dealer_hits_soft_17 else "S17",
            "peek" if self.peek else f"ENHC-{self.enhc_loses}",
            _payout_slug(self.blackjack_pays),
            {"any": "DA", "none": "ND"}.get(self.double_on, "D" + self.double_on),
            "DAS" if self.double_after_split else "NDAS",
            f"split-{self.max_split_hands}" + ("-RSA" if self.resplit_aces else ""),
        ]
        surrender = {"none": "", "late": "LS", "early": "ES", "not_vs_ace": "ES-not-A",
                     "2-9": "LS-2-9", "late_vs_ten_ace": "LS-T-A"}[self.surrender]
        if surrender:
            parts.append(surrender)
        if self.has_bonus:
            parts.append(f"bonus-{self.bonus_suited_678:g}/{self.bonus_777:g}")
        return f"{self.name}: " + " ".join(parts)


def inert_overrides(rules: BlackjackRules, overrides: Sequence[str]) -> list[str]:
    """Warnings for ``--set`` fields that change nothing under the resulting rules.

    >>> inert_overrides(blackjack_rules("deluxe"), ["enhc_loses=all"])
    ['enhc_loses has no effect in a peek game (hole_card = "peek")']
    """
    set_fields = {item.partition("=")[0].strip() for item in overrides}
    reasons = {
        "enhc_loses": (rules.peek, 'in a peek game (hole_card = "peek")'),
        "resplit_aces": (rules.max_split_hands <= 2, "when max_split_hands <= 2 (no resplit)"),
        "split_aces_one_card": (rules.max_split_hands < 2, "when max_split_hands = 1 (no split)"),
        "double_after_split": (rules.max_split_hands < 2 or rules.double_on == "none",
                               "without splits or doubles (max_split_hands = 1 or"
                               ' double_on = "none")'),
        "bonus_on_split_hands": (not rules.has_bonus, "without a bonus (both bonuses are 0)"),
        "even_money_vs_ten": (not rules.even_money, "when even_money = false"),
        "single_deck_one_round": (rules.decks > 1, "with more than one deck"),
    }
    return [f"{field} has no effect {why}" for field, (inert, why) in reasons.items()
            if field in set_fields and inert]


def double_allowed_totals(rules: BlackjackRules) -> tuple[int, ...]:
    """22 flags: entry ``t`` is 1 when a first-two-card best total ``t`` may be doubled.

    >>> [t for t, ok in enumerate(double_allowed_totals(BlackjackRules(double_on="10-11"))) if ok]
    [10, 11]
    """
    return tuple(1 if rules.may_double(t) else 0 for t in range(22))


def _payout_slug(pays: float) -> str:
    """``1.5`` -> ``3:2``, ``1.2`` -> ``6:5``, otherwise the number."""
    for num, den in ((3, 2), (6, 5), (1, 1), (2, 1), (7, 5)):
        if abs(pays - num / den) < 1e-12:
            return f"{num}:{den}"
    return f"{pays:g}:1"


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A rules class's resolved field types (``typing.get_type_hints``, about 0.2 ms: once
    per class, not per rules value or ruleset read). Callers must not change the dict."""
    return typing.get_type_hints(cls)


@functools.cache
def _choice_fields(cls: type) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """``(field, choices)`` of each ``Literal`` field of a rules class, in field order
    (every rules value checks them)."""
    hints = _hints(cls)
    return tuple((field.name, typing.get_args(hints[field.name]))
                 for field in dataclasses.fields(cls)
                 if typing.get_origin(hints[field.name]) is Literal)


def _check_choices(value: Any) -> None:
    """Reject a value of a ``Literal`` field outside its choices, naming the field."""
    cls: type = type(value)
    for name, choices in _choice_fields(cls):
        if getattr(value, name) not in choices:
            raise RulesError(
                f"invalid value {getattr(value, name)!r} for {name}"
                f" (choose from {', '.join(map(str, choices))})"
            )


def _coerce(field: str, hint: Any, raw: Any, from_text: bool) -> Any:
    """Convert ``raw`` (a TOML value, or a string from ``--set``) to the field's type."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        text = str(raw).strip().lower() if from_text else str(raw)
        if text not in typing.get_args(hint):
            raise RulesError(
                f"invalid value {raw!r} for {field}"
                f" (choose from {', '.join(typing.get_args(hint))})"
            )
        return text
    if hint is bool:
        if isinstance(raw, bool):
            return raw
        if from_text and str(raw).lower() in ("true", "yes", "1", "on"):
            return True
        if from_text and str(raw).lower() in ("false", "no", "0", "off"):
            return False
        raise RulesError(f"invalid value {raw!r} for {field} (expected true or false)")
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
    hints = _hints(rules_class)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kind = game or cls.__name__.removesuffix("Rules").lower()
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key in META_KEYS:
            continue
        if key not in names:
            raise RulesError(f"unknown field {key!r} for {kind} rules")
        values[key] = _coerce(key, hints[key], raw, from_text=False)
    for item in overrides:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise RulesError(f"--set needs FIELD=VALUE, not {item!r}")
        if key not in names:
            raise RulesError(f"unknown field {key!r} for {kind} rules")
        values[key] = _coerce(key, hints[key], raw.strip(), from_text=True)
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
    builtin = _builtin(spec)
    if builtin is not None:
        # through the package's loader (a zipped install too), without importlib.resources
        # (its import, zipfile and tempfile among it, costs `edge` about 2 ms; issue 29)
        data = pkgutil.get_data("strategy_calc.rulesets", builtin.file)
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
    key = str((folder / base_spec).resolve()) if folder is not None and _builtin(
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
    spec: str = DEFAULT_BLACKJACK, overrides: Sequence[str] = (), decks: int | None = None
) -> BlackjackRules:
    """Load a blackjack ruleset (built-in name or TOML path), then apply overrides.

    ``decks`` is short for the override ``decks=N``.
    """
    table = load_ruleset(spec)
    game = table.get("game", "blackjack")
    if game != "blackjack":
        raise RulesError(f"ruleset {spec!r} is for {game}, not blackjack")
    extra = [*overrides, *([f"decks={decks}"] if decks is not None else [])]
    return build_rules(BlackjackRules, table, extra)


BETS: tuple[str, ...] = ("banker", "player", "tie", "player_pair", "banker_pair")
"""The baccarat bets, in display order (also the tie-break order of
:attr:`strategy_calc.baccarat.BaccaratOdds.best`)."""

BET_NAMES: dict[str, str] = {
    "banker": "Banker", "player": "Player", "tie": "Tie",
    "player_pair": "Player Pair", "banker_pair": "Banker Pair",
}
"""Display names of :data:`BETS`."""

DEFAULT_BACCARAT = "macau-baccarat"
"""The built-in baccarat ruleset used when none is named."""



@dataclass(frozen=True, slots=True)
class BaccaratRules:
    """The rules of one baccarat game: the shoe size and the payouts.

    A payout is what a winning bet wins per unit bet (the stake comes back on
    top); it is read exactly as the nearest fraction with a denominator up to
    10**6 (0.95 is 19/20). Player and Banker bets push on a tie.
    ``str(rules)`` is a stable short slug.

    >>> str(BaccaratRules(name="no-commission", banker_pays=1, banker_six_pays=0.5))
    'no-commission: 8D P1 B1/6:0.5 T8 PP11 BP11'
    >>> BaccaratRules(tie_pays=-1)
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: tie_pays must be a number >= 0, not -1
    """

    name: str = "custom"
    """The ruleset's name (``macau-baccarat`` or the user's own)."""
    decks: int = 8
    """Number of 52-card decks in the full shoe, 1 to 12."""
    player_pays: float = 1.0
    """What a winning Player bet wins, per unit bet (1 = 1:1)."""
    banker_pays: float = 0.95
    """What a winning Banker bet wins, per unit bet, commission taken (0.95 = 1:1 less 5%)."""
    banker_six_pays: float = 0.95
    """What a Banker bet winning with a point of 6 wins, per unit bet. Set it
    equal to ``banker_pays`` for no special rule; commission-free games pay 0.5
    (1:2) with ``banker_pays = 1``."""
    tie_pays: float = 8.0
    """What a winning Tie bet wins, per unit bet (8 = 8:1)."""
    player_pair_pays: float = 11.0
    """What a Player Pair bet wins (Player's first two cards of one rank), per unit bet."""
    banker_pair_pays: float = 11.0
    """What a Banker Pair bet wins (Banker's first two cards of one rank), per unit bet."""

    def __post_init__(self) -> None:
        try:
            check_decks(self.decks)
        except CardError as exc:
            raise RulesError(str(exc)) from None
        for field in ("player_pays", "banker_pays", "banker_six_pays", "tie_pays",
                      "player_pair_pays", "banker_pair_pays"):
            value = getattr(self, field)
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or value < 0):
                raise RulesError(f"{field} must be a number >= 0, not {value!r}")

    def payout(self, field: str) -> Fraction:
        """The exact payout of a ``*_pays`` field, per unit bet.

        >>> BaccaratRules().payout("banker_pays")
        Fraction(19, 20)
        """
        from fractions import Fraction  # here: only baccarat's exact odds need it

        return Fraction(getattr(self, field)).limit_denominator(10**6)

    def __str__(self) -> str:
        banker = f"B{self.banker_pays:g}"
        if self.banker_six_pays != self.banker_pays:
            banker += f"/6:{self.banker_six_pays:g}"
        return (f"{self.name}: {self.decks}D P{self.player_pays:g} {banker}"
                f" T{self.tie_pays:g} PP{self.player_pair_pays:g} BP{self.banker_pair_pays:g}")


_RULES_CLASSES: dict[str, type] = {"blackjack": BlackjackRules, "baccarat": BaccaratRules}
"""The rules record of each game (the fields a ruleset without a base must set)."""


def baccarat_rules(
    spec: str = DEFAULT_BACCARAT, overrides: Sequence[str] = (), decks: int | None = None
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


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One rules field of a ruleset: its value, what it means and what it may be."""

    name: str
    value: Any
    meaning: str
    allowed: str
    source: str
    """The rule text the field comes from (the ruleset's ``[sources]`` table), or ""."""
    set_by: str = ""
    """The ruleset that set the value: the file itself, or the base it inherits it from."""


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """A ruleset described field by field (:func:`describe_ruleset`)."""

    name: str
    game: str
    description: str
    summary: str
    fields: tuple[FieldInfo, ...]


def _field_docs(cls: type) -> dict[str, str]:
    """Each dataclass field's docstring (the string literal under its annotation)."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs = {}
    for a, b in itertools.pairwise(body.body):
        if (isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
                and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)):
            docs[a.target.id] = " ".join(b.value.value.split())
    return docs


def _allowed(name: str, hint: Any) -> str:
    if typing.get_origin(hint) is Literal:
        return ", ".join(map(str, typing.get_args(hint)))
    if hint is bool:
        return "true, false"
    if name == "decks":
        return "1 to 12"
    if name == "max_split_hands":
        return "1 to 4"
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number, or a ratio such as 6:5"
    return "text"


def describe_ruleset(spec: str) -> RulesetInfo:
    """Every field of a ruleset (built-in name or TOML file) with its value and meaning.

    >>> info = describe_ruleset("deluxe")
    >>> field = next(f for f in info.fields if f.name == "surrender")
    >>> field.value, field.allowed
    ('2-9', 'none, late, early, not_vs_ace, 2-9, late_vs_ten_ace')
    >>> field.source
    'only vs 2-9, on the first two cards'
    """
    read = read_ruleset(spec)
    table = read.table
    game = table.get("game", "blackjack")
    rules: Any = blackjack_rules(spec) if game == "blackjack" else baccarat_rules(spec)
    cls = type(rules)
    hints = typing.get_type_hints(cls)
    docs = _field_docs(cls)
    fields = tuple(FieldInfo(f.name, getattr(rules, f.name), docs.get(f.name, ""),
                             _allowed(f.name, hints[f.name]), read.sources.get(f.name, ""),
                             read.set_by.get(f.name, ""))
                   for f in dataclasses.fields(cls) if f.name != "name")
    return RulesetInfo(rules.name, game, str(table.get("description", "")), str(rules), fields)
