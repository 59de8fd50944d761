"""One hand: ``hand``, ``behind`` and the ``sidebet`` commands."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.cli.options import (
    BoxesOpt,
    DecksOpt,
    FormatOpt,
    JsonOpt,
    RemovedOpt,
    RulesOpt,
    SetOpt,
    ShoeOpt,
    SplitStrategyOpt,
    examples,
)
from strategy_calc.cli.respond import (
    _box_figures,
    dump_json,
    json_or_text,
    load_rules,
    progress_bar,
    removed_cards,
    respond,
    wants_json,
    warn_slow_split,
    with_shoe,
)

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@commands.command(
    short_help="Every action's exact EV for one hand",
    epilog=examples(
    'strategy-calc hand T,6 --vs T',
    'strategy-calc hand 8,8 --vs A --rules deluxe --json',
    'strategy-calc hand 6s,7s --vs 2 --rules macau-1983 --removed 8s'))
def hand(
    cards: Annotated[str, typer.Argument(help="The player's cards, e.g. T,6 or A,7 or 6s,7s.")],
    vs: Annotated[str, typer.Option("--vs", help="The dealer's up card, e.g. T or A.")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    removed: RemovedOpt = None,
    postsplit: Annotated[bool, typer.Option(
        "--postsplit", help="Also value a split where the second hand uses the first "
        "hand's cards (slower).")] = False,
    split_strategy: SplitStrategyOpt = "cdp1",
    exact: Annotated[bool, typer.Option(
        "--exact", help="Also give the dealer's outcomes, standing and insurance as exact "
        "fractions.")] = False,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
    boxes: BoxesOpt = None,
) -> None:
    """Every action's exact EV for one blackjack hand against an up card."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.game import boxes_dict, boxes_text
    from strategy_calc.render.hand import hand_json, hand_text

    def compute() -> tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any]:
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        if boxes is not None:
            from strategy_calc.blackjack.boxes import check_boxes

            check_boxes(boxes)
        warn_slow_split(ruleset, split_strategy, "this pair")
        with progress_bar("the optimal split") as tick:
            result = blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed),
                                            postsplit=postsplit, outcomes=True, shoe=start,
                                            split_strategy=split_strategy, progress=tick)
        fig = None
        if boxes is not None:
            fig = _box_figures(ruleset, start, boxes, removed_cards(removed))
        if not exact:
            return result, None, fig
        from strategy_calc.blackjack.exact import hand_exact

        return result, hand_exact(result), fig

    def render(done: tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any]) -> str:
        result, fractions, fig = done
        if as_json:
            text = hand_json(result, fractions)
            if fig is None:
                return text
            return dump_json({**json.loads(text), **boxes_dict(fig)})
        text = hand_text(result, fractions)
        return text if fig is None else text + "\n" + boxes_text(fig)

    respond(compute, render)


@commands.command(
    short_help="Bet behind: the follower's choices",
    epilog=examples('strategy-calc behind T,T --vs 6 --rules deluxe'))
def behind(
    cards: Annotated[str, typer.Argument(help="The seat's cards, e.g. 5,6 or 8,8.")],
    vs: Annotated[str, typer.Option("--vs", help="The dealer's up card.")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    removed: RemovedOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bet behind: the follower's EV of each choice when the seat doubles or splits."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.hand import behind_dict, behind_text

    def compute() -> blackjack.HandAnalysis:
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        return blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed), shoe=start)

    respond(compute, json_or_text(as_json, behind_dict,
                                  lambda result: behind_text(
                                      result, behind_dict(result))))


sidebet_app = typer.Typer(
    help="Side bets: 'pair' gives the exact odds and EV of the Deluxe pair side bet (the"
    " first two cards a pair; mixed, coloured and perfect pairs) for any shoe.",
    no_args_is_help=True, rich_markup_mode=None)


commands.add_typer(sidebet_app, name="sidebet",
                   short_help="Side bets: the Deluxe pair bet's exact EV")


@sidebet_app.command("pair", epilog=examples(
    "strategy-calc sidebet pair --rules deluxe",
    "strategy-calc sidebet pair --rules deluxe --removed 8,8 --json"))
def sidebet_pair(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    removed: RemovedOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact EV of the pair side bet on the first two cards, for any shoe."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack.pair_bet import PairOdds, analyse_pair
    from strategy_calc.render.hand import pair_dict, pair_text

    def compute() -> PairOdds:
        return analyse_pair(load_rules(rules, set_, decks), removed_cards(removed))

    respond(compute, json_or_text(as_json, pair_dict, pair_text))
