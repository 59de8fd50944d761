"""Baccarat: every bet's odds, and a counted run of shoes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.render.counted_sidebets import counted_sidebets_dict, counted_sidebets_table
from strategy_calc.render.text import estimate_dict, finite, render, se_text
from strategy_calc.rules import BET_NAMES, BETS
from strategy_calc.rules.shoe import SHOE_FIELDS

if TYPE_CHECKING:
    from fractions import Fraction

    from strategy_calc.baccarat.odds import BaccaratOdds
    from strategy_calc.counting.baccarat import BaccaratCount


def odds_dict(
    odds: BaccaratOdds,
    eor: Mapping[str, Mapping[str, Fraction] | None] | None = None,
    exact: bool = False,
) -> dict[str, Any]:
    """The ``baccarat --json`` object: the CLI contract's keys, plus ``ruleset`` (the
    slug), ``payouts`` (the rules' fields), ``counts`` (the exact integers) and, when
    ``exact``, ``exact`` (the same figures as ``"numerator/denominator"`` strings)."""
    from dataclasses import asdict

    ev = odds.exact_ev()
    out: dict[str, Any] = {
        "rules": odds.rules.name,
        "decks": odds.rules.decks,
        "removed": list(odds.removed),
        "probabilities": odds.probabilities,
        "ev": {bet: float(v) for bet, v in ev.items()},
        "best": odds.best,
        "best_is_positive": odds.best_is_positive,
        "ruleset": str(odds.rules),
        "payouts": {k: v for k, v in asdict(odds.rules).items() if k not in SHOE_FIELDS},
        "cards_left": odds.cards_left,
        "counts": {
            "deals": odds.deals, "banker": odds.banker_wins, "player": odds.player_wins,
            "tie": odds.ties, "banker_on_six": odds.banker_wins_on_six,
            "player_pair": odds.player_pairs, "banker_pair": odds.banker_pairs,
        },
    }
    if eor is not None:
        out["eor"] = {rank: None if d is None else {bet: float(v) for bet, v in d.items()}
                      for rank, d in eor.items()}
    if exact:
        probabilities = odds.exact_probabilities()
        out["exact"] = {
            "probabilities": {b: str(probabilities[b]) for b in ("banker", "player", "tie")},
            "ev": {bet: str(v) for bet, v in ev.items()},
        }
        if eor is not None:
            out["exact"]["eor"] = {
                rank: None if d is None else {bet: str(v) for bet, v in d.items()}
                for rank, d in eor.items()}
    return out


def _pays(value: Fraction) -> str:
    """A payout as odds: ``8:1``, ``1:2``, ``0.95:1``.

    >>> from fractions import Fraction
    >>> _pays(Fraction(8)), _pays(Fraction(1, 2)), _pays(Fraction(19, 20))
    ('8:1', '1:2', '0.95:1')
    """
    if value.denominator == 1:
        return f"{value.numerator}:1"
    if value.numerator == 1:
        return f"1:{value.denominator}"
    return f"{float(value):g}:1"


def odds_text(
    odds: BaccaratOdds,
    eor: Mapping[str, Mapping[str, Fraction] | None] | None = None,
    exact: bool = False,
) -> str:
    """A readable report: a table of every bet, the best bet, optional fractions and EOR."""
    from rich import box
    from rich.table import Table

    rules = odds.rules
    removed = ",".join(odds.removed) or "none"
    title = (f"{rules}  |  {odds.cards_left} of {52 * rules.decks} cards left"
             f" (removed: {removed})")
    pays = {
        "banker": _pays(rules.payout("banker_pays")) + (
            f" (6: {_pays(rules.payout('banker_six_pays'))})"
            if rules.banker_six_pays != rules.banker_pays else ""),
        "player": _pays(rules.payout("player_pays")),
        "tie": _pays(rules.payout("tie_pays")),
        "player_pair": _pays(rules.payout("player_pair_pays")),
        "banker_pair": _pays(rules.payout("banker_pair_pays")),
    }
    probabilities = odds.exact_probabilities()
    ev = odds.exact_ev()
    table = Table(box=box.SIMPLE_HEAD)
    for header in ("bet", "pays", "P(win)", "EV per unit bet", "house edge", ""):
        table.add_column(header, justify="left" if header in ("bet", "pays", "") else "right")
    for bet in BETS:
        table.add_row(BET_NAMES[bet], pays[bet], f"{float(probabilities[bet]):.6f}",
                      f"{float(ev[bet]):+.6f}", f"{-float(ev[bet]):.4%}",
                      "<- best" if bet == odds.best else "")
    best = odds.best
    verdict = ("positive expectation for this shoe" if odds.best_is_positive
               else "no bet has positive expectation for this shoe")
    lines: list[Any] = [
        title,
        table,
        f"Player and Banker bets push on a tie (P(tie) = {float(probabilities['tie']):.6f}).",
        f"Best bet: {BET_NAMES[best]}, EV {float(ev[best]):+.6f} per unit bet: {verdict}.",
    ]
    if exact:
        lines.append("Exact (ordered 6-card deals, unused cards counted as dealt):")
        lines.append(f"  deals = {odds.deals}; banker wins = {odds.banker_wins}, player wins = "
                     f"{odds.player_wins}, ties = {odds.ties}, pairs = {odds.player_pairs}")
        for bet in ("banker", "player", "tie"):
            lines.append(f"  P({bet}) = {probabilities[bet]}")
        for bet in BETS:
            lines.append(f"  EV({bet}) = {ev[bet]}")
    if eor is not None:
        lines.append("Effect of removing one card of each rank: change of EV, % of the bet")
        effects = Table(box=box.SIMPLE_HEAD)
        effects.add_column("rank")
        for bet in BETS:
            effects.add_column(BET_NAMES[bet], justify="right")
        for rank, delta in eor.items():
            cells = (["-"] * len(BETS) if delta is None
                     else [f"{100 * float(delta[bet]):+.5f}" for bet in BETS])
            effects.add_row(rank, *cells)
        lines.append(effects)
    return render(*lines)


def baccarat_count_dict(result: BaccaratCount) -> dict[str, Any]:
    """The baccarat ``count --format json`` object (the keys are a CLI contract)."""
    r = result.rules
    proc = result.shoe_procedure
    return {
        "rules": r.name, "decks": r.decks, "ruleset": str(r), "shoes": result.shoes,
        "seed": result.seed, "cut_card": result.cut_card if proc.fixed_cut
        and proc.shuffle != "continuous" else None, "hands": result.hands,
        "bets": {bet: {
            "ev_off_the_top": b.ev_off_the_top,
            "positive_share": b.positive_share,
            "mean_edge_when_positive": finite(b.mean_edge_when_positive),
            "win_per_shoe": estimate_dict(b.win_per_shoe),
            "linear_count_win_per_shoe": estimate_dict(b.linear_count_win_per_shoe),
        } for bet, b in result.bets.items()},
        "shoe_procedure": proc.as_dict(),
        **({} if result.sidebets is None else {
            "sidebets": counted_sidebets_dict(result.sidebets)}),
    }


def baccarat_count_text(result: BaccaratCount) -> str:
    """The baccarat ``count`` report: one row per bet."""
    from rich.table import Table

    r = result.rules
    head = (f"{r}; {result.shoes} shoes (seed {result.seed}), {result.hands} hands;"
            f" {result.shoe_procedure.describe()}; each hand's EV exact for the cards"
            " not yet seen")
    table = Table(title="per unit bet; win per shoe in units, +- one standard error",
                  title_justify="left")
    for name in ("bet", "EV off top", "EV > 0", "edge then", "win/shoe", "+-",
                 "linear count", "+-"):
        table.add_column(name, justify="left" if name == "bet" else "right")
    for bet, b in result.bets.items():
        edge = b.mean_edge_when_positive
        win, lin = b.win_per_shoe, b.linear_count_win_per_shoe
        table.add_row(BET_NAMES[bet], f"{100 * b.ev_off_the_top:+.3f}%",
                      f"{100 * b.positive_share:.2f}%",
                      f"{100 * edge:+.2f}%" if edge is not None else "-",
                      f"{win.value:+.4f}", se_text(win.se), f"{lin.value:+.4f}", se_text(lin.se))
    note = ("EV > 0: share of hands with a positive exact EV; win/shoe: units won per shoe by"
            " betting 1 unit on exactly those hands (perfect information); linear count: on"
            " the hands a linear count from the effects of removal calls positive")
    if result.sidebets is not None:
        return render(head, table, note, counted_sidebets_table(result.sidebets))
    return render(head, table, note)
