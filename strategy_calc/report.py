"""Rendering of results: JSON objects for other tools, text tables for people."""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from strategy_calc.blackjack import ACTIONS, OUTCOMES, HandAnalysis


def hand_dict(result: HandAnalysis) -> dict[str, Any]:
    """The ``hand --json`` object (the CLI contract's keys)."""
    return {
        "rules": result.rules.name,
        "decks": result.rules.decks,
        "hand": [str(c) for c in result.hand],
        "up": str(result.up),
        "conditioned_on_no_dealer_blackjack": result.conditioned_on_no_dealer_blackjack,
        "ev": {a: result.ev[a] for a in ACTIONS},
        "best": result.best,
        "dealer": {k: result.dealer[k] for k in OUTCOMES},
        "suits_known": result.suits_known,
        "ruleset": str(result.rules),
    }


def hand_json(result: HandAnalysis) -> str:
    """One JSON object, keys as in the CLI contract."""
    return json.dumps(hand_dict(result))


def render(*items: Any) -> str:
    """Render rich renderables to a string (plain text, no colour codes)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False)
    for item in items:
        console.print(item)
    return buffer.getvalue().rstrip("\n")


def hand_text(result: HandAnalysis) -> str:
    """A table of every action's EV (best marked) and the dealer's outcome probabilities."""
    cond = ("given the dealer has no blackjack" if result.conditioned_on_no_dealer_blackjack
            else "dealer blackjack risk included (no hole card)")
    hand = ",".join(str(c) for c in result.hand)
    title = f"{hand} vs {result.up}  ({result.rules}; EV per unit initial bet, {cond})"
    actions = Table(title=title, title_justify="left")
    actions.add_column("action")
    actions.add_column("EV", justify="right")
    actions.add_column("")
    for action in ACTIONS:
        value = result.ev[action]
        shown = "-" if value is None else f"{value:+.6f}"
        actions.add_row(action.replace("_", " "), shown, "<- best" if action == result.best else "")
    dealer = Table(title=f"dealer outcomes with {result.up} up", title_justify="left")
    for key in OUTCOMES:
        dealer.add_column(key, justify="right")
    dealer.add_row(*(f"{result.dealer[k]:.6f}" for k in OUTCOMES))
    notes = [f"note: {n}" for n in result.notes]
    return render(actions, dealer, *notes)
