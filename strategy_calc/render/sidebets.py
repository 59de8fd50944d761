"""Side bets' renderings: ``sidebet NAME`` and ``sidebet --list``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from strategy_calc.render.text import finite, render

if TYPE_CHECKING:
    from strategy_calc.sidebets.exact import Removal, SideBetOdds
    from strategy_calc.sidebets.paytables import SideBet

Effects = tuple[tuple["Removal", ...], tuple["Removal", ...]]


def sidebet_dict(odds: SideBetOdds, rules: str, removed: str,
                 eor: Effects | None = None) -> dict[str, Any]:
    """The ``sidebet NAME --json`` object: the CLI contract's ``bet``, ``rules``, ``decks``,
    ``ev``, ``house_edge``, ``sd`` (per unit bet) and ``lines`` (per line, best first, then
    ``lose``: ``probability`` and ``pays``), plus ``paytable``, ``removed``, ``cards_left``
    and, with ``--eor``, ``eor``: ``{"faces": {FACE: effect}, "cards": {CARD: effect}}``
    (the EV less one card of the face, suit unknown, or of the face and suit, minus the
    shoe's EV; ``null`` for a card the shoe does not hold)."""
    pays = odds.pays
    data: dict[str, Any] = {
        "bet": odds.bet.name,
        "rules": rules,
        "decks": odds.shoe.decks,
        "ev": odds.ev,
        "house_edge": odds.house_edge,
        "sd": odds.sd,
        "lines": {line: {"probability": p, "pays": pays[line]}
                  for line, p in odds.probabilities.items()},
        "paytable": odds.paytable,
        "removed": [c for c in removed.replace(" ", ",").split(",") if c],
        "cards_left": odds.shoe.cards_left,
    }
    if eor is not None:
        faces, cards = eor
        data["eor"] = {"faces": {r.card: finite(r.effect) for r in faces},
                       "cards": {r.card: finite(r.effect) for r in cards}}
    return data


def sidebet_text(odds: SideBetOdds, rules: str, removed: str,
                 eor: Effects | None = None) -> str:
    """A readable report: one row per line (pays, probability, share of the EV), the EV,
    house edge and SD; with ``--eor`` the effect of removing one card of each face."""
    from rich import box
    from rich.table import Table

    bet = odds.bet
    title = (f"{bet.name} ({bet.event.name}), pay table {odds.paytable}  |  {rules},"
             f" {odds.shoe.decks} decks")
    shoe = (f"{odds.shoe.cards_left} of {52 * odds.shoe.decks} cards left (removed:"
            f" {removed or 'none'}); per unit side bet")
    table = Table(box=box.SIMPLE_HEAD)
    for header in ("line", "pays", "probability", "EV share"):
        table.add_column(header, justify="left" if header == "line" else "right")
    pays = odds.pays
    for line, p in odds.probabilities.items():
        shown = "loses" if pays[line] == -1 else f"{pays[line]:g}:1"
        table.add_row(line, shown, f"{p:.8f}", f"{p * pays[line]:+.6f}")
    items: list[Any] = [title, shoe, table,
                        f"EV {odds.ev:+.6f} per unit side bet (house edge"
                        f" {odds.house_edge:.4%}), SD {odds.sd:.4f}"]
    if eor is not None:
        effects = Table(box=box.SIMPLE_HEAD, title="Effect on the EV of removing one card"
                        " (suit unknown)")
        effects.add_column("card")
        effects.add_column("EV change", justify="right")
        for r in eor[0]:
            effects.add_row(r.card, "-" if r.effect is None else f"{r.effect * 100:+.5f}%")
        items.append(effects)
    return render(*items)


def sidebet_list_dict(bets: list[SideBet]) -> dict[str, Any]:
    """``sidebet --list --json``: per bet, its event and the game that deals it,
    description, pay tables (default first) and sources."""
    return {bet.name: {"event": bet.event.name, "game": bet.event.game,
                       "description": bet.description,
                       "default": bet.default,
                       "paytables": {name: {line: float(p) for line, p in table.items()}
                                     for name, table in bet.paytables.items()},
                       "sources": bet.sources}
            for bet in bets}


def sidebet_list_text(bets: list[SideBet]) -> str:
    """``sidebet --list``: one row per bet, its description and pay tables (the default
    first).

    >>> from strategy_calc.sidebets.paytables import builtin_sidebet
    >>> "version-3" in sidebet_list_text([builtin_sidebet("21+3")])
    True
    """
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD)
    for header in ("bet", "what it is", "pay tables"):
        table.add_column(header, overflow="fold" if header == "bet" else "ellipsis",
                         no_wrap=header == "bet")
    for bet in bets:
        tables = [bet.default, *(t for t in bet.paytables if t != bet.default)]
        table.add_row(bet.name, bet.description, ", ".join(tables))
    return render("Side bets (strategy-calc sidebet NAME; sidebet pair is the ruleset's pair"
                  " bet):", table)
