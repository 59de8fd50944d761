"""One hand's renderings: ``hand``, ``behind`` and the pair side bet."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.actions import ACTIONS, OUTCOMES
from strategy_calc.blackjack.split.strategies import SPLIT_STRATEGIES
from strategy_calc.cards import Rank
from strategy_calc.errors import InputError
from strategy_calc.render.text import render

if TYPE_CHECKING:
    from strategy_calc.blackjack.hand_analysis import HandAnalysis, SuitReading
    from strategy_calc.blackjack.pair_bet import PairOdds


def hand_dict(
    result: HandAnalysis, by_suits: Mapping[str, SuitReading] | None = None
) -> dict[str, Any]:
    """The ``hand --json`` object (the CLI contract's keys).

    ``by_suits`` (``null`` unless the suits decide a bonus and were not all given):
    ``{"suited" | "mixed" | "average": {"cards", "ev", "best"}}``, the average being the
    hand's own figures (the bonus averaged over the suits the shoe may hold).
    """
    return {
        "rules": result.rules.name,
        "decks": result.rules.decks,
        "hand": [str(c) for c in result.hand],
        "up": str(result.up),
        "conditioned_on_no_dealer_blackjack": result.conditioned_on_no_dealer_blackjack,
        "ev": {a: result.ev[a] for a in ACTIONS},
        "best": result.best,
        "dealer": {k: result.dealer[k] for k in OUTCOMES if k in result.dealer},
        "suits_known": result.suits_known,
        "ruleset": str(result.rules),
        "autoplay_ev": result.autoplay,
        "tens_proportion": result.shoe.count(Rank.TEN) / result.shoe.total,
        "insurance_break_even_tens": 1 / 3,
        "split_strategy": result.split_strategy,
        "split_strategy_description": SPLIT_STRATEGIES[result.split_strategy],
        "split_postsplit": result.split_postsplit,
        "outcomes": ({a: (dict(o) if o is not None else None)
                      for a, o in result.outcomes.items()}
                     if result.outcomes is not None else None),
        "second_moments": (dict(result.second_moments)
                           if result.second_moments is not None else None),
        "notes": list(result.notes),
        "by_suits": _by_suits_dict(result, by_suits),
    }


def _by_suits_dict(
    result: HandAnalysis, by_suits: Mapping[str, SuitReading] | None
) -> dict[str, Any] | None:
    if not by_suits:
        return None
    out = {name: {"cards": [str(c) for c in r.cards], "ev": {a: r.ev[a] for a in ACTIONS},
                  "best": r.best} for name, r in by_suits.items()}
    out["average"] = {"cards": [str(c) for c in result.hand],
                      "ev": {a: result.ev[a] for a in ACTIONS}, "best": result.best}
    return out


BEHIND_SITUATIONS = (
    ("double", "the seat doubles", ("follow_double", "no_follow_double")),
    ("split", "the seat splits", ("follow_both_splits", "follow_first_split")),
)
"""The situations a bet-behind follower decides in, each with its two choices."""


def behind_dict(result: HandAnalysis) -> dict[str, Any]:
    """The follower's choices in ``behind --json``: each situation with its own best.

    EVs per unit of the follower's initial bet. When the seat doubles, the
    follower may double too (``follow_double``) or keep the bet, the third card
    then acting as a single hit (``no_follow_double``); when the seat splits,
    the follower may follow both hands (``follow_both_splits``, an extra bet)
    or only the first (``follow_first_split``). The two situations exclude
    each other, so each has its ``best_after_*`` and ``margin_after_*`` (what
    the best choice adds over the other); ``null`` where the seat cannot act.
    """
    values: dict[str, float | None] = dict.fromkeys(
        key for _s, _l, keys in BEHIND_SITUATIONS for key in keys)
    if result.ev["double"] is not None and result.one_card is not None:
        values["follow_double"] = result.ev["double"]
        values["no_follow_double"] = result.one_card
    if result.split_hands is not None:
        values["follow_both_splits"] = result.split_hands[0] + result.split_hands[1]
        values["follow_first_split"] = result.split_hands[0]
    if all(v is None for v in values.values()):
        raise InputError(f"the seat cannot double or split {','.join(map(str, result.hand))}"
                         f" under {result.rules.name}: the follower has no choice to make")
    out: dict[str, Any] = dict(values)
    for situation, _label, (first, second) in BEHIND_SITUATIONS:
        a, b = values[first], values[second]
        if a is None or b is None:
            out[f"best_after_{situation}"] = out[f"margin_after_{situation}"] = None
            continue
        out[f"best_after_{situation}"] = first if a >= b else second
        out[f"margin_after_{situation}"] = abs(a - b)
    out["conditioned_on_no_dealer_blackjack"] = result.conditioned_on_no_dealer_blackjack
    out["hand"] = [str(c) for c in result.hand]
    out["up"] = str(result.up)
    out["rules"] = result.rules.name
    out["decks"] = result.rules.decks
    out["ruleset"] = str(result.rules)
    return out


def behind_text(result: HandAnalysis, choices: Mapping[str, Any]) -> str:
    """One table per situation the seat can be in, each choice's EV, its best marked."""
    from rich.table import Table

    hand = ",".join(str(c) for c in result.hand)
    header = (f"bet behind {hand} vs {result.up}: {result.rules}\n"
              "EV per unit of the follower's initial bet; the situations exclude each other")
    tables = []
    for situation, label, keys in BEHIND_SITUATIONS:
        if choices[f"best_after_{situation}"] is None:
            continue
        table = Table(title=f"if {label}", title_justify="left")
        table.add_column("follower's choice")
        table.add_column("EV", justify="right")
        table.add_column("vs the best", justify="right")
        best = choices[f"best_after_{situation}"]
        for key in keys:
            mark = "best" if key == best else f"-{choices[f'margin_after_{situation}']:.6f}"
            table.add_row(key.replace("_", " "), f"{choices[key]:+.6f}", mark)
        tables.append(table)
    return render(header, *tables)


def hand_json(result: HandAnalysis, exact: Mapping[str, Any] | None = None,
              by_suits: Mapping[str, SuitReading] | None = None) -> str:
    """One JSON object, keys as in the CLI contract (plus ``exact`` fractions if given)."""
    data = hand_dict(result, by_suits)
    if exact is not None:
        data["exact"] = dict(exact)
    return json.dumps(data)


def hand_text(result: HandAnalysis, exact: Mapping[str, Any] | None = None,
              by_suits: Mapping[str, SuitReading] | None = None) -> str:
    """A table of every action's EV (best marked) and the dealer's outcome probabilities;
    with ``by_suits``, the best play by the suits of the hand's cards."""
    from rich.table import Table

    peek = result.conditioned_on_no_dealer_blackjack
    cond = ("playing actions given the dealer has no blackjack (he checked); insurance and"
            " even money before the check" if peek
            else "dealer blackjack risk included (no hole card)")
    hand = ",".join(str(c) for c in result.hand)
    header = f"{hand} vs {result.up}: {result.rules}\nEV per unit initial bet, {cond}"
    actions = Table()
    actions.add_column("action")
    actions.add_column("EV", justify="right")
    outcomes = result.outcomes
    if outcomes is not None:
        for name in ("win", "push", "lose"):
            actions.add_column(f"P({name})", justify="right")
    actions.add_column("best")
    for action in ACTIONS:
        value = result.ev[action]
        shown = "-" if value is None else f"{value:+.6f}"
        row = [action.replace("_", " "), shown]
        if outcomes is not None:
            o = outcomes.get(action)
            row += [f"{o[k]:.4f}" for k in ("win", "push", "lose")] if o else ["", "", ""]
        actions.add_row(*row, "<-" if action == result.best else "")
    dealer = Table(title=f"dealer outcomes with {result.up} up", title_justify="left")
    keys = [k for k in OUTCOMES if k in result.dealer]  # ("22" only where it pushes)
    for key in keys:
        dealer.add_column(key, justify="right")
    dealer.add_row(*(f"{result.dealer[k]:.6f}" for k in keys))
    notes = [f"note: {n}" for n in result.notes]
    if result.ev["split"] is not None:
        notes.append(f"split strategy {result.split_strategy}:"
                     f" {SPLIT_STRATEGIES[result.split_strategy]}")
    if result.split_postsplit is not None:
        notes.append(f"split, second hand also using the first hand's cards:"
                     f" {result.split_postsplit:+.6f}")
    if result.ev["insurance"] is not None:
        tens = result.shoe.count(Rank.TEN) / result.shoe.total
        notes.append(f"insurance: tens are {tens:.4f} of the cards left; it pays when more than"
                     f" 1/3 ({'take it' if tens > 1 / 3 else 'decline'})")
    if exact is not None:
        notes.append(f"exact: stand {exact['stand']}"
                     + (f", insurance {exact['insurance']}" if exact["insurance"] else ""))
        notes.append("exact dealer: " + ", ".join(f"{k}={v}" for k, v in exact["dealer"].items()))
    return render(header, actions, dealer, *notes, *_by_suits_lines(result, by_suits))


def _by_suits_lines(
    result: HandAnalysis, by_suits: Mapping[str, SuitReading] | None
) -> list[str]:
    data = _by_suits_dict(result, by_suits)
    if data is None:
        return []
    names = {"suited": "one suit", "mixed": "mixed suits", "average": "suits not given"}
    bests = {r["best"] for r in data.values()}
    lines = ["the best play by suits" + (" (it depends on them):" if len(bests) > 1 else ":")]
    for name, r in data.items():
        ev = r["ev"][r["best"]]
        lines.append(f"  {names[name]:<16} {','.join(r['cards']):<10} {r['best']:<10} {ev:+.6f}")
    return lines


def pair_dict(odds: PairOdds) -> dict[str, Any]:
    """The ``sidebet pair --json`` object: the CLI contract's ``ev``, ``probabilities``
    and ``pays`` (``no_pair``: -1), plus ``rules``, ``decks``, ``removed``, ``table``,
    ``ruleset`` (the slug), ``cards_left`` and ``exact`` (``"numerator/denominator"``
    strings of the probabilities and the EV).

    >>> from strategy_calc.rules import blackjack_rules
    >>> from strategy_calc.blackjack.pair_bet import analyse_pair
    >>> data = pair_dict(analyse_pair(blackjack_rules("deluxe", ["pair_bet=any"])))
    >>> data["pays"], data["exact"]["ev"]
    ({'pair': 11.0, 'no_pair': -1.0}, '-43/415')
    """
    probabilities = odds.exact_probabilities()
    ev = odds.exact_ev()
    return {
        "rules": odds.rules.name,
        "decks": odds.rules.decks,
        "removed": list(odds.removed),
        "table": odds.table,
        "ev": float(ev),
        "probabilities": {k: float(v) for k, v in probabilities.items()},
        "pays": {k: float(v) for k, v in odds.payouts().items()},
        "cards_left": odds.shoe.cards_left,
        "ruleset": str(odds.rules),
        "exact": {
            "ev": str(ev),
            "probabilities": {k: str(v) for k, v in probabilities.items()},
        },
    }


_OUTCOME_NAMES = {
    "perfect": "perfect pair (same suit)",
    "coloured": "coloured pair (same colour)",
    "mixed": "mixed pair (red and black)",
    "pair": "pair (same rank)",
    "no_pair": "no pair",
}


def pair_text(odds: PairOdds) -> str:
    """A readable report: one row per outcome (pays, probability, share of the EV), then the EV.

    >>> from strategy_calc.rules import blackjack_rules
    >>> from strategy_calc.blackjack.pair_bet import analyse_pair
    >>> print(pair_text(analyse_pair(blackjack_rules("deluxe"))).splitlines()[-1])
    EV -0.040964 per unit side bet (house edge 4.0964%; exact -17/415)
    """
    from rich import box
    from rich.table import Table

    name = "perfect pairs" if odds.table == "perfect" else "any pair"
    removed = ",".join(odds.removed) or "none"
    title = f"Pair side bet, {name} table  |  {odds.rules}"
    shoe = (f"{odds.shoe.cards_left} of {52 * odds.rules.decks} cards left"
            f" (removed: {removed}); EV per unit side bet")
    probabilities = odds.exact_probabilities()
    pays = odds.payouts()
    table = Table(box=box.SIMPLE_HEAD)
    for header in ("first two cards", "pays", "probability", "exact", "EV share"):
        table.add_column(header, justify="left" if header == "first two cards" else "right")
    for outcome in odds.outcomes:
        shown = "loses" if outcome == "no_pair" else f"{float(pays[outcome]):g}:1"
        p = probabilities[outcome]
        table.add_row(_OUTCOME_NAMES[outcome], shown, f"{float(p):.6f}", str(p),
                      f"{float(p * pays[outcome]):+.6f}")
    ev = odds.exact_ev()
    return render(title, shoe, table, f"EV {float(ev):+.6f} per unit side bet"
                  f" (house edge {-float(ev):.4%}; exact {ev})")
