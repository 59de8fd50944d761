"""Side bets counted (``count --sidebets``, both games): their JSON and table, shared by
the blackjack and baccarat count reports."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.render.text import estimate_dict, finite, se_text

if TYPE_CHECKING:
    from rich.table import Table

    from strategy_calc.counting.sidebets import SideBetCount


def counted_sidebets_dict(counted: Mapping[str, SideBetCount]) -> dict[str, Any]:
    """``count --sidebets``' JSON: per bet, the share of rounds bet, the mean exact EV of
    the rounds bet, the win per 100 rounds dealt (and what the bets placed actually won).

    >>> from strategy_calc.counting.sampling import Estimate
    >>> from strategy_calc.counting.sidebets import SideBetCount
    >>> none = SideBetCount(0.0, None, Estimate(0.0, 0.0), Estimate(0.0, 0.0), -0.07)
    >>> counted_sidebets_dict({"21+3": none})["21+3"]["ev_per_round_bet"] is None
    True
    """
    return {name: {"share_bet": c.share_bet, "ev_per_round_bet": finite(c.ev_per_round_bet),
                   "win_per_100": estimate_dict(c.win_per_100),
                   "realised_per_100": estimate_dict(c.realised_per_100),
                   "ev_off_the_top": c.ev_off_the_top,
                   **({} if c.trigger is None else {"trigger": _trigger_dict(c)})}
            for name, c in counted.items()}


def _trigger_dict(c: SideBetCount) -> dict[str, Any]:
    """A triggered bet's ``trigger``: its tags (A, 2 .. 9, T; ``red_seven`` a red seven's
    under Red 7), level, kind, system, and the exact-EV rule's win on the same rounds."""
    t = c.trigger
    assert t is not None
    best = c.exact_ev_rule_per_100
    return {"tags": [int(v) if v == int(v) else v for v in t.tags], "at": t.at,
            "kind": t.kind, "system": t.system,
            **({} if t.red_seven is None else {"red_seven": t.red_seven}),
            "exact_ev_rule_win_per_100": None if best is None else estimate_dict(best)}


def counted_sidebets_table(counted: Mapping[str, SideBetCount]) -> Table:
    """``count --sidebets``' text: one row per bet."""
    from rich.table import Table

    table = Table(title="side bets: one unit when the exact EV for the cards unseen is"
                  " positive; win per 100 rounds dealt, +- one standard error",
                  title_justify="left")
    for name in ("side bet", "EV off top", "bet on", "EV when bet", "win/100", "+-",
                 "won/100", "+-"):
        table.add_column(name, justify="left" if name == "side bet" else "right")
    for name, c in counted.items():
        ev = c.ev_per_round_bet
        if c.trigger is not None:
            t, best = c.trigger, c.exact_ev_rule_per_100
            rule = "" if best is None else f"; exact-EV rule {best.value:+.4f}/100"
            name = f"{name} ({t.system or 'tags'} {t.kind} count >= {t.at:g}{rule})"
        table.add_row(name, f"{100 * c.ev_off_the_top:+.3f}%", f"{100 * c.share_bet:.2f}%",
                      "-" if ev is None else f"{100 * ev:+.2f}%",
                      f"{c.win_per_100.value:+.4f}", se_text(c.win_per_100.se),
                      f"{c.realised_per_100.value:+.4f}", se_text(c.realised_per_100.se))
    return table
