"""One hand: ``hand``, ``behind`` and the ``sidebet`` commands."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from strategy_calc.blackjack.split.strategies import SplitStrategy
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import (
    boxes_off_the_top,
    dump_json,
    guarded_memory,
    progress_bar,
    removed_cards,
    respond,
    warn_slow_split,
)

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

CardsArg = Annotated[str, typer.Argument(
    metavar="CARDS", help="The player's cards, e.g. T,6 or A,7 or 6s,7s.")]
VsOpt = Annotated[str, typer.Option(
    "--vs", metavar="UP", help="The dealer's up card, e.g. T or A.")]


@command(commands, "hand", "strategy-calc hand T,6 --vs T",
         "strategy-calc hand 8,8 --vs A --rules deluxe --json",
         "strategy-calc hand 6s,7s --vs 2 --rules macau-1983 --removed 8s")
def hand_command(
    cards: CardsArg,
    vs: VsOpt,
    *,
    game: opt.ShoeRuleset,
    removed: opt.RemovedOpt = None,
    postsplit: Annotated[bool, typer.Option(
        "--postsplit", help="Also value a split where the second hand uses the first "
        "hand's cards (slower).")] = False,
    split_strategy: opt.SplitStrategyOpt = SplitStrategy.CDP1,
    memory_limit: opt.MemoryLimitOpt = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Also give the dealer's outcomes, standing and insurance as exact "
        "fractions.")] = False,
    boxes: opt.BoxesOpt = None,
    output: opt.Output,
) -> None:
    """Every action's exact EV for one blackjack hand against an up card."""
    as_json = output.json
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.game import boxes_dict, boxes_text
    from strategy_calc.render.hand import hand_json, hand_text

    def compute() -> tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any, Any]:
        ruleset, start = game.with_shoe()
        if postsplit and not _is_pair(cards):
            print(f"warning: --postsplit has no effect: {cards} is not a pair",
                  file=sys.stderr)
        if boxes is not None:
            from strategy_calc.blackjack.boxes import check_boxes

            check_boxes(boxes)
        from strategy_calc.blackjack.cost import hand_cost
        from strategy_calc.cards import parse_cards

        ranks = tuple(int(card.rank) for card in parse_cards(cards))
        warn_slow_split(ruleset, split_strategy, "this pair",
                        hand_cost(ruleset, ranks, split_strategy))
        with progress_bar("the optimal split") as tick:
            result = blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed),
                                            postsplit=postsplit, outcomes=True, shoe=start,
                                            split_strategy=split_strategy, progress=tick)
        by_suits = None if result.suits_known else blackjack.hand_by_suits(
            cards, vs, ruleset, removed_cards(removed), shoe=start, split_strategy=split_strategy)
        fig = None
        if boxes is not None:
            fig = boxes_off_the_top(ruleset, start, boxes, removed_cards(removed))
        if not exact:
            return result, None, fig, by_suits
        from strategy_calc.blackjack.exact import hand_exact

        return result, hand_exact(result), fig, by_suits

    def render(done: tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any, Any]) -> str:
        result, fractions, fig, by_suits = done
        if as_json:
            text = hand_json(result, fractions, by_suits)
            return text if fig is None else dump_json({**json.loads(text), **boxes_dict(fig)})
        text = hand_text(result, fractions, by_suits)
        return text if fig is None else text + "\n" + boxes_text(fig)

    with guarded_memory(memory_limit):
        respond(compute, render)


def _is_pair(cards: str) -> bool:
    """Whether ``cards`` are two cards of one rank (what ``--postsplit`` values)."""
    from strategy_calc.cards import parse_cards

    parsed = parse_cards(cards)
    return len(parsed) == 2 and parsed[0].rank == parsed[1].rank


@command(commands, "behind", "strategy-calc behind T,T --vs 6 --rules deluxe")
def behind_command(
    cards: Annotated[str, typer.Argument(
        metavar="CARDS", help="The seat's cards, e.g. 5,6 or 8,8.")],
    vs: Annotated[str, typer.Option("--vs", metavar="UP", help="The dealer's up card.")],
    *,
    game: opt.ShoeRuleset,
    removed: opt.RemovedOpt = None,
    output: opt.Output,
) -> None:
    """Bet behind: the follower's EV of each choice when the seat doubles or splits."""
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.hand import behind_dict, behind_text

    def compute() -> blackjack.HandAnalysis:
        ruleset, start = game.with_shoe()
        return blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed), shoe=start)

    respond(compute, output.render(
        behind_dict, lambda result: behind_text(result, behind_dict(result))))


sidebet_app = typer.Typer(
    help="Side bets: 'pair' gives the exact odds and EV of the Deluxe pair side bet (the"
    " first two cards a pair; mixed, coloured and perfect pairs) for any shoe.",
    no_args_is_help=True, rich_markup_mode=None)


commands.add_typer(sidebet_app, name="sidebet")


@command(sidebet_app, "pair", "strategy-calc sidebet pair --rules deluxe",
         "strategy-calc sidebet pair --rules deluxe --removed 8,8 --json")
def sidebet_pair_command(
    *,
    game: opt.Ruleset,
    removed: opt.RemovedOpt = None,
    output: opt.Output,
) -> None:
    """Exact EV of the pair side bet on the first two cards, for any shoe."""
    from strategy_calc.blackjack.pair_bet import PairOdds, analyse_pair
    from strategy_calc.render.hand import pair_dict, pair_text

    def compute() -> PairOdds:
        return analyse_pair(game.load(), removed_cards(removed))

    respond(compute, output.render(pair_dict, pair_text))
