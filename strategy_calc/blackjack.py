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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from strategy_calc import actions, engine
from strategy_calc.actions import Action
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
from strategy_calc.rules import (
    BlackjackRules,
    RulesError,
)
from strategy_calc.splits import (
    SplitValues,
    cdz_codes,
    check_split_strategy,
    combine,
    max_hands_for,
)

PeekMethod = Literal["exact", "shortcut"]
AUTOPLAY_POLICY = memoryview(array.array("b", [1 if (k % 32) <= 11 else 0 for k in range(64)]))
"""Auto-play on disconnection (Deluxe): hit while the best total (an ace counting
11 when that does not bust) is 11 or less, then stand; indexed by node class
(best total, plus 32 when soft)."""
ACTIONS = tuple(a.value for a in Action)
"""The keys of :attr:`HandAnalysis.ev`, in display order."""
PLAY_ACTIONS = tuple(a.value for a in actions.PLAY_ACTIONS)
"""The keys of the actions that play the hand (the others are side decisions)."""
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
"""Dealer outcome keys: final totals, bust, blackjack (up card plus hole card)."""


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
    """How split hands play (:data:`strategy_calc.splits.SPLIT_STRATEGIES`)."""
    outcomes: Mapping[str, Mapping[str, float] | None] | None = None
    """Per playing action, the probabilities that the round's net result is a win (> 0),
    a push (0) or a loss (< 0), conditioned as :attr:`ev` is; None for an action not
    allowed (or a split with resplits). Only on request: ``analyse_hand(...,
    outcomes=True)``."""


def hand_total(ranks: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an ace counted as 11).

    >>> hand_total([1, 6]), hand_total([10, 6, 1]), hand_total([1, 1, 10])
    ((17, True), (17, False), (12, False))
    """
    hard = sum(ranks)
    if 1 in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_natural(ranks: Sequence[int]) -> bool:
    """A two-card ace + ten-valued card (a blackjack when it is the initial hand)."""
    return len(ranks) == 2 and sorted(ranks) == [1, 10]


def suited_bonus_chance(shoe: Shoe, cards: Sequence[Card], needed: Sequence[Rank]) -> float:
    """Probability that ``cards`` plus one card of each rank in ``needed`` are all one suit.

    Cards given without a suit take each suit with the shoe's known suit
    proportions for their rank (an average over the possible assignments).

    >>> shoe = Shoe.full(1).remove(parse_cards("6s,7s"))
    >>> suited_bonus_chance(shoe, parse_cards("6s,7s"), [Rank.EIGHT])
    0.25
    """
    total = 0.0
    for suit in SUITS:
        chance = 1.0
        for card in cards:
            if card.suit is not None:
                chance *= 1.0 if card.suit == suit else 0.0
            else:
                chance *= shoe.suit_fraction(card.rank, suit)
        for rank in needed:
            chance *= shoe.suit_fraction(rank, suit)
        total += chance
    return total


def bonus_terms(
    rules: BlackjackRules, shoe: Shoe, start: Sequence[Card], split_hand: bool
) -> tuple[float, float, float, bool]:
    """(bonus_777, bonus_678, q678, suits_known) for a hand (or split hand) starting with ``start``.

    ``q678`` is the probability that, if the hand becomes exactly 6-7-8, the
    three cards are of one suit.
    """
    if split_hand and not rules.bonus_on_split_hands:
        return 0.0, 0.0, 0.0, True
    ranks = {c.rank for c in start}
    q = 0.0
    known = True
    if rules.bonus_suited_678 > 0 and ranks <= set(SUITED_RANKS) and len(ranks) == len(start):
        needed = [r for r in SUITED_RANKS if r not in ranks]
        q = suited_bonus_chance(shoe, start, needed)
        known = all(c.suit is not None for c in start)
    return rules.bonus_777, rules.bonus_suited_678, q, known


def dealer_outcomes(shoe: Shoe, up: Rank, rules: BlackjackRules) -> dict[str, float]:
    """Dealer outcome probabilities for ``up`` and the cards left in ``shoe``.

    In a peek game they are given the dealer has no blackjack (``blackjack``
    is 0); in an ENHC game unconditioned.

    >>> d = dealer_outcomes(Shoe.full(1).remove([Card(Rank.SIX)]), Rank.SIX, BlackjackRules())
    >>> round(d["bust"], 6)
    0.420823
    """
    probs = engine.dealer_probs(shoe, up, rules.dealer_hits_soft_17)
    if sum(probs) < 1.0 - 1e-9:
        raise CardError("too few cards left for an exact answer: the dealer could run out of"
                        " cards")
    result = dict(zip(OUTCOMES, probs, strict=True))
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
) -> HandAnalysis:
    """Exact EV of every action for the initial hand ``cards`` against ``up``.

    ``removed``: other cards known to be out of the shoe. Raises
    :class:`~strategy_calc.cards.CardError` / ``RulesError`` (``ValueError``)
    for impossible input: an unknown card, more cards of a rank than the shoe
    holds, a bust hand, fewer than two cards. ``postsplit``: also value a
    single split where the second hand uses the first hand's cards (slower).
    ``shoe``: the shoe before the deal (default: ``rules.decks`` full decks).
    ``split_strategy``: how split hands play and ``ev["split"]`` is valued, one of
    :data:`strategy_calc.splits.SPLIT_STRATEGIES` (default ``cdp1``); ``progress(done,
    total)`` is called while the ``optimal`` split is computed (it can take seconds).
    ``outcomes``: also the win / push / loss probabilities of each action
    (:attr:`HandAnalysis.outcomes`; a split is enumerated jointly, slower).

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
    b777, b678, q678, suits_known = bonus_terms(rules, shoe, hand, split_hand=False)
    params = engine.engine_params(rules, conditioning).with_bonus(b777, b678, q678)
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
    if two_cards and rules.may_double(total):
        ev["double"] = to_ev(double)
    split_hands = None
    split_postsplit = None
    strategy = check_split_strategy(split_strategy)
    split_codes = None
    # an up card whose suit is not given: a split 6, 7 or 8 sees it (up_card_suits)
    up_cases = (up_card_suits(rules, base, upr, hand[0].rank)
                if up_card.suit is None and two_cards and ranks[0] == ranks[1] else [(1.0, base)])
    if two_cards and ranks[0] == ranks[1]:
        if strategy == "cdz":
            split_codes = _cdz_codes(base, upr, params)
        split = _mean_split_values([
            (p, split_values(rules, b, upr, hand[0].rank, conditioning, pair_cards=hand,
                             chart_codes=memoryview(split_codes).cast("b") if split_codes
                             else None, cdp=strategy == "cdp")) for p, b in up_cases])
        if split is not None:
            played = split.chart if strategy == "cdz" and split.chart else split.optimal
            split_hands = (to_ev(played[0]), to_ev(played[1]))
            ev["split"] = split_hands[0] + split_hands[1]
            if postsplit or strategy == "postsplit":
                split_postsplit = to_ev(sum(
                    p * postsplit_ev(b, upr, hand[0].rank, rules, conditioning, hand)
                    for p, b in up_cases))
            if strategy == "postsplit":
                ev["split"], split_hands = split_postsplit, None
            elif strategy == "optimal":
                ev["split"] = to_ev(sum(
                    p * optimal_split_ev(b, upr, hand[0].rank, rules, conditioning, progress,
                                         hand).raw for p, b in up_cases))
                split_hands = None
    if two_cards and rules.may_surrender(int(upr)) and not (natural
                                                             and rules.hand_of_21_stands):
        ev["surrender"] = _surrender_ev(rules, p_bj, natural, conditioned=conditioning.peek)
    if two_cards and rules.insurance and upr is Rank.ACE:
        p_ten = shoe.count(Rank.TEN) / shoe.total
        ev["insurance"] = 0.5 * (2 * p_ten - (1 - p_ten))
    if natural and rules.even_money and (
        upr is Rank.ACE or (upr is Rank.TEN and rules.even_money_vs_ten)
    ):
        ev["even_money"] = 1.0
    best = max((a for a in PLAY_ACTIONS if ev[a] is not None), key=lambda a: ev[a] or 0.0)
    if ev["even_money"] is not None and rules.blackjack_pays * no_bj < 1.0:
        best = "even_money"
    won_lost = None
    if outcomes:
        won_lost = _outcomes(rules, base, hand, upr, params, conditioning, ev, no_bj, q678,
                             natural, split_codes, strategy, up_cases)
    notes = [bonus_note] if bonus_note else []
    if not suits_known:
        notes.append("suits not given: the 6-7-8 bonus is averaged over the possible suits")
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
    )


def pre_split_codes(table: engine.UpCardPass) -> bytes:
    """The pre-split strategy (``cdz``) as engine codes: each node's best unsplit play in
    an up-card pass (:func:`strategy_calc.splits.cdz_codes`)."""
    return cdz_codes(table.column("stand"), table.column("hit"), table.column("double"),
                     engine.node_table().ncards)


def _cdz_codes(base: Shoe, up: Rank, params: engine.EngineParams) -> bytes:
    """The pre-split strategy of ``base`` (the shoe less the up card) against ``up``."""
    return pre_split_codes(engine.up_card_pass(base, up, params))


def _outcomes(
    rules: BlackjackRules, base: Shoe, hand: Sequence[Card], up: Rank,
    params: engine.EngineParams, conditioning: engine.Conditioning,
    ev: Mapping[str, float | None], no_bj: float, q678: float, natural: bool,
    split_codes: bytes | None = None, split_strategy: str = "cdp1",
    up_cases: Sequence[tuple[float, Shoe]] | None = None,
) -> dict[str, dict[str, float] | None]:
    """Win / push / loss probabilities of each allowed playing action (see HandAnalysis).

    ``up_cases``: the shoes a split is dealt from, by the up card's suit
    (:func:`up_card_suits`; default ``base`` alone).

    The engine's distribution of the round's net result (optimal play after
    the first decision, both split hands jointly) split by sign; in a peek game
    it holds the outcomes with no dealer blackjack, divided by their
    probability (the same conditioning as the EVs).
    """
    import numpy as np

    from strategy_calc.distributions import HIST_OFFSET, HIST_SIZE

    scale = no_bj if conditioning.peek else 1.0

    def signs(hist: np.ndarray) -> dict[str, float]:
        total = scale
        return {"win": float(hist[HIST_OFFSET + 1:].sum()) / total,
                "push": float(hist[HIST_OFFSET]) / total,
                "lose": float(hist[:HIST_OFFSET].sum()) / total}

    out: dict[str, dict[str, float] | None] = {a: None for a in PLAY_ACTIONS}
    ranks = sorted(int(c.rank) for c in hand)
    bonus_hand = (ranks == [7, 7, 7] and rules.bonus_777 > 0) or (
        ranks == [6, 7, 8] and rules.bonus_suited_678 > 0)
    if natural:
        out["stand"] = ({"win": 1.0, "push": 0.0, "lose": 0.0} if conditioning.peek
                        else {"win": no_bj, "push": 1.0 - no_bj, "lose": 0.0})
    for name, act in (("stand", 0), ("hit", 1), ("double", 2)):
        if natural or ev[name] is None:
            continue
        hist = np.zeros(HIST_SIZE)
        engine.hand_distribution(base, hand, up, params, act, None, hist)
        result = signs(hist)
        if name == "stand" and bonus_hand:  # the bonus is paid at once (7-7-7; 6-7-8 if suited)
            q = 1.0 if ranks == [7, 7, 7] else q678
            result = {k: (q if k == "win" else 0.0) + (1.0 - q) * v for k, v in result.items()}
        out[name] = result
    if (ev["split"] is not None and max_hands_for(rules, hand[0].rank is Rank.ACE) == 2
            and split_strategy not in ("postsplit", "optimal")):
        hist = np.zeros(HIST_SIZE)
        for p, shoe in up_cases or [(1.0, base)]:
            first, second, suits = split_round_params(rules, shoe, [hand[0], hand[1]],
                                                      conditioning)
            one = np.zeros(HIST_SIZE)
            engine.split_distribution(shoe, hand[0].rank, up, first,
                                      memoryview(split_codes).cast("b") if split_codes
                                      else None, one, None, second, suits)
            hist += p * one
        out["split"] = signs(hist)
    if ev["surrender"] is not None:
        out["surrender"] = {"win": 0.0, "push": 0.0, "lose": 1.0}
    return out


def _completed_bonus(
    hand: Sequence[Card], rules: BlackjackRules, q678: float, ev: dict[str, float | None]
) -> str | None:
    """Settle a three-card hand that is a Macau bonus hand, in ``ev``; return a note.

    7-7-7 is paid ``bonus_777`` at once and settled (a dealer blackjack does not
    take it). 6-7-8 is paid ``bonus_suited_678`` when its three cards are of one
    suit, which happens with chance ``q678`` given the suits known (1 or 0 when
    all are given); otherwise it is a plain 21 that stands.
    """
    ranks = sorted(int(c.rank) for c in hand)
    if ranks == [7, 7, 7] and rules.bonus_777 > 0:
        ev["stand"], ev["hit"] = rules.bonus_777, None
        return f"7-7-7: the bonus ({rules.bonus_777:g} times the bet) is paid at once"
    if ranks == [6, 7, 8] and rules.bonus_suited_678 > 0:
        plain = ev["stand"]
        assert plain is not None
        ev["stand"], ev["hit"] = q678 * rules.bonus_suited_678 + (1.0 - q678) * plain, None
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


def split_values(
    rules: BlackjackRules, base: Shoe, up: Rank, pair: Rank, conditioning: engine.Conditioning,
    chart_codes: memoryview | None = None, memo: engine.DealerMemo | None = None,
    pair_cards: Sequence[Card] | None = None,
    columns: int = 7, cdp: bool = False, lazy: bool = False,
    params: engine.EngineParams | None = None,
) -> SplitValues | None:
    """Raw split EVs (the engine's scale) of the first hand and of the others, or None.

    ``base``: the shoe with both pair cards still in it (up card and known
    cards removed). Strategy and method: :mod:`strategy_calc.splits`; with one
    split allowed this is exactly twice one hand that ignores the other's cards.
    ``chart_codes`` (per engine node: bit 1 double, 2 hit, 4 stand) adds the
    values of playing split hands by a chart. ``memo``: dealer distributions
    shared with the rest of a whole-game pass (a speed-up only). ``pair_cards``:
    the two pair cards as given (their suits); with one split, each hand's
    suited 6-7-8 chance is that of its own pair card (a pair card whose suit
    cannot complete a suited 6-7-8 gets none). Its play still decides with that
    chance, not by the suits it draws. ``columns``: the engine's. ``cdp``: the optimal
    figures play ``cdp`` (the decisions best for the pair cards split off) not ``cdp1``.
    ``lazy``: :func:`strategy_calc.engine.split_tables`' (a speed-up only).
    ``params``: the first hand's :func:`split_hand_params` when the caller has them (without
    the suited bonus they do not depend on the shoe, nor on its ``suits`` flag; a speed-up
    only).
    """
    if rules.max_split_hands < 2:
        return None
    max_hands = max_hands_for(rules, pair is Rank.ACE)
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    suits = max_hands == 2  # resplit rows reuse frozen decisions, which cannot see suits
    if params is None:
        params = split_hand_params(rules, base, cards, conditioning, suits)
    rows_first, rows_others = engine.split_tables(base, pair, up, params, 2 * (max_hands - 2),
                                                  chart_codes, memo, columns, lazy=lazy)
    if max_hands == 2 and cards[1].suit != cards[0].suit:
        second = split_hand_params(rules, base, cards[::-1], conditioning, suits)
        if second != params:
            rows_others = engine.split_tables(base, pair, up, second, 0, chart_codes, memo,
                                              columns, lazy=lazy)[1]
    n, n_pair = base.total - 2, base.count(pair) - 2  # both pair cards gone (the engine
    # checked the shoe holds them)
    by_resplits = None
    if cdp and max_hands > 2:  # each resplit count plays its own best decisions
        by_resplits = [(rows_first, rows_others)] + [
            engine.split_tables(base, pair, up, params, 2 * (max_hands - 2), None, memo, 1, k)
            for k in range(1, min(max_hands - 2, n_pair) + 1)]

    def total(column: int) -> tuple[float, float]:
        return combine(rows_first, rows_others, column, n, n_pair, max_hands,
                       by_resplits if column == 0 else None)

    if chart_codes is None:
        return SplitValues(total(0))
    return SplitValues(total(0), total(2), total(4))


def split_hand_params(
    rules: BlackjackRules, base: Shoe, cards: Sequence[Card], conditioning: engine.Conditioning,
    suits: bool = True, start: Card | None = None,
) -> engine.EngineParams:
    """The engine parameters of a split hand started by ``cards[0]`` (both pair cards gone).

    ``suits``: a split 6, 7 or 8 under the suited bonus plays knowing the suits of its
    own cards (:func:`split_suit_cases`); else it decides with the suit-averaged chance.
    ``start``: the hand's pair card if not ``cards[0]`` (a resplit hand: a pair card
    drawn from the shoe less ``cards``, suit unknown).
    """
    left = base.remove(cards)
    first = cards[0] if start is None else start
    b777, b678, q678, _known = bonus_terms(rules, left, [first], split_hand=True)
    params = engine.engine_params(rules, conditioning, pair=first.rank).with_bonus(
        b777, b678, q678)
    if suits and b678 > 0 and first.rank in SUITED_RANKS:
        return replace(params, split_suits=split_suit_cases(left, first))
    return params


def split_suit_cases(shoe: Shoe, card: Card) -> tuple[tuple[float, float, float, float], ...]:
    """The suit cases of a split hand started by ``card`` (a 6, 7 or 8): per suit its pair
    card may have, ``(probability, chance that a 6, 7, 8 drawn from shoe has it)``.

    A pair card of unknown suit takes each suit with the shoe's proportion for its rank.

    >>> from strategy_calc.cards import parse_cards
    >>> split_suit_cases(Shoe.full(1).remove(parse_cards("7s,7h,6h")), parse_cards("7s")[0])
    ((1.0, 0.3333333333333333, 0.0, 0.25),)
    """
    cases: list[tuple[float, float, float, float]] = []
    for suit in _case_suits(shoe, card):
        weight = 1.0 if card.suit is not None else shoe.suit_fraction(card.rank, suit)
        six, seven, eight = (shoe.suit_fraction(r, suit) for r in SUITED_RANKS)
        cases.append((weight, six, seven, eight))
    return tuple(cases)


def _case_suits(shoe: Shoe, card: Card) -> list[str]:
    """The suits of :func:`split_suit_cases`, in its order."""
    if card.suit is not None:
        return [card.suit]
    return [s for s in SUITS if shoe.suit_fraction(card.rank, s) > 0]


def split_suit_joint(base: Shoe, cards: Sequence[Card]) -> engine.SplitSuits:
    """How the suits of the two pair cards ``cards`` (a split 6, 7 or 8) go together.

    ``base`` holds both pair cards. A pair card of unknown suit is one drawn from the
    shoe's suit rows less the cards of known suit (and less the other pair card when
    that one is drawn first): the two unknown suits are two draws without replacement.
    The cases index :func:`split_suit_cases` of each hand (``cards`` and ``cards[::-1]``,
    in the shoe less both).

    >>> from strategy_calc.cards import parse_cards
    >>> two = Shoe.full(1).remove(parse_cards("7h,7d"))  # a 7 of spades and one of clubs
    >>> [(round(w, 3), i, j, same) for w, i, j, same in
    ...  split_suit_joint(two, parse_cards("7,7")).pairs]
    [(0.5, 0, 1, False), (0.5, 1, 0, False)]
    """
    rank = cards[0].rank
    left = base.remove(cards)
    known = base.remove([c for c in cards if c.suit is not None])
    first, second = _case_suits(left, cards[0]), _case_suits(left, cards[1])
    pairs: list[tuple[float, int, int, bool]] = []
    for i, s1 in enumerate(first):
        p1 = 1.0 if cards[0].suit is not None else known.suit_fraction(rank, s1)
        if p1 <= 0:
            continue
        rest = known if cards[0].suit is not None else known.remove([Card(rank, s1)])
        for j, s2 in enumerate(second):
            p2 = 1.0 if cards[1].suit is not None else rest.suit_fraction(rank, s2)
            if p1 * p2 > 0:
                pairs.append((p1 * p2, i, j, s1 == s2))
    pool = tuple(float(sum(left.suits[r - 1])) for r in SUITED_RANKS)
    return engine.SplitSuits((pool[0], pool[1], pool[2]), tuple(pairs))


def _mean_split_values(cases: Sequence[tuple[float, SplitValues | None]]) -> SplitValues | None:
    """The split values of :func:`up_card_suits`' shoes, weighted (None if any is None)."""
    if any(v is None for _p, v in cases):
        return None

    def mean(pick: Callable[[SplitValues], tuple[float, float] | None]
             ) -> tuple[float, float] | None:
        parts = [(p, pick(v)) for p, v in cases if v is not None]
        if any(x is None for _p, x in parts):
            return None
        return (sum(p * x[0] for p, x in parts if x is not None),
                sum(p * x[1] for p, x in parts if x is not None))

    optimal = mean(lambda v: v.optimal)
    assert optimal is not None
    return SplitValues(optimal, mean(lambda v: v.chart), mean(lambda v: v.chart_no_das))


def up_card_suits(
    rules: BlackjackRules, base: Shoe, up: Rank, pair: Rank,
) -> list[tuple[float, Shoe]]:
    """The shoes a split of ``pair`` against an up card of unknown suit is valued from.

    ``base``: the shoe less the up card, its suit not given (the suit rows still hold
    it). A split 6, 7 or 8 under the suited bonus draws the two other ranks of its
    pair card's suit; an up card of one of those ranks is such a card gone, and the
    player sees its suit. So then each suit the up card can have gives a shoe, with
    its chance from the suit rows; else ``[(1.0, base)]``.

    >>> from strategy_calc.rules import blackjack_rules
    >>> macau = blackjack_rules("macau-1983", ["decks=1"])
    >>> base = Shoe.full(1).remove([Card(Rank.EIGHT)])
    >>> [(p, shoe.suits[7]) for p, shoe in up_card_suits(macau, base, Rank.EIGHT, Rank.SEVEN)]
    [(0.25, (0, 1, 1, 1)), (0.25, (1, 0, 1, 1)), (0.25, (1, 1, 0, 1)), (0.25, (1, 1, 1, 0))]
    >>> len(up_card_suits(macau, base, Rank.EIGHT, Rank.EIGHT))
    1
    """
    if not (rules.bonus_suited_678 > 0 and rules.bonus_on_split_hands and pair != up
            and pair in SUITED_RANKS and up in SUITED_RANKS):
        return [(1.0, base)]
    row = base.suits[up - 1]
    counts = list(base.counts)
    counts[up - 1] += 1
    with_up = Shoe(base.decks, tuple(counts), base.suits)
    total = sum(row)
    if total < counts[up - 1]:
        raise CardError(f"the shoe's suit row for {up.symbol}s holds fewer cards than its"
                        " count")
    return [(row[k] / total, with_up.remove([Card(up, suit)]))
            for k, suit in enumerate(SUITS) if row[k] > 0]


def split_round_params(
    rules: BlackjackRules, base: Shoe, cards: Sequence[Card], conditioning: engine.Conditioning,
) -> tuple[engine.EngineParams, engine.EngineParams, engine.SplitSuits | None]:
    """Both split hands' engine parameters (:func:`split_hand_params`) and, when they play
    knowing their suits, their pair cards' joint suits: what
    :func:`strategy_calc.engine.split_distribution` takes for the round of ``cards``."""
    first = split_hand_params(rules, base, cards, conditioning)
    second = split_hand_params(rules, base, cards[::-1], conditioning)
    return first, second, split_suit_joint(base, cards) if first.split_suits else None


def optimal_split_ev(
    base: Shoe, up: Rank, pair: Rank, rules: BlackjackRules, conditioning: engine.Conditioning,
    progress: Callable[[int, int], None] | None = None,
    pair_cards: Sequence[Card] | None = None,
) -> engine.OptimalSplitValue:
    """The fully optimal split (raw, all hands; :func:`strategy_calc.engine.split_optimal`).

    Every decision of every split hand, resplits included, uses everything seen in
    the round and maximises the whole round. ``pair_cards``: the pair as given (its
    suits): hands 1 and 2 start from their own pair card, a resplit hand from a pair
    card of unknown suit; a split 6, 7 or 8 decides knowing the suits of its own
    cards (not those of the other hands: a strategy that uses every card's rank).
    """
    if conditioning is engine.Conditioning.PEEK_SHORTCUT:
        raise RulesError("the optimal split is computed in the exact peek model (the"
                         " shortcut renormalises each shoe, so hands seen together do not"
                         " add up)")
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    return engine.split_optimal(
        base, pair, up, split_hand_params(rules, base, cards, conditioning),
        max_hands_for(rules, pair is Rank.ACE), progress,
        split_hand_params(rules, base, cards[::-1], conditioning),
        split_hand_params(rules, base, cards, conditioning, start=Card(pair)))


def postsplit_ev(
    base: Shoe, up: Rank, pair: Rank, rules: BlackjackRules, conditioning: engine.Conditioning,
    pair_cards: Sequence[Card] | None = None,
) -> float:
    """Raw EV of one split where the second hand plays knowing the first hand's cards.

    ``pair_cards``: the pair as given; each hand takes its own pair card's suited 6-7-8
    chance (see :func:`optimal_split_ev`)."""
    if max_hands_for(rules, pair is Rank.ACE) > 2:
        raise RulesError("the post-split composition-dependent split is computed for one split"
                         " only (max_split_hands = 2)")
    cards = list(pair_cards) if pair_cards is not None else [Card(pair), Card(pair)]
    one, two = engine.split_postsplit(base, pair, up, split_hand_params(rules, base, cards,
                                                                    conditioning),
                                      split_hand_params(rules, base, cards[::-1], conditioning))
    return one + two
