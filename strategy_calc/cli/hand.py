"""One hand: ``hand``, ``behind`` and the ``sidebet`` commands (``sidebet NAME``, ``--list``,
``pair``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.blackjack.split.strategies import SplitStrategy
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command, examples, spread
from strategy_calc.cli.respond import (
    boxes_off_the_top,
    dump_json,
    fail,
    guarded_memory,
    progress_bar,
    removed_cards,
    respond,
    warn_slow_split,
)

if TYPE_CHECKING:
    from strategy_calc.sidebets.exact import SideBetOdds
    from strategy_calc.sidebets.paytables import SideBet

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

SideBetFileOpt = opt.SideBetFileOpt
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
    yes: opt.YesOpt = False,
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
                        hand_cost(ruleset, ranks, split_strategy), yes)
        with progress_bar("the optimal split") as tick:
            result = blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed),
                                            postsplit=postsplit, outcomes=True, shoe=start,
                                            split_strategy=split_strategy, progress=tick,
                                            removed_seen=True)
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
        return blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed), shoe=start,
                                      removed_seen=True)

    respond(compute, output.render(
        behind_dict, lambda result: behind_text(result, behind_dict(result))))


sidebet_app = typer.Typer(rich_markup_mode=None)
"""``sidebet``: ``sidebet NAME`` (short for ``sidebet bet NAME``: the root's
:func:`~strategy_calc.cli.root.routed`) prices a side bet, ``sidebet --list`` lists them,
``sidebet pair`` is the ruleset's pair bet."""

commands.add_typer(sidebet_app, name="sidebet", invoke_without_command=True,
                   no_args_is_help=False)


@sidebet_app.callback(epilog=examples(
    "strategy-calc sidebet --list", "strategy-calc sidebet 21+3 --decks 6",
    "strategy-calc sidebet lucky-ladies --decks 6 --removed Qh,A --json"))
@spread
def sidebet_command(
    ctx: typer.Context,
    *,
    listed: Annotated[bool, typer.Option(
        "--list", help="List the side bets (built-in and --sidebet files) and their pay"
        " tables.")] = False,
    files: SideBetFileOpt = None,
    output: opt.Output,
) -> None:
    """Side bets of both games, exact for any shoe: sidebet NAME (a built-in such as 21+3,
    lucky-ladies, buster or, at baccarat, lucky6, or one of a --sidebet FILE) gives every pay
    line's probability, the EV, house edge and SD; sidebet --list lists them; sidebet pair
    is the ruleset's pair bet (rules field pair_bet).
    """
    if ctx.invoked_subcommand is not None:
        if listed or files or output != opt.Output():
            raise fail(f"the options before '{ctx.invoked_subcommand}' are the list's"
                       f" (strategy-calc sidebet --list): give sidebet"
                       f" {ctx.invoked_subcommand}'s after it")
        return
    if not listed:
        raise fail("sidebet needs a side bet's name (strategy-calc sidebet NAME; sidebet"
                   " --list lists them) or a command, one of: pair, bet")
    from strategy_calc.render.sidebets import sidebet_list_dict, sidebet_list_text
    from strategy_calc.sidebets.paytables import BUILTIN_FILES, builtin_sidebet, read_sidebet

    def compute() -> list[SideBet]:
        return ([builtin_sidebet(name) for name in BUILTIN_FILES]
                + [read_sidebet(path) for path in files or []])

    respond(compute, output.render(sidebet_list_dict, sidebet_list_text))


@command(sidebet_app, "bet", "strategy-calc sidebet 21+3 --decks 6",
         "strategy-calc sidebet lucky-ladies --rules deluxe --removed Qh,Qh,A --eor",
         "strategy-calc sidebet 21+3 --paytable version-3 --decks 6 --json",
         "strategy-calc sidebet lucky6 --rules macau-baccarat --removed 6,6,7",
         "strategy-calc sidebet my-bet --sidebet my-bet.toml")
def sidebet_bet_command(
    name: Annotated[str, typer.Argument(
        metavar="NAME", help="The side bet: a built-in (strategy-calc sidebet --list lists"
        " them) or one of a --sidebet FILE.")],
    *,
    game: opt.Ruleset,
    shoe: Annotated[str | None, typer.Option(
        "--shoe", metavar="A=N,...,K=N", help="The shoe per face, every face A, 2..9, T, J,"
        " Q, K once (suits unknown, each equally likely), instead of --decks.")] = None,
    removed: opt.RemovedOpt = None,
    paytable: Annotated[str | None, typer.Option(
        "--paytable", metavar="NAME", help="One of the bet's other pay tables (sidebet"
        " --list names them).")] = None,
    files: SideBetFileOpt = None,
    eor: Annotated[bool, typer.Option(
        "--eor", help="Add the effect on the EV of removing one card of each face (and of"
        " each face and suit, in the JSON).")] = False,
    output: opt.Output,
) -> None:
    """Exact odds of a side bet for any shoe: each pay line's probability, the EV, house
    edge and SD per unit bet (sidebet NAME is short for sidebet bet NAME). --rules is a
    ruleset of the bet's game: blackjack (macau-1983 the default) or baccarat
    (macau-baccarat the default)."""
    from strategy_calc.errors import InputError
    from strategy_calc.render.sidebets import sidebet_dict, sidebet_text
    from strategy_calc.sidebets import exact
    from strategy_calc.sidebets.paytables import find_sidebet

    cards = removed_cards(removed)

    def compute() -> tuple[SideBetOdds, str, str, Any]:
        bet = find_sidebet(name, tuple(files or ()))
        if shoe is not None and game.decks is not None:
            raise InputError("give --shoe or --decks, not both")
        rules, decks, bet = sidebet_ruleset(bet, game)
        odds = exact.price(bet, exact.make_shoe(decks, cards, shoe), paytable)
        return odds, rules, cards, exact.effects_of_removal(odds) if eor else None

    respond(compute, output.render(lambda done: sidebet_dict(*done),
                                   lambda done: sidebet_text(*done)))


def sidebet_ruleset(bet: SideBet, game: opt.Ruleset) -> tuple[str, int, SideBet]:
    """The name and decks of the ruleset a side bet is priced under: ``--rules`` (``--set``,
    ``--decks``) of the bet's game, its default one if not given; a ruleset of the other
    game is an error. Then the bet under that ruleset's dealer (a blackjack bet on the
    dealer's whole hand reads whether he hits soft 17: the sidebets' ``exact.for_dealer``)."""
    from strategy_calc.rules import DEFAULT_BACCARAT, RulesError, baccarat_rules
    from strategy_calc.sidebets.exact import for_dealer

    try:
        if bet.event.game == "baccarat":
            rules = baccarat_rules(game.rules or DEFAULT_BACCARAT, game.set_ or [], game.decks)
            return rules.name, rules.decks, bet
        blackjack = game.load()
    except RulesError as exc:
        raise RulesError(f"{bet.name} is a {bet.event.game} side bet: {exc}") from None
    return (blackjack.name, blackjack.finite_decks(f"the {bet.name} side bet"),
            for_dealer(bet, blackjack.dealer_hits_soft_17))


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
