"""Exact blackjack expectations for one hand: the public face of the engine.

Every figure is an exact enumeration over the cards left in the shoe (floats,
proved against a rational oracle in the tests). EVs are per unit initial bet.

Conditioning on the dealer's blackjack
--------------------------------------
*ENHC* games (no hole card checked, e.g. ``macau-1983``): EVs are plain
expectations that include the risk of a dealer blackjack, which takes the
doubled and split bets too under ``enhc_loses = "all"``.

*Peek* games (e.g. ``deluxe``): EVs are **given the dealer has no blackjack**.
Two ways to compute that exist:

- the *exact* one (the default here): the hole card is a real card, dealt
  before the player draws and known not to complete a blackjack, so the
  player's cards are conditioned on it too. We compute E[payoff * 1{no dealer
  blackjack}] with the hole card drawn last (it is exchangeable with the
  player's draws), so a bust is worth -P(no blackjack | cards left then), and
  divide by P(no blackjack) at the moment of the decision;
- the common *shortcut* (``peek_method="shortcut"``): the player draws from
  the shoe as if no hole card existed and standing uses the dealer
  distribution renormalised to no blackjack. It differs slightly on small shoes.

>>> from strategy_calc.rules import blackjack_rules
>>> a = analyse_hand("T,6", "T", blackjack_rules("deluxe"))
>>> a.best, a.ev["surrender"], a.ev["split"]  # deluxe: surrender vs 2-9 only
('hit', None, None)
"""

from __future__ import annotations

import array
import contextlib
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from strategy_calc import actions, engine
from strategy_calc.actions import ACTIONS, OUTCOMES
from strategy_calc.blackjack.bonus import bonus_terms, suit_readings
from strategy_calc.blackjack.hand_rules import AUTOPLAY_POLICY, best_play, hand_total, is_natural
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.strategies import check_split_strategy, computed_as
from strategy_calc.blackjack.split.values import (
    mean_split_values,
    optimal_split_ev,
    postsplit_ev,
    pre_split_codes,
    resplit_moments,
    split_values,
)
from strategy_calc.cards import (
    SUITED_RANKS,
    SUITS,
    Card,
    CardError,
    Rank,
    Shoe,
    parse_card,
    parse_cards,
)
from strategy_calc.engine import HIST_OFFSET, HIST_SIZE
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.rules.shoe import continuous_note

PeekMethod = Literal["exact", "shortcut"]
_PLAY_KEYS = tuple(a.value for a in actions.PLAY_ACTIONS)
"""The JSON keys of :data:`~strategy_calc.actions.PLAY_ACTIONS` (the others are side
decisions)."""


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """Exact EVs of every action for one hand, and the dealer's outcome probabilities.

    ``ev[action]`` is the EV per unit initial bet (``None``: not allowed). In a
    peek game the play EVs (stand, hit, double, split, surrender) are given the
    dealer has no blackjack, and so is ``dealer``; in an ENHC game everything
    is unconditioned. ``insurance`` is the EV of a full insurance bet (half the
    initial bet) alone; ``even_money`` the EV of taking 1:1 for a blackjack.
    ``suits_known`` is False when the bonus term averaged over unknown suits.
    """

    rules: BlackjackRules
    hand: tuple[Card, ...]
    up: Card
    shoe: Shoe
    conditioned_on_no_dealer_blackjack: bool
    ev: Mapping[str, float | None]
    best: str
    dealer: Mapping[str, float]
    suits_known: bool
    notes: tuple[str, ...] = ()
    autoplay: float = 0.0
    """EV of the auto-play policy (hit while 11 or less, then stand), same conditioning."""
    one_card: float | None = None
    """EV of taking exactly one card and standing on the original bet (a bet-behind
    follower who does not follow a double); None when the hand cannot double."""
    split_hands: tuple[float, float] | None = None
    """EV of the first split hand and of all the others (they sum to ``ev["split"]``)."""
    split_postsplit: float | None = None
    """Split EV when the second hand also uses the first hand's cards (one split only;
    only computed on request: ``analyse_hand(..., postsplit=True)``)."""
    split_strategy: str = "cdp1"
    """How split hands play (:data:`strategy_calc.blackjack.split.combine.SPLIT_STRATEGIES`)."""
    outcomes: Mapping[str, Mapping[str, float] | None] | None = None
    """Per playing action, the probabilities that the round's net result is a win (> 0),
    a push (0) or a loss (< 0), conditioned as :attr:`ev` is; None for an action not
    allowed (or a split with resplits). Only on request: ``analyse_hand(...,
    outcomes=True)``."""
    second_moments: Mapping[str, float | None] | None = None
    """Per playing action, E[X^2] of the round's net result X (units^2), on the scale of
    :attr:`ev` (given no dealer blackjack in a peek game; early surrender there, like its
    EV, scaled so that ``(1 - p) m + p L^2`` is its unconditioned E[X^2], ``p`` the
    chance of a dealer blackjack and ``L`` the result against one); None where
    :attr:`outcomes` is None or for a hand whose bonus is paid at once. With
    ``outcomes=True``."""
    dealer_blackjack: float = 0.0
    """P(the dealer has blackjack) for this hand's shoe and up card, unconditioned."""


def dealer_outcomes(shoe: Shoe, up: Rank, rules: BlackjackRules) -> dict[str, float]:
    """Dealer outcome probabilities for ``up`` and the cards left in ``shoe``.

    In a peek game they are given the dealer has no blackjack (``blackjack``
    is 0); in an ENHC game unconditioned.

    >>> d = dealer_outcomes(Shoe.full(1).remove([Card(Rank.SIX)]), Rank.SIX, BlackjackRules())
    >>> round(d["bust"], 6)
    0.420823
    """
    probs = engine.dealer_probs(shoe, up, engine.dealer_rule(rules))
    if sum(probs) < 1.0 - 1e-9:
        raise CardError("too few cards left for an exact answer: the dealer could run out of"
                        " cards")
    result = dict(zip(OUTCOMES, probs, strict=True))
    if not rules.dealer_22_pushes:  # (a 22 is a bust: "bust" holds it)
        del result["22"]
    if rules.peek:
        no_bj = 1.0 - result["blackjack"]
        result = {k: (v / no_bj if k != "blackjack" else 0.0) for k, v in result.items()}
    return result


def _as_cards(cards: str | Sequence[Card]) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def analyse_hand(
    cards: str | Sequence[Card],
    up: str | Card,
    rules: BlackjackRules,
    removed: str | Sequence[Card] = (),
    peek_method: PeekMethod = "exact",
    postsplit: bool = False,
    outcomes: bool = False,
    shoe: Shoe | None = None,
    split_strategy: str = "cdp1",
    progress: Callable[[int, int], None] | None = None,
    removed_seen: bool = False,
) -> HandAnalysis:
    """Exact EV of every action for the initial hand ``cards`` against ``up``.

    ``removed``: other cards known to be out of the shoe. Raises
    :class:`~strategy_calc.cards.CardError` / ``RulesError`` (``ValueError``)
    for impossible input: an unknown card, more cards of a rank than the shoe
    holds, a bust hand, fewer than two cards. ``postsplit``: also value a
    single split where the second hand uses the first hand's cards (slower).
    ``shoe``: the shoe before the deal (default: ``rules.decks`` full decks).
    ``split_strategy``: how split hands play and ``ev["split"]`` is valued, one of
    :data:`strategy_calc.blackjack.split.combine.SPLIT_STRATEGIES` (default ``cdp1``);
    ``progress(done, total)`` is called while the ``optimal`` split is computed (it can take
    seconds).
    ``outcomes``: also the win / push / loss probabilities of each action
    (:attr:`HandAnalysis.outcomes`; a split is enumerated jointly, slower).
    ``removed_seen``: the ``removed`` cards were seen, suits too (``hand`` on the command
    line): a removed 6, 7 or 8 given without a suit is averaged over the suits it may have
    (:func:`_removed_suit_cases`); else (the default, as a count's or an effect of removal's
    removals are) a removed card's suit is unknown to the player too.

    >>> from strategy_calc.rules import blackjack_rules
    >>> a = analyse_hand("A,T", "A", blackjack_rules("macau-1983"))
    >>> a.ev["even_money"], a.best
    (1.0, 'stand')
    """
    hand = _as_cards(cards)
    up_card = parse_card(up) if isinstance(up, str) else up
    gone = _as_cards(removed)
    if len(hand) < 2:
        raise CardError("a hand has at least two cards")
    start = shoe if shoe is not None else Shoe.full(rules.decks)
    if gone and start.infinite:
        raise RulesError("an infinite deck (decks = inf) has no cards to remove: drawing"
                         " with replacement, no card seen changes the next")
    cases = (_removed_suit_cases(rules, start, hand, up_card, gone) if removed_seen
             else [(1.0, gone)])
    if len(cases) > _MOST_SUIT_CASES:
        one = _analyse_hand(hand, up_card, rules, gone, peek_method, postsplit, outcomes,
                            start, split_strategy, progress)
        note = (f"the removed 6s, 7s and 8s of unknown suit have {len(cases)} readings of"
                " their suits: valued as unknown to the player (give their suits)")
        return replace(one, notes=(*one.notes, note))
    if len(cases) == 1:
        return _analyse_hand(hand, up_card, rules, cases[0][1], peek_method, postsplit,
                             outcomes, start, split_strategy, progress)
    each = [(w, _analyse_hand(hand, up_card, rules, case, peek_method, postsplit, outcomes,
                              start, split_strategy, progress)) for w, case in cases]
    return _mean_analysis(each, start.remove(gone).remove([up_card]).remove(hand))


def _removed_suit_cases(rules: BlackjackRules, start: Shoe, hand: Sequence[Card], up: Card,
                        gone: Sequence[Card]) -> list[tuple[float, tuple[Card, ...]]]:
    """The removed cards with their suits, each reading with its probability: where the
    suited 6-7-8 can be made by a hand of 6s, 7s and 8s (two or three cards), each removed
    6, 7 or 8 of unknown suit takes each suit as a uniform random subset of that rank's
    cards not known to be out would (docs/MODEL.md: the player saw the cards out, their
    suits too; the value averages over the suits not given). Else the one reading as
    given. (The caller values more than :data:`_MOST_SUIT_CASES` readings as one.)"""
    unknown = {r: sum(1 for c in gone if c.rank is r and c.suit is None) for r in SUITED_RANKS}
    if (rules.suited_678()[0] <= 0 or not any(unknown.values()) or len(hand) > 3
            or not all(c.rank in SUITED_RANKS for c in hand)):
        return [(1.0, tuple(gone))]
    pool = start.remove([c for c in (*gone, up, *hand) if c.suit is not None])
    cases: list[tuple[float, tuple[Card, ...]]] = [
        (1.0, tuple(c for c in gone if not (c.rank in SUITED_RANKS and c.suit is None)))]
    for rank, u in unknown.items():
        if not u:
            continue
        row = pool.suits[rank - 1]
        ways = math.comb(sum(row), u)
        split = [(math.prod(math.comb(n, m) for n, m in zip(row, ms, strict=True)) / ways,
                  tuple(Card(rank, SUITS[k]) for k, m in enumerate(ms) for _ in range(m)))
                 for ms in itertools.product(*(range(min(n, u) + 1) for n in row))
                 if sum(ms) == u]
        cases = [(w * v, known + more) for w, known in cases for v, more in split if v > 0]
    return cases


_MOST_SUIT_CASES = 64
"""Most readings of the removed cards' suits :func:`analyse_hand` averages over."""


def _mean_analysis(each: Sequence[tuple[float, HandAnalysis]], shoe: Shoe) -> HandAnalysis:
    """The analyses of the readings of the removed cards' suits, averaged with their
    probabilities (every figure is an expectation or a probability); the best play again
    from the averaged values."""
    first = each[0][1]
    weights = [w for w, _ in each]

    def mean(values: Sequence[object]) -> object:
        if values[0] is None or isinstance(values[0], str | bool):
            return values[0]
        if isinstance(values[0], Mapping):
            return {k: mean([v[k] for v in values]) for k in values[0]}  # type: ignore[index]
        if isinstance(values[0], tuple):
            return tuple(mean([v[i] for v in values]) for i in range(len(values[0])))  # type: ignore[index]
        return math.fsum(w * float(v) for w, v in zip(weights, values, strict=True))  # type: ignore[arg-type]

    figures = {name: mean([getattr(a, name) for _, a in each])
               for name in ("ev", "autoplay", "one_card", "split_hands", "split_postsplit",
                            "outcomes", "second_moments")}
    ev: dict[str, float | None] = figures["ev"]  # type: ignore[assignment]
    best = first.best if first.best == "even_money" else best_play(
        {actions.Action(a): v for a in _PLAY_KEYS if (v := ev[a]) is not None}).value
    note = "the removed 6s, 7s and 8s of unknown suit: averaged over their possible suits"
    return replace(first, shoe=shoe, best=best, notes=(*first.notes, note),
                   **figures)  # type: ignore[arg-type]


def _analyse_hand(hand: tuple[Card, ...], up_card: Card, rules: BlackjackRules,
                  gone: Sequence[Card], peek_method: PeekMethod, postsplit: bool,
                  outcomes: bool, start: Shoe, split_strategy: str,
                  progress: Callable[[int, int], None] | None) -> HandAnalysis:
    """:func:`analyse_hand` for one reading of the removed cards."""
    base = start.remove(gone).remove([up_card])
    shoe = base.remove(hand)  # an impossible hand is refused before it is judged bust
    ranks = [int(c.rank) for c in hand]
    total, _soft = hand_total(ranks)
    if total > 21:
        shown = ",".join(map(str, hand)) if len(hand) <= 12 else f"of {len(hand)} cards"
        raise CardError(f"the hand {shown} is bust ({total})")
    if shoe.total < 1:
        raise CardError("no cards left for the dealer")
    upr = up_card.rank
    peek = rules.peek
    conditioning = engine.Conditioning.of(rules, peek_method)
    rows, b678, q678, suits_known = bonus_terms(rules, shoe, hand, split_hand=False)
    params = engine.engine_params(rules, conditioning).with_bonus(rows, b678, q678)
    raw = engine.hand_values(base, hand, upr, params, AUTOPLAY_POLICY)
    stand, hit, double, no_bj, one_card, autoplay = raw
    p_bj = 1.0 - no_bj
    if conditioning.peek and no_bj <= 0.0:
        raise CardError(f"every card left gives the dealer blackjack with {up_card} up:"
                        " nothing to play once he has checked for one")

    def to_ev(value: float) -> float:
        return conditioning.ev(value, no_bj)

    natural = is_natural(ranks)
    two_cards = len(hand) == 2
    if natural:  # paid unless the dealer has blackjack too (the shortcut's raw is conditioned)
        stand = autoplay = rules.blackjack_pays * (
            1.0 if conditioning is engine.Conditioning.PEEK_SHORTCUT else no_bj)
    ev: dict[str, float | None] = dict.fromkeys(ACTIONS)
    ev["stand"] = to_ev(stand)
    ev["hit"] = to_ev(hit) if hit != float("-inf") else None
    bonus_note = _completed_bonus(hand, rules, q678, ev)
    if rules.may_double_hand(len(hand), total):
        ev["double"] = to_ev(double)
    strategy = check_split_strategy(split_strategy)
    computed = computed_as(strategy, rules.infinite_deck, rules.max_split_hands)
    plan = (SplitPlan.of(rules, hand[0].rank, conditioning)
            if two_cards and ranks[0] == ranks[1] else None)
    # an up card whose suit is not given: a split 6, 7 or 8 sees it (up_card_shoes)
    up_cases = (plan.up_card_shoes(base, upr)
                if plan is not None and up_card.suit is None else [(1.0, base)])
    split_hands = split_postsplit = split_codes = None
    if plan is not None:
        ev["split"], split_hands, split_postsplit, split_codes = _split_evs(
            plan, base, hand, upr, params, no_bj, computed, up_cases,
            postsplit or computed == "postsplit"
            or (strategy == "postsplit" and not plan.resplits), progress)
    if two_cards:
        _side_evs(ev, rules, shoe, upr, natural, p_bj, conditioning.peek)
    best = best_play({actions.Action(a): v for a in _PLAY_KEYS if (v := ev[a]) is not None}).value
    if ev["even_money"] is not None and rules.blackjack_pays * no_bj < 1.0:
        best = "even_money"
    won_lost = moments = None
    if outcomes:
        won_lost, moments = _outcomes(rules, base, hand, upr, params, conditioning, ev,
                                      no_bj, q678, natural, plan, split_codes, computed,
                                      up_cases)
    notes = _hand_notes(rules, hand, upr, ev, plan, bonus_note, suits_known)
    return HandAnalysis(
        rules=rules,
        hand=hand,
        up=up_card,
        shoe=shoe,
        conditioned_on_no_dealer_blackjack=peek,
        ev=ev,
        best=best,
        dealer=dealer_outcomes(shoe, upr, rules),
        suits_known=suits_known,
        notes=tuple(notes),
        autoplay=to_ev(autoplay),
        one_card=to_ev(one_card) if ev["double"] is not None else None,
        split_hands=split_hands,
        split_postsplit=split_postsplit,
        outcomes=won_lost,
        split_strategy=strategy,
        second_moments=moments,
        dealer_blackjack=p_bj,
    )


@dataclass(frozen=True, slots=True)
class SuitReading:
    """One reading of a hand's unknown suits (:func:`hand_by_suits`): the cards as valued,
    each action's EV and the best, in :class:`HandAnalysis`' units and conditioning."""

    cards: tuple[Card, ...]
    ev: Mapping[str, float | None]
    best: str


def hand_by_suits(
    cards: str | Sequence[Card],
    up: str | Card,
    rules: BlackjackRules,
    removed: str | Sequence[Card] = (),
    shoe: Shoe | None = None,
    split_strategy: str = "cdp1",
) -> dict[str, SuitReading] | None:
    """The hand valued with its 6s, 7s and 8s of one suit and of mixed suits, when the
    suited 6-7-8 bonus is paid and the suits were not all given (``None`` otherwise).

    :func:`analyse_hand` without the suits averages the bonus over the suits the shoe may
    hold, which can hide a play that depends on them: under macau-1983, 6,8 against a
    ten hits on average and suited, but surrenders with mixed suits. The readings'
    cards are :func:`~strategy_calc.blackjack.bonus.suit_readings`' (the seen cards:
    ``removed`` and the up card); a reading the shoe cannot hold is left out.

    >>> from strategy_calc.rules import blackjack_rules
    >>> readings = hand_by_suits("6,8", "T", blackjack_rules("macau-1983"))
    >>> {name: r.best for name, r in readings.items()}
    {'suited': 'hit', 'mixed': 'surrender'}
    """
    if rules.suited_678()[0] <= 0:
        return None
    up_card = parse_card(up) if isinstance(up, str) else up
    gone = _as_cards(removed)
    readings = suit_readings(_as_cards(cards), (*gone, up_card))
    if readings is None:
        return None
    out: dict[str, SuitReading] = {}
    for name, suited in readings.items():
        try:
            a = analyse_hand(suited, up_card, rules, gone, shoe=shoe,
                             split_strategy=split_strategy)
        except CardError:  # the shoe holds no such cards
            continue
        out[name] = SuitReading(suited, a.ev, a.best)
    return out or None


def _hand_notes(rules: BlackjackRules, hand: Sequence[Card], upr: Rank,
                ev: Mapping[str, float | None], plan: SplitPlan | None,
                bonus_note: str | None, suits_known: bool) -> list[str]:
    """What :class:`HandAnalysis` says beside its figures (bonus, split order, a split the
    rules forbid, suits averaged, a continuous shuffler)."""
    notes = [bonus_note] if bonus_note else []
    order_note = _split_order_note(rules, hand, upr, ev["split"] is not None)
    if order_note:
        notes.append(order_note)
    if plan is not None and not plan.allowed and rules.max_split_hands >= 2:
        notes.append(f"split: not allowed, the rules forbid splitting {hand[0].rank.symbol}s"
                     f" (no_split_ranks = {rules.no_split_ranks})")
    if not suits_known:
        notes.append("suits not given: the 6-7-8 bonus is averaged over the possible suits")
    shuffler = continuous_note(rules, "hand")
    if shuffler is not None:
        notes.append(shuffler)
    return notes


def _split_order_note(rules: BlackjackRules, hand: Sequence[Card], upr: Rank,
                      splits: bool) -> str | None:
    """Where the order the pair is given in changes the split's value, say so.

    Under ENHC with ``enhc_loses = "original"`` a dealer blackjack takes only the
    original bet, which the first split hand carries: the hand of the pair card given
    first (:meth:`~strategy_calc.rules.BlackjackRules.dealer_blackjack_takes`). The two
    hands differ only by their cards' suits, which matter only for the suited 6-7-8
    bonus on split hands, and a dealer blackjack only against an ace or a ten.
    """
    if not (splits and not rules.peek and rules.enhc_loses == "original"
            and upr in (Rank.ACE, Rank.TEN) and rules.suited_678(split=True)[0] > 0
            and hand[0].rank in (Rank.SIX, Rank.SEVEN,
                                                               Rank.EIGHT)):
        return None
    first, second = hand[0], hand[1]
    if first.suit is None or second.suit is None or first.suit == second.suit:
        return None
    return (f"split under enhc_loses = original: the hand of {first} (the card given first)"
            f" carries the original bet, the one a dealer blackjack takes; given as"
            f" {second},{first} the other hand does, which changes the split EV where the"
            " cards left favour one suit's 6-7-8")


def _split_evs(
    plan: SplitPlan, base: Shoe, hand: tuple[Card, ...], upr: Rank,
    params: engine.EngineParams, no_bj: float,
    strategy: str, up_cases: list[tuple[float, Shoe]], postsplit: bool,
    progress: Callable[[int, int], None] | None,
) -> tuple[float | None, tuple[float, float] | None, float | None, bytes | None]:
    """A pair's ``ev["split"]`` under ``strategy``, the two hands' EVs (where the strategy
    values them apart), the post-split EV (``postsplit``) and the codes split hands play
    (``cdz``): EVs per unit initial bet, conditioned as :func:`analyse_hand`'s
    (``no_bj``: P(no dealer blackjack))."""
    conditioning = plan.conditioning
    split_codes = _cdz_codes(base, upr, params) if strategy == "cdz" else None
    play = strategy if strategy in ("cdp", "cdp-hands") else "cdp1"
    split = mean_split_values([
        (p, split_values(plan, b, upr, pair_cards=hand,
                         chart_codes=memoryview(split_codes).cast("b") if split_codes
                         else None, play=play)) for p, b in up_cases])
    if split is None:
        return None, None, None, split_codes
    played = split.chart if strategy == "cdz" and split.chart else split.optimal
    first, second = conditioning.ev(played[0], no_bj), conditioning.ev(played[1], no_bj)
    split_hands: tuple[float, float] | None = (first, second)
    ev_split: float | None = first + second
    split_postsplit = None
    if postsplit and base.infinite:
        # drawn with replacement, the first hand's cards tell the second nothing: it plays
        # its own best play (cdp1's), the one split it is defined for
        if plan.resplits:
            raise RulesError("the post-split composition-dependent split is computed for one"
                             " split only (max_split_hands = 2)")
        split_postsplit = sum(conditioning.ev(x, no_bj) for x in split.optimal)
    elif postsplit:
        split_postsplit = conditioning.ev(sum(
            p * postsplit_ev(plan, b, upr, hand)
            for p, b in up_cases), no_bj)
    if strategy == "postsplit":
        ev_split, split_hands = split_postsplit, None
    elif strategy == "optimal":
        ev_split = conditioning.ev(sum(
            p * optimal_split_ev(plan, b, upr, progress, hand).raw for p, b in up_cases),
            no_bj)
        split_hands = None
    return ev_split, split_hands, split_postsplit, split_codes


def _side_evs(ev: dict[str, float | None], rules: BlackjackRules, shoe: Shoe, upr: Rank,
              natural: bool, p_bj: float, conditioned: bool) -> None:
    """Fill ``ev``'s surrender, insurance and even money, where the rules offer them to a
    two-card hand (``shoe``: the unseen cards, hand and up card gone)."""
    if rules.may_surrender(int(upr)) and not (natural and rules.hand_of_21_stands):
        ev["surrender"] = _surrender_ev(rules, p_bj, natural, conditioned=conditioned)
    if rules.offers_insurance(int(upr)):
        p_ten = shoe.count(Rank.TEN) / shoe.total
        ev["insurance"] = 0.5 * (2 * p_ten - (1 - p_ten))
    if natural and rules.offers_even_money(int(upr)):
        ev["even_money"] = 1.0


def _cdz_codes(base: Shoe, up: Rank, params: engine.EngineParams) -> bytes:
    """The pre-split strategy of ``base`` (the shoe less the up card) against ``up``."""
    return pre_split_codes(engine.up_card_pass(base, up, params), params.double_after_hit)


def _outcomes(
    rules: BlackjackRules, base: Shoe, hand: Sequence[Card], up: Rank,
    params: engine.EngineParams, conditioning: engine.Conditioning,
    ev: Mapping[str, float | None], no_bj: float, q678: float, natural: bool,
    plan: SplitPlan | None = None, split_codes: bytes | None = None,
    split_strategy: str = "cdp1", up_cases: Sequence[tuple[float, Shoe]] | None = None,
) -> tuple[dict[str, dict[str, float] | None], dict[str, float | None]]:
    """Win / push / loss probabilities of each allowed playing action, and E[X^2] of its
    net result (see :attr:`HandAnalysis.outcomes`, :attr:`HandAnalysis.second_moments`).

    ``up_cases``: the shoes a split is dealt from, by the up card's suit
    (:meth:`SplitPlan.up_card_shoes`; default ``base`` alone); ``plan``: the pair's, if it
    is one.

    The engine's distribution of the round's net result (optimal play after
    the first decision, both split hands jointly) split by sign; in a peek game
    it holds the outcomes with no dealer blackjack, divided by their
    probability (the same conditioning as the EVs).
    """
    scale = no_bj if conditioning.peek else 1.0

    def signs(hist: array.array[float]) -> dict[str, float]:
        return {"win": pairwise_sum(hist, HIST_OFFSET + 1, HIST_SIZE) / scale,
                "push": hist[HIST_OFFSET] / scale,
                "lose": pairwise_sum(hist, 0, HIST_OFFSET) / scale}

    def moment2(hist: array.array[float]) -> float:
        return math.fsum(((i - HIST_OFFSET) / 100.0) ** 2 * x
                         for i, x in enumerate(hist) if x) / scale

    out: dict[str, dict[str, float] | None] = {a: None for a in _PLAY_KEYS}
    moments: dict[str, float | None] = {a: None for a in _PLAY_KEYS}
    ranks = sorted(int(c.rank) for c in hand)
    fixed = rules.any_suit_row(ranks) is not None
    bonus_hand = fixed or (ranks == [6, 7, 8] and rules.suited_678()[0] > 0)
    if rules.is_charlie(len(hand)):  # a Charlie: won at once
        out["stand"], moments["stand"] = {"win": 1.0, "push": 0.0, "lose": 0.0}, 1.0
        return out, moments
    if natural:
        out["stand"] = ({"win": 1.0, "push": 0.0, "lose": 0.0} if conditioning.peek
                        else {"win": no_bj, "push": 1.0 - no_bj, "lose": 0.0})
        moments["stand"] = rules.blackjack_pays ** 2 * (1.0 if conditioning.peek else no_bj)
    for name, act in (("stand", 0), ("hit", 1), ("double", 2)):
        if natural or ev[name] is None:
            continue
        hist = _zeros()
        engine.hand_distribution(base, hand, up, params, act, None, hist)
        result = signs(hist)
        if name == "stand" and bonus_hand:  # the bonus is paid at once (6-7-8: if suited)
            q = 1.0 if fixed else q678
            result = {k: (q if k == "win" else 0.0) + (1.0 - q) * v for k, v in result.items()}
        else:
            moments[name] = moment2(hist)
        out[name] = result
    if (ev["split"] is not None and plan is not None and not plan.resplits
            and split_strategy not in ("postsplit", "optimal")):
        hist = _zeros()
        for p, shoe in up_cases or [(1.0, base)]:
            first, second, suits = plan.round_params(shoe, [hand[0], hand[1]])
            one = _zeros()
            engine.split_distribution(shoe, hand[0].rank, up, first,
                                      memoryview(split_codes).cast("b") if split_codes
                                      else None, one, None, second, suits)
            for i, x in enumerate(one):
                hist[i] += p * x
        out["split"] = signs(hist)
        moments["split"] = moment2(hist)
    elif ev["split"] is not None and plan is not None and split_strategy in ("cdp1", "cdz"):
        # resplits: the round's distribution is not enumerated; its moments are exact
        # (split 6s, 7s, 8s under the suited bonus and shoes some play could run out of
        # are not: no figure then)
        with contextlib.suppress(RulesError):
            moments["split"] = math.fsum(
                p * resplit_moments(plan, up, shoe,
                                    memoryview(split_codes).cast("b") if split_codes
                                    else None)[1]
                for p, shoe in up_cases or [(1.0, base)]) / scale
    if ev["surrender"] is not None:
        out["surrender"] = {"win": 0.0, "push": 0.0, "lose": 1.0}
        moments["surrender"] = _surrender_second_moment(rules, 1.0 - no_bj, natural,
                                                        conditioning.peek)
    return out, moments


def _surrender_second_moment(rules: BlackjackRules, p_bj: float, natural: bool,
                             conditioned: bool) -> float:
    """E[X^2] of surrendering, on the scale of :func:`_surrender_ev`: late surrender
    loses -1 to a blackjack and -1/2 otherwise (given no blackjack in a peek game:
    1/4); every other kind is -1/2 whatever the dealer holds, which in a peek game is
    reported as ``m`` with ``(1 - p) m + p L^2 = 1/4`` (L the hand's result against a
    blackjack), as its EV is.

    >>> round(_surrender_second_moment(BlackjackRules(surrender="late"), 0.1, False, False), 3)
    0.325
    """
    if rules.surrender_loses_to_blackjack:
        return 0.25 if conditioned else p_bj + 0.25 * (1.0 - p_bj)
    if not conditioned or p_bj == 0.0:
        return 0.25
    against_bj = 0.0 if natural else 1.0
    return (0.25 - p_bj * against_bj) / (1.0 - p_bj)


def _zeros() -> array.array[float]:
    """A zeroed histogram of the engine's bins (:data:`HIST_SIZE` doubles)."""
    return array.array("d", bytes(8 * HIST_SIZE))


def pairwise_sum(values: Sequence[float], start: int, stop: int) -> float:
    """The sum of ``values[start:stop]`` in numpy's pairwise order, so that ``hand``
    gives the figures ``ndarray.sum()`` gave without importing numpy (some 40 ms of a
    100-200 ms command): below 8 terms a plain loop; up to 128, eight running sums
    combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) and then the
    remainder; above, the halves (the first a multiple of 8) summed apart and added.
    The same operations in the same order give the same double (checked against numpy
    on random arrays, tests/blackjack/test_properties.py).

    >>> pairwise_sum([0.5] * 300, 0, 300), pairwise_sum([1e16, 1.0, -1e16, 1.0], 0, 4)
    (150.0, 1.0)
    """
    n = stop - start
    if n < 8:
        total = 0.0
        for i in range(start, stop):
            total += values[i]
        return total
    if n <= 128:
        r = [values[start + j] for j in range(8)]
        i = start + 8
        end = start + n - n % 8
        while i < end:
            for j in range(8):
                r[j] += values[i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(i, stop):
            total += values[k]
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values, start, start + half) + pairwise_sum(values, start + half, stop)


def _completed_bonus(
    hand: Sequence[Card], rules: BlackjackRules, q678: float, ev: dict[str, float | None]
) -> str | None:
    """Settle a Charlie or a hand that is a bonus hand, in ``ev``; return a note.

    A Charlie (a hand of ``charlie_cards`` cards) wins its bet at once (in a peek game
    given no dealer blackjack, as every play EV). A hand that a row of any suits pays
    (``bonus_table``: 7-7-7 under ``bonus_777``) is paid at once and settled (a dealer
    blackjack does not take it), or, where the row does not settle, also stands (its
    plain stand value added); at the 6-7-8, the higher suited bonus with chance ``q678``.
    A 6-7-8 that only the suited row pays gets it when its three cards are of one suit,
    which happens with chance ``q678`` given the suits known (1 or 0 when all are
    given); otherwise it is a plain 21 that stands.
    """
    if rules.is_charlie(len(hand)):
        ev["stand"], ev["hit"] = 1.0, None
        return f"a {rules.charlie_cards}-card Charlie: it wins its bet at once (charlie_cards)"
    ranks = tuple(sorted(int(c.rank) for c in hand))
    plain = ev["stand"]
    assert plain is not None
    b678, settles678 = rules.suited_678()
    b678 = b678 if ranks == (6, 7, 8) else 0.0
    row = rules.any_suit_row(ranks)
    if row is not None:  # a row of any suits: paid whatever the suits
        also = 0.0 if row.settles else plain  # the paid hand also stands
        pays = row.pays + (q678 * (b678 - row.pays) if b678 > row.pays else 0.0)
        ev["stand"], ev["hit"] = pays + also, None
        total = hand_total(list(ranks))[0]
        return (f"{row.cards}: the bonus ({pays:g} times the bet) is paid at once"
                + ("" if row.settles else ", and the hand plays on as a 21" if total == 21
                   else f", and the hand stands on {total}"))
    also = 0.0 if settles678 else plain  # the paid hand stands as a 21 too
    if b678 > 0:
        ev["stand"], ev["hit"] = (q678 * (b678 + also) + (1.0 - q678) * plain), None
        if q678 in (0.0, 1.0):
            return ("suited 6-7-8: the bonus is paid at once" if q678 == 1.0
                    else "6-7-8 of mixed suits: no bonus, a plain 21")
        return (f"6-7-8: suited (bonus paid at once) with chance {q678:.6f} given the suits"
                " known, else a plain 21")
    return None


def _surrender_ev(rules: BlackjackRules, p_bj: float, natural: bool, conditioned: bool) -> float:
    """EV of surrendering, on the same scale as the other play EVs.

    Late surrender loses the whole bet to a dealer blackjack; every other kind
    (early, ``not_vs_ace``, ``2-9``) gives half back regardless. In a peek game
    the play EVs are given no dealer blackjack, so early surrender (decided
    before the peek) is reported as the value that ranks it correctly on that
    scale: ``(-1/2 - P(bj) * L) / P(no bj)``, L the hand's result against a
    blackjack (-1, or 0 for a natural).
    """
    if rules.surrender_loses_to_blackjack:
        return -0.5 if conditioned else -p_bj - 0.5 * (1.0 - p_bj)
    if not conditioned or p_bj == 0.0:
        return -0.5
    against_bj = 0.0 if natural else -1.0
    return (-0.5 - p_bj * against_bj) / (1.0 - p_bj)
