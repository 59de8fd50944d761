"""A brute force of a whole blackjack round, in casino order, on tiny shoes (exact fractions).

This is a second derivation of what ``strategy_calc.analyse_game`` reports (the
EV of a round and the distribution of its net result), written from the rules
text (shared RULES.md) and the definitions in docs/MODEL.md and in the docstring
of ``strategy_calc/strategy.py``, without the engine. It is plain and slow on
purpose; use it on shoes of about 15-30 cards.

Conventions
-----------
* A rank is an int 1..10 (1 = ace, 10 = any ten-valued card).
* A *kind* is what the brute force tells apart: the ten ranks, or, when the
  rules pay a suited 6-7-8 bonus, 19 kinds (A-5, 9, T, and the 6s, 7s, 8s of
  each suit ``"shdc"``). Shoes are tuples of counts per kind; ``fold`` turns
  them into counts per rank (index 0 = aces .. 9 = tens).
* Every result is per unit initial bet, as an exact ``Fraction``; a round's net
  result is the sum over the player's hands of what each hand wins (negative:
  loses). Internally probabilities are counted in integers: a function of a
  shoe of n cards counts, per net result, how many of the n! orderings of its
  physical cards produce it (nets are ints, units times ``scale``), so the
  enumeration needs no division; the totals are divided by N! at the end.
* In the replay a hand's cards are (rank, suit) pairs; once no suit can decide
  a suited 6-7-8 any more (a hand past three cards, or whose cards cannot be
  one suited 6-7-8, and no later split hand that could), the suits are
  forgotten and the shoe is folded to ranks, which changes no probability.

The round (``RoundOracle.analyse``)
-----------------------------------
Every initial deal is enumerated in casino order: player card ``p1``, dealer
up card, player card ``p2``, each drawn without replacement with probability
count / cards left; then the dealer's second card:

* peek games (``hole_card = "peek"``): the hole card is dealt now, face down,
  and checked: if up + hole is A + ten, the round ends (a player blackjack
  pushes, any other hand loses its original bet, 1 unit);
* ENHC games dealt from a single deck (``decks == 1``): the hole card is dealt
  now face down but not checked (RULES.md, Macau rule 3); the player acts
  without knowing it;
* ENHC games from a shoe: the dealer's second card is drawn after the player
  has finished.

(``hole_timing`` can force "before" or "after" for an ENHC game; the two give
the same values by exchangeability, and a test checks that. "before" enumerates
19 hole kinds in a suited game and is slow there.)

A player blackjack (A + ten as the first two cards) is paid ``blackjack_pays``
unless the dealer has blackjack too (push); even money is always declined,
and so is insurance unless ``insure_vs_ace`` (then every deal against an ace
takes it: half the bet, paid 2:1 when the dealer's two cards are a blackjack,
else lost, whatever the player's hands do; RULES.md "Insurance"). Otherwise
the player takes an initial action (stand, hit, double, split, surrender) and
plays on; the hole card, when dealt, really is
missing from the cards he draws. Hands and the dealer then settle:

* a hand over 21 loses its bet (2 if doubled) at once, whatever the dealer does;
* ``double_after_hit`` (RULES text: "doubling on any number of cards"): a hand of three
  or more cards may double too (one card, then stand on 2 units) when its total is one
  ``double_on`` allows, a split hand only where ``double_after_split`` lets it double
  (a hand of 21 still stands, the limit below);
* a Charlie (``charlie_cards`` N > 0): a hand that reaches N cards without busting wins
  its bet (1) at once and is settled; in a peek game the dealer's blackjack was settled
  first, under ENHC a dealer blackjack found later does not take it (the field's text);
* a hand of exactly three cards 7-7-7, or 6-7-8 of one suit, that was not
  doubled is paid ``bonus_777`` / ``bonus_suited_678`` times the bet at once
  and settled (split hands only if ``bonus_on_split_hands``); with
  ``bonus_settles_hand`` false it is paid at once and then also stands as a 21 of one
  unit against the dealer;
* a row of ``bonus_hands`` of any suits (RULES text: "a hand whose cards, as dealt, are
  exactly a row's ranks is paid at once ... a doubled hand never"; a row applies to
  split hands only if ``split_hands``): paid its ``pays`` at once and settled, or with
  ``settles`` false also left standing on its total; a hand matching a shorthand and a
  row is paid the higher; it is no decision, so the total-dependent play leaves it out
  of its sums (as a Charlie). (Suited rows: not read here.)
* a pair whose rank ``no_split_ranks`` names (RULES text: "pairs of those ranks may not
  be split"; ranks A, 2..9, T, given separated by commas, ``T`` any ten-valued pair) has
  no split action: it is played as any other two-card hand;
* surrender: -1/2 (ENHC ``late`` and ``late_vs_ten_ace``: -1 if the dealer then has
  blackjack; ``late_vs_ten_ace`` is offered against a ten or an ace only);
* otherwise the dealer completes his hand: in ENHC a dealer blackjack beats
  every remaining hand: an undoubled hand loses 1, a doubled one 2 under
  ``enhc_loses = "all"``; under ``"original"`` the first hand loses 1 (its
  double returned) and a second split hand gets its whole stake back
  (``BlackjackRules.dealer_blackjack_takes`` states this reading); under
  ``"original_and_splits"`` (the original bet and the split bets lost, doubles
  returned) every hand loses 1, doubled or not; then
  dealer totals 17..21 or bust are compared with the hand's total, times its
  bet.

The dealer draws while his total is below 17 (also on a soft 17 with
``dealer_hits_soft_17``); an ace counts 11 when that does not pass 21. A hand
that reaches 21 stands: it is never hit again. The one exception is the rules text of
``hand_of_21_stands`` (its field docstring): with it false, a split hand's two-card 21
(A + ten, not a blackjack) may still be doubled where ``double_after_split`` and
``double_on`` allow 21 (``any``), and optimal play doubles it where that is worth more.
The dealer is only dealt to when some hand needs him, and an empty shoe he must draw from
raises :class:`ShoeExhausted`.

Strategies
----------
``"optimal"`` (the docs/MODEL.md / strategy.py definition): each initial two-card hand
takes the action with the highest conditional expectation given its two cards, the up
card (suits included where they matter) and, in a peek game, the dealer having no
blackjack. After a hit, each decision is the best for the cards held
(composition-dependent, nothing else seen). Each split hand plays the best
composition-dependent strategy for its own cards, the up card and the original pair,
ignoring the other hand's cards; the split action's value is the sum of the two
hands' values computed so. Decisions are found by a
recursion over the player's information (:func:`_node`): the unseen cards are
the shoe less everything he has seen; in a peek game the values are
E[result * 1{no dealer blackjack}], with the hole card taken as one more
unseen card that cannot complete a blackjack, which is the player's real
posterior on it. The round itself is then replayed with the real hole card and
the real draws; for each chosen action the brute-force conditional
expectation is checked against the recursion's value (an assertion), which
checks that reading of the hole card and the split hands' exchangeability at
every deal.

Suits (Macau's suited 6-7-8): an initial 6-7, 6-8 or 7-8 knows its suits and
the up card's, so its chance that a third card completes a suited 6-7-8 is
exact. A split 6, 7 or 8 (``split_suits="aware"``, the default) draws its second
card by suit and decides knowing whether the two share a suit, and with it the
exact chance that a third card completes a suited 6-7-8 (it does not look at
the other hand's cards). ``split_suits="blind"`` is the earlier reading: split
hands play (and the split is valued) knowing ranks only, so a 6-7-8 they make
is suited with chance sum over suits s of P(a 6 is s) P(a 7 is s) P(an 8 is s)
from the original shoe (1/16 on a shoe whose 6s, 7s and 8s are spread evenly).
Either way the brute force pays the bonus only on real suited cards.

``"chart"``: two-card decisions from the calculator's chart (the ``hard``,
``soft`` and ``pairs`` mappings taken as input; codes as in
``strategy_calc.render.chart.CODES``); a split hand's two-card decision uses the
chart row of its total (no resplit, no surrender; ``D`` only when
``double_after_split`` allows); every later decision is the total-dependent
hit/stand play (:func:`total_dependent_play`), per the strategy.py docstring.
That sentence leaves readings open; they are options of :class:`RoundOracle`
(defaults first): ``td_weight`` "multiset" / "sequence" (what "its probability
as a draw" is), ``td_peek_scale`` "conditional" / "joint" (a peek game's EVs
given no dealer blackjack, or E[result * 1{no blackjack}]), ``td_suited_bonus``
True / False (whether a 6-7 / 6-8 / 7-8 composition's hit EV counts its
suit-averaged suited 6-7-8 chance; 7-7-7 always counts).

Ties between actions (exactly equal values) are broken in the order
``tie_order``; the default is the rules text's (docs/MODEL.md "Exact ties": an exact tie
takes the calmer play, stand, hit, double, surrender, split, and declines insurance and
even money), so the default play is the calculator's. Tied initial
decisions whose round distributions differ are listed in ``RoundResult.ties``;
tied later decisions that the optimal play reaches, in
``RoundOracle.node_ties_played`` (their distributions may or may not differ).
The EV never depends on the choice.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from rational import Fraction

from strategy_calc.rules import BlackjackRules

SUITS = "shdc"
Kind = tuple[int, str | None]
RANK_KINDS: tuple[Kind, ...] = tuple((r, None) for r in range(1, 11))
SUITED_KINDS: tuple[Kind, ...] = (
    *((r, None) for r in range(1, 6)),
    *((r, s) for r in (6, 7, 8) for s in SUITS),
    (9, None),
    (10, None),
)
ACTION_ORDER = ("stand", "hit", "double", "surrender", "split")
LATE_SURRENDER = ("late", "late_vs_ten_ace")
"""The surrender kinds a dealer blackjack takes whole (``late_vs_ten_ace``: late, offered
only against a ten or an ace)."""
DEALER_STATES = ("17", "18", "19", "20", "21", "bust", "blackjack", "22")
"""The dealer's ends, in the order of every tuple of them here (index 7, "22": he ends on
exactly 22 where ``dealer_22_pushes`` makes every standing hand push it; else 0)."""

Counts = tuple[int, ...]
# ("bust", bet) | ("bonus", amount times scale) | ("total", total, bet) | ("surrender",)
# | ("bonus21", amount times scale): paid at once, then standing as a 21 of one unit
Outcome = tuple


class ShoeExhausted(ValueError):
    """The dealer (or a player who must draw) needs a card and none is left."""


# ------------------------------------------------------------------ helpers


@functools.cache
def _no_split_ranks(text: str) -> frozenset[int]:
    """The ranks (1..10) whose pairs ``no_split_ranks`` forbids splitting, read from the
    rules text: rank symbols separated by commas (``T`` and J, Q, K, 10: a ten-valued pair)."""
    names = {"A": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10}
    names.update({str(r): r for r in range(2, 10)})
    return frozenset(names[w.strip().upper()] for w in text.split(",") if w.strip())


def _ff(n: int, k: int) -> int:
    """Falling factorial n (n-1) ... (n-k+1)."""
    out = 1
    for j in range(k):
        out *= n - j
    return out


@functools.cache
def _binom(n: int, k: int) -> int:
    return _ff(n, k) // _ff(k, k) if 0 <= k <= n else 0


def _minus(t: Counts, i: int) -> Counts:
    return (*t[:i], t[i] - 1, *t[i + 1 :])


def _plus(t: Counts, i: int) -> Counts:
    return (*t[:i], t[i] + 1, *t[i + 1 :])


def _diff(a: Counts, b: Counts) -> Counts:
    out = tuple(x - y for x, y in zip(a, b, strict=True))
    if min(out) < 0:
        raise ValueError("removing cards the shoe does not hold")
    return out


_VALUES = tuple(range(1, 11))


def _hard(c10: Counts) -> int:
    return sum(map(operator.mul, c10, _VALUES))


def _total(c10: Counts) -> tuple[int, bool]:
    """(best total, soft) of a hand given as counts per rank."""
    hard = _hard(c10)
    if c10[0] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _completes_bj(up: int, rank: int) -> bool:
    return {up, rank} == {1, 10}


# ------------------------------------------------------------------- dealer


@functools.cache
def _dealer_ways(shoe: Counts, hard: int, ace: bool, h17: bool,
                 push22: bool = False) -> tuple[int, tuple[int, ...]]:
    """Dealer past the blackjack check holding hard total ``hard`` (``ace``: an ace
    among his cards), drawing from rank counts ``shoe``. Returns (k, ways): of the
    ff(n, k) ordered deals of the next k cards (k = min(n, 17 - hard), enough for
    him to finish), how many end on 17, 18, 19, 20, 21, bust, 22 (``push22``, the
    rules' "dealer 22 pushes": a hand he ends on exactly 22 is not a bust but a 22)."""
    if hard > 21:
        return 0, (0, 0, 0, 0, 0, 0, 1) if push22 and hard == 22 else (0, 0, 0, 0, 0, 1, 0)
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    if total >= 17 and not (h17 and total == 17 and total != hard):
        ways = [0] * 7
        ways[total - 17] = 1
        return 0, tuple(ways)
    n = sum(shoe)
    if n == 0:
        raise ShoeExhausted("the dealer must draw from an empty shoe")
    k = min(n, 17 - hard)
    ways = [0] * 7
    for i, c in enumerate(shoe):
        if c:
            kc, wc = _dealer_ways(_minus(shoe, i), hard + i + 1, ace or i == 0, h17, push22)
            m = c * _ff(n - 1 - kc, k - 1 - kc)
            for j in range(7):
                ways[j] += m * wc[j]
    return k, tuple(ways)


def _end_index(j: int) -> int:
    """The index in :data:`DEALER_STATES` of :func:`_dealer_ways`' end ``j``."""
    return j if j < 6 else 7


def p_no_blackjack(shoe10: Counts, up: int) -> Fraction:
    """P(the dealer's unseen second card does not complete a blackjack)."""
    n = sum(shoe10)
    if up == 1:
        return 1 - Fraction(shoe10[9], n)
    if up == 10:
        return 1 - Fraction(shoe10[0], n)
    return Fraction(1)


# ---------------------------------------------------- the player's recursion


@dataclass(frozen=True)
class HandCtx:
    """What a hand's values depend on besides its cards and the unseen cards."""

    up: int
    peek: bool  # values are E[result * 1{no dealer blackjack}]
    h17: bool
    push22: bool  # dealer_22_pushes: his 22 pushes every standing hand
    bonus_stands: bool  # not bonus_settles_hand: a paid bonus hand also stands as a 21
    loss1: Fraction  # ENHC: lost by an undoubled standing hand to a dealer blackjack
    loss2: Fraction  # ... by a doubled one
    scale: int  # values are expectations times scale (a multiple of every payout's denominator)
    b777: Fraction
    b678: Fraction
    q678: Fraction  # chance that a three-card 6-7-8 this hand reaches is suited
    split: bool  # starts from one pair card (forced second card, no surrender)
    one_card: bool  # split aces: one card each
    dbl2: frozenset[int]  # two-card totals a split hand may double
    order: tuple[str, ...] = ACTION_ORDER  # how exact ties between actions are broken
    charlie: int = 0  # charlie_cards: a hand of this many cards, not bust, wins 1 at once
    dbl3: frozenset[int] = frozenset()  # double_after_hit: totals 3+ cards may double
    rows: tuple[tuple[Counts, Fraction, bool], ...] = ()  # bonus_hands of any suits for
    # this hand: (rank counts, pays, settles)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f) for f in _CTX_FIELDS)))

    def __hash__(self) -> int:  # hashed on every memo look-up: computed once
        return self._hash  # type: ignore[attr-defined,no-any-return]


# Values in this recursion are integers (a Fraction only where a suited-6-7-8
# chance enters): the expectation times ``ctx.scale`` times n!, n the number of
# unseen cards at that point, i.e. a sum over the n! orderings of the unseen cards
# (the first of them being the dealer's hole / second card when the player stops).
# Hitting is then sum over kinds of (count) * (child's value), with no division.


@functools.cache
def _fact(n: int) -> int:
    return math.factorial(n)


@functools.cache
def second_card_perm(shoe10: Counts, up: int, h17: bool, push22: bool = False
                     ) -> tuple[int, ...]:
    """The dealer's end (:data:`DEALER_STATES`: 17..21, bust, blackjack, 22) when his
    second card and draws come from ``shoe10``, counted in orderings of its n cards (sum
    n!)."""
    n = sum(shoe10)
    if n == 0:
        raise ShoeExhausted("the dealer's second card must come from an empty shoe")
    acc = [0] * 8
    for i, c in enumerate(shoe10):
        if not c:
            continue
        if _completes_bj(up, i + 1):
            acc[6] += c * _fact(n - 1)
            continue
        k, ways = _dealer_ways(_minus(shoe10, i), up + i + 1, up == 1 or i == 0, h17, push22)
        for j in range(7):
            acc[_end_index(j)] += c * ways[j] * _fact(n - 1 - k)
    return tuple(acc)


def _no_bj_perm(unseen: Counts, ctx: HandCtx) -> int:
    """Orderings counted by a result that is not void: in a peek game those whose
    first card (the hole card) does not complete a blackjack, else all n!."""
    n = sum(unseen)
    if not ctx.peek or ctx.up not in (1, 10):
        return _fact(n)
    bj = unseen[9] if ctx.up == 1 else unseen[0]
    return (n - bj) * _fact(n - 1) if n else 0


_CTX_FIELDS = ("up", "peek", "h17", "push22", "bonus_stands", "loss1", "loss2", "scale", "b777",
               "b678", "q678", "split", "one_card", "dbl2", "order", "charlie", "dbl3", "rows")


def _bonus_value(c10: Counts, unseen: Counts, ctx: HandCtx) -> int | Fraction | None:
    """Value of arriving (undoubled) at a three-card bonus hand, None if it is not one.
    Paid at once; with ``ctx.bonus_stands`` the hand then also stands as a 21. A row of
    ``bonus_hands`` (``ctx.rows``): paid at once (the higher of it and a shorthand's),
    then settled or standing on its total."""
    for counts, pays, settles in ctx.rows:
        if counts == c10:
            total = _total(c10)[0]
            if c10[5] == c10[6] == c10[7] == 1 and sum(c10) == 3 and ctx.b678 > pays:
                paid = (pays + ctx.q678 * (ctx.b678 - pays)) * ctx.scale
            else:
                paid = pays * ctx.scale
            also = 0 if settles else stand_value(total, 1, unseen, ctx)
            return paid * _no_bj_perm(unseen, ctx) + also
    if sum(c10) != 3:
        return None
    also = stand_value(21, 1, unseen, ctx) if ctx.bonus_stands else 0
    if c10[6] == 3 and ctx.b777:
        return int(ctx.b777 * ctx.scale) * _no_bj_perm(unseen, ctx) + also
    if c10[5] == c10[6] == c10[7] == 1 and ctx.b678 and ctx.q678:
        paid = int(ctx.b678 * ctx.scale) * _no_bj_perm(unseen, ctx) + also
        return ctx.q678 * paid + (1 - ctx.q678) * stand_value(21, 1, unseen, ctx)
    return None


@functools.cache
def stand_value(total: int, bet: int, unseen: Counts, ctx: HandCtx) -> int:
    """Standing on ``total`` with ``bet`` units; ``unseen`` holds the dealer's
    second card (drawn from it) and his draws."""
    law = second_card_perm(unseen, ctx.up, ctx.h17, ctx.push22)
    value = law[5] + law[7] * 0  # (a dealer's 22, where it is apart, pushes)
    for k in range(5):
        d = 17 + k
        value += law[k] * ((total > d) - (total < d))
    value *= bet * ctx.scale
    if ctx.peek:
        return value  # E[... * 1{no blackjack}]: the blackjack part is 0
    return value - law[6] * int((ctx.loss1 if bet == 1 else ctx.loss2) * ctx.scale)


def _arrive(c10: Counts, unseen: Counts, ctx: HandCtx) -> int | Fraction:
    """Value of a hand that has just drawn to ``c10`` (not doubled)."""
    if _hard(c10) > 21:
        return -ctx.scale * _no_bj_perm(unseen, ctx)
    if _charlie(c10, ctx):  # wins its bet at once (peek: only with no dealer blackjack)
        return ctx.scale * _no_bj_perm(unseen, ctx)
    bonus = _bonus_value(c10, unseen, ctx)
    if bonus is not None:
        return bonus
    return _node(c10, unseen, ctx)[0]


def _charlie(c10: Counts, ctx: HandCtx) -> bool:
    """A Charlie (RULES text, ``charlie_cards``): "a player hand reaching that many cards
    without busting wins at once (even money)"; the caller has checked it is not bust."""
    return ctx.charlie > 0 and sum(c10) >= ctx.charlie


def _can_draw(unseen: Counts) -> bool:
    # one unseen card must stay for the dealer's hole / second card
    return sum(unseen) >= 2


def hit_value(c10: Counts, unseen: Counts, ctx: HandCtx) -> int | Fraction:
    out: int | Fraction = 0
    for i, c in enumerate(unseen):
        if c:
            out += c * _arrive(_plus(c10, i), _minus(unseen, i), ctx)
    return out


def double_value(c10: Counts, unseen: Counts, ctx: HandCtx) -> int:
    out = 0
    for i, c in enumerate(unseen):
        if not c:
            continue
        h = _plus(c10, i)
        left = _minus(unseen, i)
        if _hard(h) > 21:
            v = -2 * ctx.scale * _no_bj_perm(left, ctx)
        else:
            v = stand_value(_total(h)[0], 2, left, ctx)
        out += c * v
    return out


def to_ev(value: int | Fraction, unseen: Counts, ctx: HandCtx) -> Fraction:
    """A recursion value as an expectation per unit bet (peek: times P(no blackjack))."""
    return Fraction(value) / (ctx.scale * _fact(sum(unseen)))


NODE_TIES: set[tuple] = set()
"""Hands where two actions of :func:`_node` have exactly equal values (the choice,
stand before hit before double, may change the distribution but not the EV)."""


def _best(options: Mapping[str, int | Fraction], order: tuple[str, ...] = ACTION_ORDER) -> str:
    top = max(options.values())
    return next(a for a in order if options.get(a) == top)


@functools.cache
def _node(c10: Counts, unseen: Counts, ctx: HandCtx) -> tuple[int | Fraction, str]:
    """(value, best action) of a hand after its first decision (or a split hand),
    holding ``c10`` with ``unseen`` cards unseen: stand or hit (a split hand's
    forced second card, its two-card double)."""
    n = sum(c10)
    total = _total(c10)[0]
    options: dict[str, int | Fraction] = {}
    if ctx.split and n == 1:
        if sum(unseen) < 2:
            raise ShoeExhausted("a split hand needs its second card")
        options["hit"] = hit_value(c10, unseen, ctx)
    elif total == 21 or (ctx.split and ctx.one_card and n == 2):
        options["stand"] = stand_value(total, 1, unseen, ctx)
        if ctx.split and n == 2 and total in ctx.dbl2 and _can_draw(unseen):
            options["double"] = double_value(c10, unseen, ctx)  # (hand_of_21_stands off)
    else:
        options["stand"] = stand_value(total, 1, unseen, ctx)
        if _can_draw(unseen):
            options["hit"] = hit_value(c10, unseen, ctx)
            if (ctx.split and n == 2 and total in ctx.dbl2) or (n >= 3 and total in ctx.dbl3):
                options["double"] = double_value(c10, unseen, ctx)
    action = _best(options, ctx.order)
    if sum(1 for v in options.values() if v == options[action]) > 1:
        NODE_TIES.add((c10, unseen, ctx.up, ctx.split, tuple(sorted(options))))
    return options[action], action


# ------------------------------------------------ total-dependent hit/stand


def _compositions(shoe10: Counts, hard_max: int = 21) -> Iterator[Counts]:
    """Every multiset of ranks drawn from ``shoe10`` with hard total <= hard_max."""
    def rec(i: int, left: int, acc: list[int]) -> Iterator[Counts]:
        if i == 10:
            yield tuple(acc)
            return
        for k in range(min(shoe10[i], left // (i + 1)) + 1):
            acc.append(k)
            yield from rec(i + 1, left - k * (i + 1), acc)
            acc.pop()

    yield from rec(0, hard_max, [])


def total_dependent_play(
    shoe10: Counts, ctx: HandCtx, weight: str = "multiset", peek_scale: str = "conditional"
) -> dict[tuple[bool, int], str]:
    """The total-dependent hit/stand play against ``ctx.up`` (strategy.py docstring):
    for each (soft, total) below 21, "hit" when hitting beats standing summed over
    every composition of two or more cards with that total, each weighted by its
    probability as a draw from ``shoe10`` (the shoe less the up card), decided from
    the highest totals down so that later hits already follow it. Returns
    {(soft, total): "hit" | "stand"}.

    Readings of that sentence this function has to choose (options):
    ``weight``: "multiset" = P(a draw of |C| cards is the multiset C), or
    "sequence" = P(one given order of C). ``peek_scale`` (peek games, up A or T):
    "conditional" = sum the EVs given no dealer blackjack, "joint" = sum
    E[result * 1{no blackjack}] (the conditional EV times P(no blackjack | C)).
    A composition's hit EV counts a Macau bonus it can make (suit-averaged chance
    ``ctx.q678``). ``ctx`` must be a non-split context.
    """
    n_all = sum(shoe10)
    classes: dict[tuple[bool, int], list[Counts]] = {}
    for comp in _compositions(shoe10):
        if sum(comp) < 2:
            continue
        total, soft = _total(comp)
        if total >= 21 or _charlie(comp, ctx) or any(c == comp for c, _, _ in ctx.rows):
            continue  # (a Charlie, a bonus row: no decision, paid at once)
        classes.setdefault((soft, total), []).append(comp)
    order = ([(False, t) for t in range(20, 10, -1)] + [(True, t) for t in range(20, 11, -1)]
             + [(False, t) for t in range(10, 3, -1)])
    play: dict[tuple[bool, int], str] = {}
    memo: dict[tuple[Counts, Counts], int | Fraction] = {}

    def value(c10: Counts, unseen: Counts) -> int | Fraction:
        """Arriving at c10 by a draw, then playing ``play``."""
        key = (c10, unseen)
        if key in memo:
            return memo[key]
        if _hard(c10) > 21:
            v: int | Fraction = -ctx.scale * _no_bj_perm(unseen, ctx)
        elif _charlie(c10, ctx):
            v = ctx.scale * _no_bj_perm(unseen, ctx)
        else:
            bonus = _bonus_value(c10, unseen, ctx)
            total, soft = _total(c10)
            if bonus is not None:
                v = bonus
            elif total == 21 or not _can_draw(unseen):
                v = stand_value(total, 1, unseen, ctx)
            elif (act := td_action(play[(soft, total)], sum(c10), total in ctx.dbl3)) \
                    == "double":
                v = double_value(c10, unseen, ctx)
            elif act == "stand":
                v = stand_value(total, 1, unseen, ctx)
            else:
                v = hit_of(c10, unseen)
        memo[key] = v
        return v

    def hit_of(c10: Counts, unseen: Counts) -> int | Fraction:
        return sum((c * value(_plus(c10, i), _minus(unseen, i))
                    for i, c in enumerate(unseen) if c), 0)

    for cls in order:
        gain = Fraction(0)
        late: list[tuple[Fraction, Counts, Counts]] = []  # (weight, composition, unseen)
        for comp in classes.get(cls, ()):
            k = sum(comp)
            if weight == "multiset":
                w = Fraction(functools.reduce(lambda a, b: a * b,
                                              (_binom(shoe10[i], comp[i]) for i in range(10)), 1),
                             _binom(n_all, k))
            else:
                w = Fraction(functools.reduce(lambda a, b: a * b,
                                              (_ff(shoe10[i], comp[i]) for i in range(10)), 1),
                             _ff(n_all, k))
            unseen = _diff(shoe10, comp)
            if not _can_draw(unseen):
                continue
            if k >= 3 and cls[1] in ctx.dbl3:
                late.append((w, comp, unseen))
            d = hit_of(comp, unseen) - stand_value(cls[1], 1, unseen, ctx)
            # d / (scale n!) is the joint expectation; / P(no blackjack) the conditional one
            if ctx.peek and peek_scale == "conditional":
                gain += w * Fraction(d, _no_bj_perm(unseen, ctx))
            else:
                gain += w * Fraction(d, _fact(sum(unseen)))
        play[cls] = "hit" if gain > 0 else "stand"
        # double_after_hit: the total's hands of three or more cards double where doubling
        # beats the play just chosen, summed over them with the same weights ("Dh", "Ds")
        late_gain = Fraction(0)
        for w, comp, unseen in late:
            d = double_value(comp, unseen, ctx) - (
                hit_of(comp, unseen) if play[cls] == "hit"
                else stand_value(cls[1], 1, unseen, ctx))
            if ctx.peek and peek_scale == "conditional":
                late_gain += w * Fraction(d, _no_bj_perm(unseen, ctx))
            else:
                late_gain += w * Fraction(d, _fact(sum(unseen)))
        if late and late_gain > 0:
            play[cls] = "Dh" if play[cls] == "hit" else "Ds"
    return play


def td_action(play: str, cards: int, may_double: bool) -> str:
    """A total-dependent play entry ("hit", "stand", or under double_after_hit "Dh", "Ds":
    double, else hit / stand) played on a hand of ``cards`` cards that may double or not."""
    if play in ("Dh", "Ds"):
        if cards >= 3 and may_double:
            return "double"
        return "hit" if play == "Dh" else "stand"
    return play


# ------------------------------------------------------------- the round


@dataclass
class RoundResult:
    """EV per unit initial bet of a round, its net-result distribution and notes."""

    ev: Fraction
    distribution: dict[Fraction, Fraction]
    decisions: dict[tuple[Kind, Kind, Kind], str] = field(default_factory=dict)
    ties: list[tuple[tuple[Kind, Kind, Kind], tuple[str, ...]]] = field(default_factory=list)

    def bins(self) -> dict[float, float]:
        """The distribution with keys rounded to 0.01, as the calculator reports it."""
        out: dict[float, float] = {}
        for x, p in self.distribution.items():
            key = round(float(x), 2)
            out[key] = out.get(key, 0.0) + float(p)
        return out


def _rules_fraction(x: float) -> Fraction:
    return Fraction(repr(float(x)))


_DOUBLE_ON = {"any": range(2, 22), "9-11": range(9, 12), "10-11": range(10, 12),
              "11": range(11, 12), "none": range(0)}


def clear_caches() -> None:
    """Forget every memoised value (they are keyed by shoe; a new oracle starts afresh)."""
    for f in (_dealer_ways, second_card_perm, stand_value, _node):
        f.cache_clear()
    NODE_TIES.clear()


class RoundOracle:
    """The whole-round brute force for one ruleset and one shoe (see the module doc).

    ``counts``: 10 rank counts (ace first). ``suits``: for a suited-bonus game,
    ``suits[j][k]`` = number of cards of rank 6 + j in suit ``"shdc"[k]`` (default:
    each of those ranks spread evenly over the four suits, which needs counts
    divisible by 4). ``hole_timing``: "before" / "after" (default from the rules,
    module doc). ``split_suits``: "aware" (a split 6, 7 or 8 decides knowing the suits
    of its own two cards) or "blind" (ranks only, the suit-averaged chance).
    ``td_weight``, ``td_peek_scale``, ``td_suited_bonus``: readings of the
    total-dependent play (module doc). ``tie_order``: how exact ties are broken.
    Creating an oracle clears the module's memos (they are keyed by shoe).
    """

    def __init__(self, rules: BlackjackRules, counts: Counts,
                 suits: tuple[tuple[int, ...], ...] | None = None,
                 hole_timing: str | None = None, split_suits: str = "aware",
                 td_weight: str = "multiset", td_peek_scale: str = "conditional",
                 td_suited_bonus: bool = True,
                 tie_order: tuple[str, ...] = ACTION_ORDER,
                 insure_vs_ace: bool = False) -> None:
        if rules.max_split_hands > 2:
            raise NotImplementedError("the round oracle handles one split (two hands) only")
        if rules.surrender == "early" and rules.peek:
            raise NotImplementedError("early surrender in a peek game")
        if split_suits not in ("aware", "blind"):
            raise ValueError("split_suits is 'aware' or 'blind'")
        self.split_suits = split_suits
        if insure_vs_ace and not rules.insurance:
            raise ValueError("the rules offer no insurance")
        self.insure_all = insure_vs_ace
        self.insure = insure_vs_ace  # the deal being played takes insurance (_play_deal)
        clear_caches()
        self.rules = rules
        self.tie_order = tuple(tie_order)
        self.peek = rules.peek
        self.h17 = rules.dealer_hits_soft_17
        self.push22 = rules.dealer_22_pushes
        self.bj_pays = _rules_fraction(rules.blackjack_pays)
        self.b777 = _rules_fraction(rules.bonus_777)
        self.b678 = _rules_fraction(rules.bonus_suited_678)
        if any(row.suited for row in rules.bonus_hands):
            raise ValueError("suited rows of bonus_hands are not read by this oracle")
        self.rows = tuple((row.counts, _rules_fraction(row.pays), row.settles,
                           row.split_hands) for row in rules.bonus_hands)
        self.suited = self.b678 > 0
        self.kinds = SUITED_KINDS if self.suited else RANK_KINDS
        self.rank_of = tuple(r for r, _ in self.kinds)
        if self.suited:
            if suits is None:
                if any(counts[r - 1] % 4 for r in (6, 7, 8)):
                    raise ValueError("give the suits: 6s, 7s, 8s are not a multiple of 4")
                suits = tuple((counts[r - 1] // 4,) * 4 for r in (6, 7, 8))
            for j in range(3):
                if sum(suits[j]) != counts[5 + j]:
                    raise ValueError("suits do not add up to the 6s/7s/8s")
            self.shoe0 = tuple(counts[r - 1] if s is None else suits[r - 6][SUITS.index(s)]
                               for r, s in self.kinds)
            # a 6-7-8 made by cards whose suits are not looked at is suited with this chance
            self.q_blind = sum(
                (Fraction(suits[0][k], counts[5]) * Fraction(suits[1][k], counts[6])
                 * Fraction(suits[2][k], counts[7]) for k in range(4)), Fraction(0))
        else:
            self.shoe0 = tuple(counts)
            self.q_blind = Fraction(0)
        self.counts0 = tuple(counts)
        self._relabel = self._suit_relabellings(suits)
        if hole_timing is None:
            hole_timing = "before" if rules.peek or rules.decks == 1 else "after"
        if rules.peek and hole_timing != "before":
            raise ValueError("a peek game deals the hole card before the player acts")
        self.hole_timing = hole_timing
        self.double_totals = frozenset(_DOUBLE_ON[rules.double_on])
        self.max_hands = rules.max_split_hands
        self.no_split = _no_split_ranks(rules.no_split_ranks)
        self.td_options = {"weight": td_weight, "peek_scale": td_peek_scale}
        self.td_suited_bonus = td_suited_bonus
        self._td: dict[int, dict[tuple[bool, int], str]] = {}
        self._dealer_memo: dict[tuple, tuple[int, ...]] = {}
        self._values_memo: dict[tuple[int, int, int], dict[str, Fraction]] = {}
        self._finish_memo: dict[tuple, dict[int, int]] = {}
        self._nets_memo: dict[tuple, tuple[int, ...] | int] = {}
        self._ctx_memo: dict[tuple, HandCtx] = {}
        self._c10_memo: dict[tuple[Kind, ...], Counts] = {}
        self._fold_memo: dict[Counts, Counts] = {}
        self._matter_memo: dict[tuple, bool] = {}
        self.node_ties_played: set[tuple] = set()
        """Tied decisions after the first one that the optimal play reached."""
        self._policy_cache: dict[tuple, Callable[[tuple[Kind, ...]], str]] = {}
        self._hand_memo: dict[tuple, dict[int, int]] = {}
        self._strip_memo: dict[tuple[Kind, ...], tuple[Kind, ...]] = {}
        self._add_memo: dict[tuple, tuple[Kind, ...]] = {}
        self._bonus_memo: dict[tuple, tuple[int, bool]] = {}
        self._tag_ids: dict[tuple, int] = {}
        n0 = sum(self.shoe0)
        self.fact = [1] * (n0 + 1)
        for i in range(1, n0 + 1):
            self.fact[i] = self.fact[i - 1] * i
        scale = 2
        for x in (self.bj_pays, self.b777, self.b678, *(r[1] for r in self.rows)):
            scale = scale * x.denominator // math.gcd(scale, x.denominator)
        self.scale = scale

    def _suit_relabellings(self, suits: tuple[tuple[int, ...], ...] | None
                           ) -> tuple[tuple[int, ...], ...]:
        """The renamings of the suits that map the shoe onto itself, as maps of kind
        indices (the identity first); only the identity unless each of the 6s, 7s and
        8s is spread evenly over the four suits.

        Why a deal and its renamed deal have one distribution: a renaming sigma of
        the suits is a bijection of the physical cards that keeps every rank and,
        when each rank has as many cards of every suit, maps the shoe onto itself,
        so it maps the orderings of the shoe one to one onto themselves. The rules
        look at suits only through "three cards of one suit", which sigma keeps;
        so every decision (it reads the same ranks and the same "shares a suit"
        facts) and every payout of an ordering equals that of its image. Hence the
        deal (p1, up, p2) and (sigma p1, sigma up, sigma p2) have the same values
        and the same distribution of the round's net result; :meth:`analyse` plays
        one deal of each class and counts it for all of them.
        """
        identity = tuple(range(len(self.kinds)))
        if not self.suited or suits is None or any(len(set(row)) != 1 for row in suits):
            return (identity,)
        index = {kind: k for k, kind in enumerate(self.kinds)}
        maps = []
        for perm in itertools.permutations(SUITS):
            rename = dict(zip(SUITS, perm, strict=True))
            maps.append(tuple(index[(r, None if s is None else rename[s])]
                              for r, s in self.kinds))
        return tuple(maps)

    def _deal_class(self, info: tuple[int, int, int]) -> tuple[int, int, int]:
        """The first, in index order, of the deals that a suit renaming maps ``info``
        onto (:meth:`_suit_relabellings`): one name for the class."""
        if len(self._relabel) == 1:
            return info
        return min((m[info[0]], m[info[1]], m[info[2]]) for m in self._relabel)

    # --- small helpers

    def fold(self, shoe: Counts) -> Counts:
        """Counts per rank of a shoe (of kinds, or already of ranks)."""
        if len(shoe) == 10:
            return shoe
        hit = self._fold_memo.get(shoe)
        if hit is None:
            hit = self._fold_memo[shoe] = self._fold(shoe)
        return hit

    def _fold(self, shoe: Counts) -> Counts:
        out = [0] * 10
        for k, n in enumerate(shoe):
            out[self.rank_of[k] - 1] += n
        return tuple(out)

    def rank_counts(self, cards: tuple[Kind, ...]) -> Counts:
        """Counts per rank of a hand given as (rank, suit) pairs."""
        hit = self._c10_memo.get(cards)
        if hit is None:
            out = [0] * 10
            for r, _ in cards:
                out[r - 1] += 1
            hit = self._c10_memo[cards] = tuple(out)
        return hit

    def ctx(self, up: int, *, split: bool = False, second: bool = False,
            one_card: bool = False, q678: Fraction = Fraction(0)) -> HandCtx:
        """The (interned) context of a hand against ``up``."""
        key = (up, split, second, one_card, q678)
        if key not in self._ctx_memo:
            self._ctx_memo[key] = self._make_ctx(up, split, second, one_card, q678)
        return self._ctx_memo[key]

    def _make_ctx(self, up: int, split: bool, second: bool, one_card: bool,
                  q678: Fraction) -> HandCtx:
        if self.rules.enhc_loses == "all":
            loss1, loss2 = Fraction(1), Fraction(2)
        elif self.rules.enhc_loses == "original_and_splits":  # each hand's own stake, no double
            loss1 = loss2 = Fraction(1)
        elif second:
            loss1 = loss2 = Fraction(0)
        else:
            loss1 = loss2 = Fraction(1)
        b777, b678 = self.b777, self.b678
        if split and not self.rules.bonus_on_split_hands:
            b777 = b678 = Fraction(0)
        dbl2: frozenset[int] = frozenset()
        if split and self.rules.double_after_split and not one_card:
            dbl2 = self.double_totals - ({21} if self.rules.hand_of_21_stands else set())
        # double_after_hit: three or more cards, where this hand may double at all
        dbl3 = self.double_totals if self.rules.double_after_hit and (
            not split or (self.rules.double_after_split and not one_card)) else frozenset()
        return HandCtx(up=up, peek=self.peek, h17=self.h17, push22=self.push22,
                       bonus_stands=not self.rules.bonus_settles_hand, loss1=loss1,
                       loss2=loss2, scale=self.scale,
                       b777=b777, b678=b678, q678=q678 if b678 else Fraction(0), split=split,
                       one_card=one_card, dbl2=dbl2, order=self.tie_order,
                       charlie=self.rules.charlie_cards, dbl3=dbl3,
                       rows=tuple((c, p, s) for c, p, s, on_split in self.rows
                                  if on_split or not split))

    def surrender_allowed(self, up: int) -> bool:
        kind = self.rules.surrender
        return (kind in ("late", "early") or (kind == "not_vs_ace" and up != 1)
                or (kind == "2-9" and 2 <= up <= 9)
                or (kind == "late_vs_ten_ace" and up in (1, 10)))

    def hand_bonus(self, cards: tuple[Kind, ...], split: bool) -> Fraction:
        """What a three-card (undoubled) hand ``cards`` ((rank, suit) pairs) is paid at once
        by the shorthands (``bonus_777``, ``bonus_suited_678``)."""
        if len(cards) != 3 or (split and not self.rules.bonus_on_split_hands):
            return Fraction(0)
        ranks = sorted(r for r, _ in cards)
        if ranks == [7, 7, 7]:
            return self.b777
        if (ranks == [6, 7, 8] and self.suited and cards[0][1] is not None
                and len({suit for _, suit in cards}) == 1):
            return self.b678
        return Fraction(0)

    def _suits_matter(self, cards: tuple[Kind, ...], later: tuple[tuple[Kind, ...], ...],
                      split: bool) -> bool:
        """Whether a suit can still decide a suited 6-7-8: for the hand now holding
        ``cards`` (up to three cards of distinct ranks among 6, 7, 8, one suit) or for
        a later hand starting from ``later``."""
        key = (cards, later, split)
        hit = self._matter_memo.get(key)
        if hit is None:
            hit = self._matter_memo[key] = self._suits_matter_now(cards, later, split)
        return hit

    def _suits_matter_now(self, cards: tuple[Kind, ...], later: tuple[tuple[Kind, ...], ...],
                          split: bool) -> bool:
        if not self.suited:
            return False
        if split and not self.rules.bonus_on_split_hands:
            return False

        def open_(hand: tuple[Kind, ...]) -> bool:
            ranks = [r for r, _ in hand]
            return (len(hand) <= 3 and all(r in (6, 7, 8) for r in ranks)
                    and len(set(ranks)) == len(ranks) and len({s for _, s in hand}) == 1)

        return open_(cards) or any(open_(h) for h in later)

    def _strip(self, cards: tuple[Kind, ...], shoe: Counts) -> tuple[tuple[Kind, ...], Counts]:
        """Forget the suits (they can no longer matter): rank-only cards and shoe."""
        hit = self._strip_memo.get(cards)
        if hit is None:
            hit = self._strip_memo[cards] = tuple((r, None) for r, _ in cards)
        return hit, self.fold(shoe)

    def _add(self, cards: tuple[Kind, ...], card: Kind) -> tuple[Kind, ...]:
        """The hand ``cards`` with ``card`` added, in the canonical (sorted) order."""
        key = (cards, card)
        hit = self._add_memo.get(key)
        if hit is None:
            hit = self._add_memo[key] = tuple(sorted((*cards, card), key=_kind_key))
        return hit

    def _bonus_scaled(self, cards: tuple[Kind, ...], split: bool) -> tuple[int, bool]:
        """What ``cards`` are paid at once times ``scale`` (an int: ``scale`` clears the
        denominators), and whether the hand is then settled: the shorthands'
        (:meth:`hand_bonus`, settled as ``bonus_settles_hand`` says) or a row's of
        ``bonus_hands`` whose ranks are the hand's, the higher."""
        key = (cards, split)
        hit = self._bonus_memo.get(key)
        if hit is None:
            best = (self.hand_bonus(cards, split) if len(cards) == 3 else Fraction(0),
                    self.rules.bonus_settles_hand)
            c10 = self.rank_counts(cards)
            for counts, pays, settles, on_split in self.rows:
                if counts == c10 and (on_split or not split) and pays > best[0]:
                    best = (pays, settles)
            value = best[0] * self.scale
            assert value.denominator == 1
            hit = self._bonus_memo[key] = (int(value), best[1])
        return hit

    def _tag_id(self, tags: tuple) -> int:
        """A small int standing for the hands' policy tags in memo keys (tags are deep
        tuples, hashed again on every look-up otherwise); one id per distinct tags."""
        return self._tag_ids.setdefault(tags, len(self._tag_ids))

    def td_play(self, up: int) -> dict[tuple[bool, int], str]:
        if up not in self._td:
            shoe10 = _minus(self.counts0, up - 1)
            q = self.q_blind if self.td_suited_bonus else Fraction(0)
            self._td[up] = total_dependent_play(shoe10, self.ctx(up, q678=q), **self.td_options)
        return self._td[up]

    # --- settling (net results are ints: units times ``self.scale``)

    def settle(self, out: Outcome, k: int | None, second: bool) -> int:
        """A hand's result times ``scale``; ``k`` the dealer's end (0..4 = 17..21,
        5 bust, 6 blackjack, 7 a 22 that pushes), None when the hand does not need the
        dealer."""
        kind = out[0]
        if kind == "bust":
            return -out[1] * self.scale
        if kind == "bonus":
            return out[1]  # already an int: the amount times scale
        if kind == "bonus21":  # paid at once, then its one unit stands (as a 21, or its total)
            return out[1] + self.settle(("total", out[2] if len(out) > 2 else 21, 1), k,
                                        second)
        if kind == "surrender":
            if self.rules.surrender in LATE_SURRENDER and not self.peek and k == 6:
                return -self.scale
            return -self.scale // 2
        total, bet = out[1], out[2]
        assert k is not None
        if k == 6:
            if self.rules.enhc_loses == "all":
                return -bet * self.scale
            if self.rules.enhc_loses == "original_and_splits":  # its stake; a double returned
                return -self.scale
            return 0 if second else -self.scale
        if k == 5:
            return bet * self.scale
        if k == 7:  # dealer_22_pushes: every hand still standing pushes his 22
            return 0
        dealer = 17 + k
        return bet * ((total > dealer) - (total < dealer)) * self.scale

    def insurance(self, up: int, blackjack: bool) -> int:
        """The insurance bet's result times ``scale`` (0 when none is taken)."""
        if not (self.insure and up == 1):
            return 0
        return self.scale if blackjack else -self.scale // 2

    def needs_dealer(self, out: Outcome) -> bool:
        return out[0] in ("total", "bonus21") or (out[0] == "surrender" and not self.peek
                                     and self.rules.surrender in LATE_SURRENDER)

    # --- exact counting: every probability is a number of orderings of the cards
    #
    # A function of a shoe R of n cards returns, for each net result, the number of
    # the n! orderings of R's physical cards (cards of one kind told apart) that
    # produce it, so that dividing by n! gives the probability. Drawing a card of a
    # kind with c cards left multiplies a child's counts by c.

    def dealer_perm(self, shoe: Counts, up: int, hole: int | None) -> tuple[int, ...]:
        """The dealer's end (:data:`DEALER_STATES`) from ``shoe`` (real kinds), as
        orderings of its cards; ``hole``: the rank of his hole card, or None when his
        second card is still to come from ``shoe``."""
        key = (self.fold(shoe), up, hole)
        hit = self._dealer_memo.get(key)
        if hit is not None:
            return hit
        s10, fact = key[0], self.fact
        n = sum(s10)
        acc = [0] * 8
        if hole is not None:
            if _completes_bj(up, hole):
                acc[6] = fact[n]
            else:
                k, ways = _dealer_ways(s10, up + hole, up == 1 or hole == 1, self.h17,
                                       self.push22)
                for j in range(7):
                    acc[_end_index(j)] = ways[j] * fact[n - k]
        else:
            if n == 0:
                raise ShoeExhausted("the dealer's second card must come from an empty shoe")
            for i, c in enumerate(s10):
                if not c:
                    continue
                if _completes_bj(up, i + 1):
                    acc[6] += c * fact[n - 1]
                    continue
                k, ways = _dealer_ways(_minus(s10, i), up + i + 1, up == 1 or i == 0, self.h17,
                                       self.push22)
                for j in range(7):
                    acc[_end_index(j)] += c * ways[j] * fact[n - 1 - k]
        out = tuple(acc)
        assert sum(out) == fact[n]
        self._dealer_memo[key] = out
        return out

    def _nets(self, outs: tuple[Outcome, ...]) -> tuple[int, ...] | int:
        """The round's net result for hands' ends ``outs``: one int when no hand
        needs the dealer, else one per dealer end (:data:`DEALER_STATES`)."""
        hit = self._nets_memo.get(outs)
        if hit is None:
            if any(self.needs_dealer(o) for o in outs):
                hit = tuple(sum(self.settle(o, k, i == 1) for i, o in enumerate(outs))
                            for k in range(8))
            else:
                hit = sum(self.settle(o, None, i == 1) for i, o in enumerate(outs))
            self._nets_memo[outs] = hit
        return hit

    def finish(self, outs: tuple[Outcome, ...], shoe: Counts, up: int, hole: int | None
               ) -> dict[int, int]:
        """Settle the hands' ends ``outs`` (hand 1 first) with the dealer drawing
        from ``shoe`` when some hand needs him: {net: orderings of ``shoe``}."""
        key = (outs, shoe, up, hole, self.insure)
        hit = self._finish_memo.get(key)
        if hit is not None:
            return hit
        nets = self._nets(outs)
        out: dict[int, int] = {}
        if self.insure and up == 1 and not isinstance(nets, tuple):
            nets = (nets,) * 8  # the insurance needs the dealer's hand
        if isinstance(nets, tuple):
            law = self.dealer_perm(shoe, up, hole)
            for k, (net, cnt) in enumerate(zip(nets, law, strict=True)):
                if cnt:
                    net += self.insurance(up, k == 6)
                    out[net] = out.get(net, 0) + cnt
        else:
            out[nets] = self.fact[sum(shoe)]
        self._finish_memo[key] = out
        return out

    def hand_dist(self, hands: tuple, tags: int, index: int, cards: tuple[Kind, ...],
                  shoe: Counts, up: int, hole: int | None, prior: tuple[Outcome, ...]
                  ) -> dict[int, int]:
        """Hand ``index`` of ``hands`` (each (tag, policy, start cards, split);
        ``tags`` the id of their tags, :meth:`_tag_id`) holds real kinds ``cards``
        and plays on from ``shoe``; then the later hands, then the dealer.
        ``prior``: the ends of the earlier hands. {net: orderings of ``shoe``}."""
        key = (tags, index, cards, shoe, up, hole, prior, self.insure)
        memo = self._hand_memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        _, policy, _, split = hands[index]
        c10 = self.rank_counts(cards)
        hard = _hard(c10)
        end: Outcome | None = None
        action = None
        if hard > 21:
            end = ("bust", 1)
        elif self.rules.charlie_cards and len(cards) >= self.rules.charlie_cards:
            end = ("bonus", self.scale)  # a Charlie wins its bet at once
        elif len(cards) >= 3 and (bonus := self._bonus_scaled(cards, split))[0]:
            total = hard + 10 if c10[0] and hard <= 11 else hard
            end = ("bonus", bonus[0]) if bonus[1] else ("bonus21", bonus[0], total)
        else:
            action = policy(cards)
            if action == "stand":
                end = ("total", hard + 10 if c10[0] and hard <= 11 else hard, 1)
        out: dict[int, int] = {}
        if end is not None:
            out = self._next(hands, tags, index, shoe, up, hole, (*prior, end))
        else:
            if sum(shoe) == 0:
                raise ShoeExhausted("the player must draw from an empty shoe")
            get = out.get
            layout = RANK_KINDS if len(shoe) == 10 else self.kinds
            later = tuple(h[2] for h in hands[index + 1:])
            # children that differ only in suits no longer relevant are one state
            children: dict[tuple, int] = {}
            for k, c in enumerate(shoe):
                if not c:
                    continue
                card = layout[k]
                left = _minus(shoe, k)
                if action == "double":
                    h = hard + card[0]
                    if h > 21:
                        res: Outcome = ("bust", 2)
                    else:
                        ace = c10[0] or card[0] == 1
                        res = ("total", h + 10 if ace and h <= 11 else h, 2)
                    if len(left) != 10 and not self._suits_matter((), later, True):
                        left = self.fold(left)
                    child: tuple = ("end", left, res)
                else:
                    new = self._add(cards, card)
                    if len(left) != 10 and not self._suits_matter(new, later, split):
                        new, left = self._strip(new, left)
                    child = ("hand", left, new)
                children[child] = children.get(child, 0) + c
            for (what, left, x), c in children.items():
                if what == "end":
                    sub = self._next(hands, tags, index, left, up, hole, (*prior, x))
                else:
                    sub = memo.get((tags, index, x, left, up, hole, prior))
                    if sub is None:
                        sub = self.hand_dist(hands, tags, index, x, left, up, hole, prior)
                for net, cnt in sub.items():
                    out[net] = get(net, 0) + c * cnt
        memo[key] = out
        return out

    def _next(self, hands: tuple, tags: int, index: int, shoe: Counts, up: int,
              hole: int | None, prior: tuple[Outcome, ...]) -> dict[int, int]:
        """After hand ``index`` ended: the next hand, or the settlement."""
        if index + 1 < len(hands):
            start = hands[index + 1][2]
            split = hands[index + 1][3]
            if len(shoe) != 10 and not self._suits_matter(start, tuple(
                    h[2] for h in hands[index + 2:]), split):
                start, shoe = self._strip(start, shoe)
            return self.hand_dist(hands, tags, index + 1, start, shoe, up, hole, prior)
        return self.finish(prior, shoe, up, hole)

    # --- strategies

    def _optimal_policy(self, up: int, view_base: Counts, ctx: HandCtx
                        ) -> Callable[[tuple[Kind, ...]], str]:
        """Decisions of :func:`_node` for a hand whose unseen cards are ``view_base``
        (ranks) less its own cards."""
        memo: dict[tuple[int, ...], str] = {}

        def policy(cards: tuple[Kind, ...]) -> str:
            if cards not in memo:
                c10 = self.rank_counts(cards)
                unseen = _diff(view_base, c10)
                memo[cards] = _node(c10, unseen, ctx)[1]
                for tie in NODE_TIES:
                    if tie[:4] == (c10, unseen, ctx.up, ctx.split):
                        self.node_ties_played.add(tie)
            return memo[cards]
        return policy

    def _suit_aware_policy(self, info: tuple[int, int, int], pk: int, up: int,
                           view_base: Counts, ctx: HandCtx
                           ) -> Callable[[tuple[Kind, ...]], str]:
        """:meth:`_optimal_policy` of a split 6, 7 or 8 whose two-card decision knows
        whether its second card has the pair card's suit (later ones do not depend on it:
        only a three-card 6-7-8 is paid, and it stands on 21)."""
        by_q: dict[Fraction, Callable[[tuple[Kind, ...]], str]] = {}
        memo: dict[tuple[Kind, ...], str] = {}

        def policy(cards: tuple[Kind, ...]) -> str:
            hit = memo.get(cards)
            if hit is None:
                hit = memo[cards] = decide(cards)
            return hit

        def decide(cards: tuple[Kind, ...]) -> str:
            q = Fraction(0)
            if len(cards) == 2 and ctx.b678:
                q = self._split_second_q(info, cards[0], cards[1])
            if q not in by_q:
                by_q[q] = self._optimal_policy(up, view_base, replace(ctx, q678=q))
            return by_q[q](cards)
        return policy

    def _chart_policy(self, up: int, chart: Chart, split: bool, one_card: bool
                      ) -> Callable[[tuple[Kind, ...]], str]:
        td = self.td_play(up)
        sym = _symbol(up)
        das = self.rules.double_after_split and not one_card

        def policy(cards: tuple[Kind, ...]) -> str:
            c10 = self.rank_counts(cards)
            total, soft = _total(c10)
            n = len(cards)
            if split and n == 1:
                return "hit"
            if total == 21 or (split and one_card and n == 2):
                return "stand"
            if split and n == 2:
                code = (chart.soft if soft else chart.hard)[total][sym]
                return _split_hand_code(code, das and total in self.double_totals)
            return td_action(td[(soft, total)], n, total in ctx3)
        ctx3 = self.ctx(up, split=split, one_card=one_card).dbl3
        return policy

    # --- the deal

    def initial_infos(self) -> dict[tuple[int, int, int], int]:
        """Deals (p1, up, p2) over real kinds, in dealing order, with their number of
        ways (ordered physical cards; divide by ff(n, 3))."""
        s0 = self.shoe0
        out = {}
        for p1, c1 in enumerate(s0):
            if not c1:
                continue
            s1 = _minus(s0, p1)
            for up, cu in enumerate(s1):
                if not cu:
                    continue
                s2 = _minus(s1, up)
                for p2, c2 in enumerate(s2):
                    if c2:
                        out[(p1, up, p2)] = c1 * cu * c2
        return out

    def action_distribution(self, info: tuple[int, int, int], action: str,
                            policies: tuple) -> dict[int, int]:
        """The distribution of the round's net result (times ``scale``) given the deal
        ``info`` = (p1, up, p2) and the player's initial ``action``, dealer blackjacks
        included, as orderings of the n cards left after the deal (divide by n!).
        ``policies``: ((tag, policy),) for the hand after a hit, or one per split hand.
        The hole card, when the rules deal it now, is enumerated first."""
        p1, up_k, p2 = info
        up = self.rank_of[up_k]
        shoe = _minus(_minus(_minus(self.shoe0, p1), up_k), p2)
        c1, c2 = self.kinds[p1], self.kinds[p2]
        hand = tuple(sorted((c1, c2), key=_kind_key))
        natural = sorted((c1[0], c2[0])) == [1, 10]
        if action == "even_money":  # 1:1 at once, whatever the cards left
            assert natural and self._offers_even_money(up)
            return {self.scale: self.fact[sum(shoe)]}
        dist: dict[int, int] = {}
        if action == "split":
            starts: tuple[tuple[Kind, ...], ...] = ((c1,), (c2,))
            if len(shoe) != 10 and not self._suits_matter(starts[0], starts[1:], True):
                starts = (((c1[0], None),), ((c2[0], None),))
                shoe = self.fold(shoe)
        elif len(shoe) != 10 and not (action == "hit" and self._suits_matter(hand, (), False)):
            hand, shoe = self._strip(hand, shoe)
        if self.hole_timing == "after":
            cases: list[tuple[int | None, int, Counts]] = [(None, 1, shoe)]
        else:
            cases = [(h, c, _minus(shoe, h)) for h, c in enumerate(shoe) if c]
        hole_layout = RANK_KINDS if len(shoe) == 10 else self.kinds
        for hole_k, mult, real in cases:
            hole = None if hole_k is None else hole_layout[hole_k][0]
            n = sum(real)
            if natural:
                # stands; only a dealer blackjack matters
                law = self.dealer_perm(real, up, hole) if hole is None else None
                bj = law[6] if law else (self.fact[n] if _completes_bj(up, hole) else 0)
                sub = {self.insurance(up, True): bj}
                paid = int(self.bj_pays * self.scale) + self.insurance(up, False)
                sub[paid] = sub.get(paid, 0) + self.fact[n] - bj  # (3:2 insured: both +1)
            elif self.peek and _completes_bj(up, hole):
                sub = {-self.scale + self.insurance(up, True): self.fact[n]}
            elif action == "stand":
                sub = self.finish((("total", _total(self.rank_counts(hand))[0], 1),), real, up,
                                  hole)
            elif action == "surrender":
                sub = self.finish((("surrender",),), real, up, hole)
            elif action in ("hit", "double"):
                if n == 0:
                    raise ShoeExhausted("the player must draw from an empty shoe")
                sub = {}
                hands = None
                if action == "hit":
                    tag, policy = policies[0]
                    hands = ((tag, policy, None, False),)
                layout = RANK_KINDS if len(real) == 10 else self.kinds
                for k, c in enumerate(real):
                    if not c:
                        continue
                    new = tuple(sorted((*hand, layout[k]), key=_kind_key))
                    left = _minus(real, k)
                    if len(left) != 10 and not self._suits_matter(new, (), False):
                        new, left = self._strip(new, left)
                    if action == "double":
                        h = self.rank_counts(new)
                        res: Outcome = ("bust", 2) if _hard(h) > 21 else ("total", _total(h)[0], 2)
                        part = self.finish((res,), left, up, hole)
                    else:
                        part = self.hand_dist(hands, self._tag_id((hands[0][0],)), 0, new,
                                              left, up, hole, ())
                    for net, cnt in part.items():
                        sub[net] = sub.get(net, 0) + c * cnt
            elif action == "split":
                (tag1, pol1), (tag2, pol2) = policies
                hands = ((tag1, pol1, starts[0], True), (tag2, pol2, starts[1], True))
                sub = self.hand_dist(hands, self._tag_id((tag1, tag2)), 0, starts[0], real,
                                     up, hole, ())
            else:
                raise ValueError(action)
            for net, cnt in sub.items():
                if cnt:
                    dist[net] = dist.get(net, 0) + mult * cnt
        return dist

    # --- analyse

    def _info_view(self, info: tuple[int, int, int]) -> tuple[int, Counts, Counts, bool]:
        p1, up_k, p2 = info
        up = self.rank_of[up_k]
        view = self.fold(_minus(_minus(_minus(self.shoe0, p1), up_k), p2))
        c10 = self.rank_counts((self.kinds[p1], self.kinds[p2]))
        return up, view, c10, sorted(self.rank_of[k] for k in (p1, p2)) == [1, 10]

    def _root_q678(self, info: tuple[int, int, int]) -> Fraction:
        """Chance that a third card completing 6-7-8 is of the two cards' suit."""
        p1, up_k, p2 = info
        if not self.suited:
            return Fraction(0)
        (r1, s1), (r2, s2) = self.kinds[p1], self.kinds[p2]
        if {r1, r2} not in ({6, 7}, {6, 8}, {7, 8}) or s1 != s2:
            return Fraction(0)
        third = ({6, 7, 8} - {r1, r2}).pop()
        view = _minus(_minus(_minus(self.shoe0, p1), up_k), p2)
        n_third = sum(view[k] for k in range(len(self.kinds)) if self.rank_of[k] == third)
        if not n_third:
            return Fraction(0)
        return Fraction(view[self.kinds.index((third, s1))], n_third)

    def optimal_values(self, info: tuple[int, int, int]) -> dict[str, Fraction]:
        """Each allowed initial action's value given the deal (peek: times P(no
        blackjack | deal), i.e. E[result * 1{no blackjack} | deal])."""
        if info in self._values_memo:
            return self._values_memo[info]
        up, view, c10, natural = self._info_view(info)
        if natural:
            return {}
        p1, _, p2 = info
        ctx = self.ctx(up, q678=self._root_q678(info))
        total = _total(c10)[0]
        values = {"stand": to_ev(stand_value(total, 1, view, ctx), view, ctx)}
        if _can_draw(view):
            values["hit"] = to_ev(hit_value(c10, view, ctx), view, ctx)
            if total in self.double_totals:
                values["double"] = to_ev(double_value(c10, view, ctx), view, ctx)
        if self.surrender_allowed(up):
            pnb = p_no_blackjack(view, up)
            if self.peek:
                values["surrender"] = Fraction(-1, 2) * pnb
            elif self.rules.surrender in LATE_SURRENDER:
                values["surrender"] = -(1 - pnb) - pnb / 2
            else:
                values["surrender"] = Fraction(-1, 2)
        r = self.rank_of[p1]
        if r == self.rank_of[p2] and self.max_hands >= 2 and r not in self.no_split:
            values["split"] = sum(
                (to_ev(self._split_hand_value(info, pk, c), view, c)
                 for pk, c in self._split_ctxs(info)), Fraction(0))
        self._values_memo[info] = values
        return values

    def _suit_aware(self, rank: int) -> bool:
        return self.suited and self.split_suits == "aware" and rank in (6, 7, 8)

    def _split_second_q(self, info: tuple[int, int, int], one: Kind, two: Kind) -> Fraction:
        """A split hand holding the cards ``one`` and ``two`` (its pair card and its second
        card): the chance that the third card completing 6-7-8 shares their suit (0 if
        they do not share one, or a suit was forgotten because it could no longer
        matter)."""
        p1, up_k, p2 = info
        (r1, s1), (r2, s2) = one, two
        if {r1, r2} not in ({6, 7}, {6, 8}, {7, 8}) or s1 is None or s1 != s2:
            return Fraction(0)
        third = ({6, 7, 8} - {r1, r2}).pop()
        view = _minus(_minus(_minus(self.shoe0, p1), up_k), p2)  # the other pair card seen
        n_third = sum(view[k] for k in range(len(self.kinds)) if self.rank_of[k] == third)
        return Fraction(view[self.kinds.index((third, s1))], n_third) if n_third else Fraction(0)

    def _split_hand_value(self, info: tuple[int, int, int], pk: int, ctx: HandCtx
                          ) -> int | Fraction:
        """A split hand's value (recursion scale) from its pair card ``pk``: suit-aware, the
        second card is drawn by kind, and a 6-7 / 6-8 / 7-8 plays knowing whether its two
        cards share a suit; blind, by rank with ``ctx.q678``."""
        _up, view, _, _ = self._info_view(info)
        c10 = self.rank_counts((self.kinds[pk],))
        if not self._suit_aware(self.rank_of[pk]):
            return _node(c10, view, ctx)[0]
        if sum(view) < 2:
            raise ShoeExhausted("a split hand needs its second card")
        p1, up_k, p2 = info
        suited_view = _minus(_minus(_minus(self.shoe0, p1), up_k), p2)
        out: int | Fraction = 0
        for k, count in enumerate(suited_view):
            if count:
                i = self.rank_of[k] - 1
                q = self._split_second_q(info, self.kinds[pk], self.kinds[k])
                ctx_k = replace(ctx, q678=q if ctx.b678 else Fraction(0))
                out += count * _arrive(_plus(c10, i), _minus(view, i), ctx_k)
        return out

    def _split_ctxs(self, info: tuple[int, int, int]) -> list[tuple[int, HandCtx]]:
        p1, up_k, p2 = info
        up, r = self.rank_of[up_k], self.rank_of[p1]
        one = r == 1 and self.rules.split_aces_one_card
        q = self.q_blind if r in (6, 7, 8) else Fraction(0)
        return [(p1, self.ctx(up, split=True, one_card=one, q678=q)),
                (p2, self.ctx(up, split=True, second=True, one_card=one, q678=q))]

    def _policies(self, info: tuple[int, int, int], action: str, strategy: str,
                  chart: Chart | None) -> tuple:
        """((tag, policy), ...) for the hand after a hit or the two split hands;
        one policy object per tag, so that its decisions are remembered."""
        made = self._make_policies(info, action, strategy, chart)
        return tuple((tag, self._policy_cache.setdefault(tag, pol)) for tag, pol in made)

    def _make_policies(self, info: tuple[int, int, int], action: str, strategy: str,
                       chart: Chart | None) -> tuple:
        up, view, c10, _ = self._info_view(info)
        if action == "hit":
            if strategy == "optimal":
                # after the first hit a hand's decisions do not depend on its suits
                ctx = self.ctx(up)  # no bonus is made after the first hit
                base = _plus_all(view, c10)
                return ((("opt", up, base), self._optimal_policy(up, base, ctx)),)
            return ((("td", up), self._policy_td(up)),)
        if action == "split":
            out = []
            for index, (pk, ctx) in enumerate(self._split_ctxs(info)):
                if strategy == "optimal" and self._suit_aware(self.rank_of[pk]):
                    base = _plus_all(view, self.rank_counts((self.kinds[pk],)))
                    out.append((("opt-split-suits", index, ctx, base, info),
                                self._suit_aware_policy(info, pk, up, base, ctx)))
                elif strategy == "optimal":
                    base = _plus_all(view, self.rank_counts((self.kinds[pk],)))
                    out.append((("opt-split", index, ctx, base),
                                self._optimal_policy(up, base, ctx)))
                else:
                    assert chart is not None
                    out.append((("chart-split", id(chart), up, ctx.one_card),
                                self._chart_policy(up, chart, True, ctx.one_card)))
            return tuple(out)
        return ()

    def _policy_td(self, up: int) -> Callable[[tuple[Kind, ...]], str]:
        td = self.td_play(up)

        def policy(cards: tuple[Kind, ...]) -> str:
            total, soft = _total(self.rank_counts(cards))
            return "stand" if total == 21 else td_action(td[(soft, total)], len(cards),
                                                         total in self.ctx(up).dbl3)
        return policy

    def analyse(self, strategy: str = "optimal", chart: Chart | None = None,
                check: bool = True) -> RoundResult:
        """EV and net-result distribution of a round off the top of the shoe.

        ``strategy``: "optimal", or "chart" with ``chart`` the calculator's chart.
        ``check``: assert that each chosen action's brute-force EV equals the
        recursion's value (optimal play)."""
        infos = self.initial_infos()
        n0 = sum(self.shoe0)
        result = RoundResult(Fraction(0), {})
        group_values: dict[tuple[int, int, int], dict[str, Fraction]] = {}
        if strategy == "optimal":
            # split 6s, 7s, 8s decide knowing ranks only: average over the suits
            for info, w in infos.items():
                key = tuple(self.rank_of[k] for k in info)
                vals = self.optimal_values(self._deal_class(info))
                if vals:
                    acc = group_values.setdefault(key, {a: Fraction(0) for a in vals})
                    for a, v in vals.items():
                        acc[a] += w * v
        group_check: dict[tuple[int, ...], list[Fraction]] = {}
        total: dict[int, int] = {}
        played: dict[tuple[int, int, int],
                     tuple[str, dict[int, int], tuple[Fraction, Fraction] | None]] = {}
        for info, w in infos.items():
            ranks = tuple(self.rank_of[k] for k in info)
            cls = self._deal_class(info)
            if cls not in played:  # else a suit renaming of a deal already played
                played[cls] = self._play_deal(info, ranks, strategy, chart, check,
                                              group_values, result)
            action, dist, pair = played[cls]
            result.decisions[info] = action
            if pair is not None:  # suit-blind split hands: exact on average over suits
                acc = group_check.setdefault(ranks, [Fraction(0), Fraction(0)])
                acc[0] += w * pair[0]
                acc[1] += w * pair[1]
            for x, q in dist.items():
                total[x] = total.get(x, 0) + w * q
        for ranks, (got, want) in group_check.items():
            assert got == want, (ranks, got, want)
        den = self.fact[n0]
        result.distribution = {Fraction(x, self.scale): Fraction(q, den)
                               for x, q in sorted(total.items()) if q}
        result.ev = sum((x * q for x, q in result.distribution.items()), Fraction(0))
        return result

    def _play_deal(self, info: tuple[int, int, int], ranks: tuple[int, ...], strategy: str,
                   chart: Chart | None, check: bool,
                   group_values: dict[tuple[int, int, int], dict[str, Fraction]],
                   result: RoundResult
                   ) -> tuple[str, dict[int, int], tuple[Fraction, Fraction] | None]:
        """The deal ``info`` played as :meth:`analyse` says: (its first action, the
        round's distribution, and for a suit-blind split the (brute-force, recursion)
        values to check on average over the suits, else None). Exact ties that change
        the distribution go to ``result.ties``; other checks are asserted here."""
        natural = self._info_view(info)[3]
        blind = False
        tied: tuple[str, ...] = ()
        self.insure = self._deal_insures(info, strategy, chart)
        if natural:
            action = self._natural_action(info, strategy, chart)
            if action == "even_money":
                self.insure = False
        elif strategy == "optimal":
            blind = (ranks[0] == ranks[2] and ranks[0] in (6, 7, 8) and self.suited
                     and self.split_suits == "blind")
            vals = group_values[ranks] if blind else self.optimal_values(info)
            action = _best(vals, self.tie_order)
            top = vals[action]
            tied = tuple(a for a in ACTION_ORDER if a != action and vals.get(a) == top)
        else:
            assert chart is not None
            action = self._chart_action(info, chart)
        dist = self.action_distribution(info, action,
                                        self._policies(info, action, strategy, chart))
        for a in tied:
            other = self.action_distribution(info, a, self._policies(info, a, strategy, chart))
            if other != dist:
                result.ties.append((tuple(self.kinds[k] for k in info), (action, a)))
        # (the recursion's values do not hold an insurance bet: no check with one)
        if check and strategy == "optimal" and not natural and not (
                self.insure and self.rank_of[info[1]] == 1):
            got, want = self._check_values(info, action, dist)
            if blind and action == "split":
                return action, dist, (got, want)
            assert got == want, (info, action, got, want)
        return action, dist, None

    def _offers_even_money(self, up: int) -> bool:
        """RULES.md: even money for a blackjack against an ace (and against a ten too
        where ``even_money_vs_ten``), where ``even_money`` is offered."""
        return self.rules.even_money and (
            up == 1 or (up == 10 and self.rules.even_money_vs_ten))

    def _insurance_ev(self, info: tuple[int, int, int]) -> Fraction:
        """The insurance bet's EV per unit initial bet for the deal: half a unit paid
        2:1 when the dealer's other card is a ten, p = tens among the unseen cards:
        (2p - (1 - p)) / 2."""
        view = self._info_view(info)[1]
        p = Fraction(view[9], sum(view))
        return (2 * p - (1 - p)) / 2

    def _deal_insures(self, info: tuple[int, int, int], strategy: str,
                      chart: Chart | None) -> bool:
        """Whether the deal takes insurance (offered against an ace only): every deal with
        ``insure_vs_ace``; optimal play when its EV is positive (a natural that takes even
        money instead is settled by :meth:`_natural_action`); the chart when it says so
        (``chart.insure``: every start or none)."""
        up = self._info_view(info)[0]
        if not (self.rules.insurance and up == 1):
            return False
        if self.insure_all:
            return True
        if strategy == "optimal":
            return self._insurance_ev(info) > 0
        return bool(getattr(chart, "insure", False))

    def _natural_action(self, info: tuple[int, int, int], strategy: str,
                        chart: Chart | None) -> str:
        """A natural stands, or takes even money where offered: optimal play when 1 is
        more than standing, insured if that is worth it (paid ``bj_pays`` unless the
        dealer has a blackjack too); the chart when its A,T cell says ``E``."""
        up, view = self._info_view(info)[:2]
        if not self._offers_even_money(up):
            return "stand"
        if strategy == "optimal":
            stand = self.bj_pays * p_no_blackjack(view, up)
            if self.rules.insurance and up == 1:
                stand += max(Fraction(0), self._insurance_ev(info))
            return "even_money" if stand < 1 else "stand"
        assert chart is not None
        return "even_money" if chart.soft[21][_symbol(up)] == "E" else "stand"

    def _check_values(self, info: tuple[int, int, int], action: str,
                      dist: dict[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
        """(brute-force EV of ``action``, the recursion's value), on the same scale."""
        up, view, _, _ = self._info_view(info)
        want = self.optimal_values(info)[action]
        got = Fraction(sum(x * q for x, q in dist.items()), self.scale * self.fact[sum(view)])
        if self.peek:
            p_bj = 1 - p_no_blackjack(view, up)
            got += p_bj  # remove the dealer blackjacks' -1: E[result * 1{no blackjack}]
        return got, want

    def _chart_action(self, info: tuple[int, int, int], chart: Chart) -> str:
        p1, up_k, p2 = info
        up = self.rank_of[up_k]
        r1, r2 = self.rank_of[p1], self.rank_of[p2]
        total, soft = _total(self.rank_counts((self.kinds[p1], self.kinds[p2])))
        sym = _symbol(up)
        if r1 == r2:
            code = chart.pairs[_symbol(r1)][sym]
        elif soft:
            code = chart.soft[total][sym]
        else:
            code = chart.hard[total][sym]
        can_double = total in self.double_totals
        can_split = r1 == r2 and self.max_hands >= 2 and r1 not in self.no_split
        das = self.rules.double_after_split
        sur = self.surrender_allowed(up)
        table = {
            "H": "hit", "S": "stand",
            "Dh": "double" if can_double else "hit", "Ds": "double" if can_double else "stand",
            "P": "split" if can_split else None,
            "Ph": "split" if can_split and das else "hit",
            "Ps": "split" if can_split and das else "stand",
            "Rh": "surrender" if sur else "hit", "Rs": "surrender" if sur else "stand",
            "Rp": "surrender" if sur else ("split" if can_split else None),
        }
        action = table[code]
        if action is None:
            raise ValueError(f"chart code {code} cannot be played on {info}")
        return action


def _kind_key(kind: Kind) -> tuple[int, str]:
    return kind[0], kind[1] or ""


def _plus_all(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _symbol(rank: int) -> str:
    return "A" if rank == 1 else "T" if rank == 10 else str(rank)


def _split_hand_code(code: str, may_double: bool) -> str:
    """A chart code played on a split hand's first two cards (no surrender, no split)."""
    if code in ("H", "Rh", "Ph"):
        return "hit"
    if code in ("S", "Rs", "Ps"):
        return "stand"
    if code == "Dh":
        return "double" if may_double else "hit"
    if code == "Ds":
        return "double" if may_double else "stand"
    raise ValueError(f"chart code {code} on a split hand")


@dataclass(frozen=True)
class Chart:
    """The calculator's chart, as data: hard[total][up], soft[total][up], pairs[rank][up],
    and whether it takes insurance (every start against an ace, or none)."""

    hard: Mapping[int, Mapping[str, str]]
    soft: Mapping[int, Mapping[str, str]]
    pairs: Mapping[str, Mapping[str, str]]
    insure: bool = False


def round_oracle(rules: BlackjackRules, counts: Counts, strategy: str = "optimal",
                 chart: Chart | None = None, **options: object) -> RoundResult:
    """Shorthand: ``RoundOracle(rules, counts, **options).analyse(strategy, chart)``."""
    return RoundOracle(rules, counts, **options).analyse(strategy, chart)  # type: ignore[arg-type]
