"""Side bets counted exactly (``count --sidebets NAME,...``, both games): before each round
every named bet is priced for the cards unseen (:func:`strategy_calc.sidebets.exact.price`),
bet one unit when its exact EV is positive, and settled on the round's actual cards.

The counted shoe carries each card's face and suit: the counters deal *card types*
(:func:`card_types`) beside the cards they dealt before, shuffled by the same permutation,
so a run's main figures do not change with side bets or without them (the shuffle draws
the same random numbers whatever the list holds).

The cards a round's side bets are settled on: at blackjack, the player's first box's two
cards and the dealer's up card, second card and draws, read in the order the event names
them (:attr:`strategy_calc.sidebets.events.Event.looks_at`); a bet that reads the dealer's
second card or draws makes the dealer complete his hand every round (the table settles
the bet on it), which changes the cards later rounds are dealt from, not any round's
exact EV. At baccarat, the finished round: its cards as dealt (Player, Banker, Player,
Banker, then the third cards as drawn) are split into the Player's and the Banker's hands
(:func:`baccarat_hands`) and the event settles on them
(:meth:`strategy_calc.sidebets.events.Event.settle_round`: an event on how the round ends
reads each side's cards and point, the pairs their side's first two cards), the
settlement whose probabilities over every round of a shoe are the ones the bet is priced
by (tests/counting/test_count_sidebets.py checks that by a brute force).
The side bets are placed on every round dealt (wonged-out ones too): the EV of a bet
depends on the shoe only.

Why the settled results average to the priced EVs: the bet is placed on the shoe before
the round, and the cards each event reads are distributed as the first cards of that
shoe whatever is played before them (docs/MODEL.md, "Buster").

>>> card_types([4] * 9 + [16])[:5], card_types([4] * 9 + [16])[36:41]
((0, 1, 2, 3, 4), (36, 37, 38, 39, 40))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from strategy_calc.cards import FACES, RANKS, SUITS, FaceShoe
from strategy_calc.counting.sampling import Estimate, ratio_estimate
from strategy_calc.counting.systems import COUNT_SYSTEMS, find_system
from strategy_calc.errors import InputError
from strategy_calc.sidebets.events import MORE, Event, baccarat_value
from strategy_calc.sidebets.exact import for_dealer, price
from strategy_calc.sidebets.paytables import SideBet, find_sidebet

DEALER_CARDS = ("dealer's second card", "dealer's hole card", "dealer's draws")
"""The cards of the dealer after his up card (:attr:`Event.looks_at`): a bet that reads
them has the dealer complete his hand every round."""


def card_types(rank_counts: Sequence[int]) -> tuple[int, ...]:
    """The card types (``4 * face + suit``) beside a blackjack counter's cards, which are
    built rank by rank (ace first, tens last), ``k`` running over a rank's cards: suit ``k
    % 4`` (the counter's), and for the ten-valued cards the face ``T, J, Q, K`` by ``k // 4
    % 4``. A full shoe of ``d`` decks holds each face and suit ``d`` times."""
    out: list[int] = []
    for rank, count in enumerate(rank_counts):
        for k in range(count):
            face = rank if rank < 9 else 9 + (k // len(SUITS)) % 4
            out.append(len(SUITS) * face + k % len(SUITS))
    return tuple(out)


def face_card_types(face_counts: Sequence[int]) -> tuple[int, ...]:
    """The card types beside a baccarat counter's cards (face by face, ``k`` over a face's
    cards: suit ``k % 4``).

    >>> face_card_types([2] + [0] * 12)
    (0, 1)
    """
    return tuple(len(SUITS) * face + k % len(SUITS)
                 for face, count in enumerate(face_counts) for k in range(count))


def shoe_of(types_left: Sequence[int], decks: int) -> FaceShoe:
    """The shoe of the cards unseen, counted per card type."""
    return FaceShoe(decks, tuple(tuple(types_left[len(SUITS) * f: len(SUITS) * (f + 1)])
                                 for f in range(len(FACES))), (0,) * len(FACES))


def resolve(names: str, game: str, files: Sequence[str] = (),
            hits_soft_17: bool = False) -> tuple[SideBet, ...]:
    """The bets of ``--sidebets A,B,...`` for ``game`` (``blackjack`` or ``baccarat``),
    each under the dealer's soft-17 rule; an unknown bet, one of the other game, or a name
    given twice is an InputError."""
    chosen = [n.strip() for n in names.split(",")]
    if not names.strip() or any(not n for n in chosen):
        raise InputError(f"--sidebets {names!r}: give side bets' names, e.g. 21+3,buster"
                         " (strategy-calc sidebet --list)")
    if len(set(chosen)) != len(chosen):
        raise InputError(f"--sidebets {names}: a bet is named twice")
    bets = []
    for name in chosen:
        bet = find_sidebet(name, tuple(files))
        if bet.event.game != game:
            raise InputError(f"--sidebets: {name} is a {bet.event.game} bet, not one of"
                             f" {game}")
        bets.append(for_dealer(bet, hits_soft_17))
    return tuple(bets)


TRIGGER_KINDS = ("true", "running")
"""What a trigger's level reads: the true count (the running count per deck unseen) or the
running count."""
SEVEN, RED = 6, frozenset((SUITS.index("h"), SUITS.index("d")))
"""The seven's rank index (of the tags A, 2 .. 9, T) and the red suits' indices."""


@dataclass(frozen=True, slots=True)
class Trigger:
    """``count --sidebet-trigger BET:TAGS:AT[:KIND]``: bet a side bet when a count of the
    cards seen reaches a level, instead of when its exact EV is positive.

    The *running count* is the sum of the tags of the cards seen before the round (the
    cards the exact EV is priced without: shown cards, demonstration rounds and earlier
    rounds; burnt cards are unseen), from 0 at the shuffle, whatever the system's initial
    count; the *true count* is the running count per deck unseen (the cards unseen over
    52, not rounded: what side-bet counts such as Wizard of Odds' for Lucky Ladies and
    21+3, or Jacobson's baccarat ones, divide by). The bet is placed when the count is
    ``at`` or more.

    >>> t = Trigger((0, 0, -1, -1, -1, -2, 1, 2, 2, 0), 8.0, "true")
    >>> two = [2] * 52  # two decks, each card type twice
    >>> gone = [2] * 20 + [1, 1, 2, 2] + [0] * 12 + [2] * 16  # two 6s, every 7, 8 and 9
    >>> t.count(gone, two)  # running 2 x -2 + 8 x (1 + 2 + 2) = 36, over 78 / 52 decks
    24.0
    >>> t.reached(gone, two), Trigger(t.tags, 40, "running").reached(gone, two)
    (True, False)
    """

    tags: tuple[float, ...]
    """Per rank A, 2 .. 9, T (J, Q, K are T): a card's tag (a seven's: a black seven's when
    :attr:`red_seven` is given)."""
    at: float
    """The level: the bet is placed when the count is this or more."""
    kind: str
    """``true`` (the running count per deck unseen) or ``running``."""
    system: str | None = None
    """The built-in count system the tags are (None: the user's own tags)."""
    red_seven: float | None = None
    """Red 7's rule: a red seven's tag (the suit of every card is known here)."""

    def tag(self, card_type: int) -> float:
        """The tag of a card type (``4 * face + suit``)."""
        rank = min(card_type // len(SUITS), 9)
        if rank == SEVEN and self.red_seven is not None and card_type % len(SUITS) in RED:
            return self.red_seven
        return self.tags[rank]

    def count(self, types_left: Sequence[int], start: Sequence[int]) -> float:
        """The count of the cards seen, ``start`` cards of each card type at the shuffle
        and ``types_left`` unseen: the running count, or the true count."""
        running = math.fsum(self.tag(t) * (n - left)
                            for t, (n, left) in enumerate(zip(start, types_left, strict=True))
                            if left != n)
        if self.kind == "running":
            return running
        unseen = sum(types_left)
        return running * len(FACES) * len(SUITS) / unseen if unseen else 0.0

    def reached(self, types_left: Sequence[int], start: Sequence[int]) -> bool:
        """Whether the bet is placed: the count (:meth:`count`) is :attr:`at` or more."""
        return self.count(types_left, start) >= self.at


def parse_trigger(spec: str, bets: Sequence[SideBet]) -> tuple[str, Trigger]:
    """One ``--sidebet-trigger BET:TAGS:AT[:KIND]``: the bet's name (one of ``bets``, the
    ``--sidebets``) and its trigger. TAGS: ten integers for A, 2 .. 9, T
    (``0,0,-1,-1,-1,-2,1,2,2,0``) or a built-in count system's name (``hilo``); AT a
    number; KIND ``true`` (the default) or ``running``. Anything else is an InputError.

    >>> parse_trigger("lucky6:0,0,-1,-1,-1,-2,1,2,2,0:8", [])[1].at
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --sidebet-trigger lucky6:...: lucky6 is not one of \
--sidebets (none given)
    """
    where = f"--sidebet-trigger {spec}"
    parts = spec.split(":")
    if len(parts) not in (3, 4) or not all(p.strip() for p in parts):
        raise InputError(f"{where}: give BET:TAGS:AT or BET:TAGS:AT:KIND, e.g."
                         " lucky6:0,0,-1,-1,-1,-2,1,2,2,0:8 or 21+3:hilo:2:true")
    name, tags_text, at_text = (p.strip() for p in parts[:3])
    short = f"--sidebet-trigger {name}:..."
    names = [bet.name for bet in bets]
    if name not in names:
        raise InputError(f"{short}: {name} is not one of --sidebets"
                         f" ({', '.join(names) or 'none given'})")
    kind = parts[3].strip().lower() if len(parts) == 4 else "true"
    if kind not in TRIGGER_KINDS:
        raise InputError(f"{short}: KIND must be true or running, not {parts[3]!r}")
    try:
        at = float(at_text)
    except ValueError:
        raise InputError(f"{short}: AT must be a number, not {at_text!r}") from None
    if not math.isfinite(at):
        raise InputError(f"{short}: AT must be a finite number, not {at_text!r}")
    tags, system, red_seven = _tags(tags_text, short)
    return name, Trigger(tags, at, kind, system, red_seven)


def _tags(text: str, where: str) -> tuple[tuple[float, ...], str | None, float | None]:
    """TAGS: ten integers (A, 2 .. 9, T), or a built-in count system's name: the tags,
    the system's name, its red seven's tag."""
    if "," in text:
        values = [v.strip() for v in text.split(",")]
        try:
            tags = tuple(int(v) for v in values)
        except ValueError:
            raise InputError(f"{where}: TAGS must be ten integers (A, 2 .. 9, T) or a"
                             f" count system's name, not {text!r}") from None
        if len(tags) != len(RANKS):
            raise InputError(f"{where}: TAGS needs ten integers (A, 2 .. 9, T), not"
                             f" {len(tags)}")
        return tuple(float(t) for t in tags), None, None
    built_in = f"a built-in count system ({', '.join(COUNT_SYSTEMS)})"
    if text.endswith(".toml") or "/" in text:
        raise InputError(f"{where}: TAGS must be ten integers or {built_in}, not a file")
    try:
        system = find_system(text)
    except InputError:
        system = None
    if system is None or system.name not in COUNT_SYSTEMS:
        raise InputError(f"{where}: TAGS must be ten integers (A, 2 .. 9, T) or"
                         f" {built_in}, not {text!r}")
    return system.tags, system.name, system.red_seven


def resolve_triggers(specs: Sequence[str], bets: Sequence[SideBet]
                     ) -> tuple[Trigger | None, ...]:
    """Per bet of ``bets`` (the ``--sidebets``), its ``--sidebet-trigger`` (None: bet when
    the exact EV is positive); a bet triggered twice is an InputError."""
    chosen: dict[str, Trigger] = {}
    for spec in specs:
        name, trigger = parse_trigger(spec, bets)
        if name in chosen:
            raise InputError(f"--sidebet-trigger: {name} is triggered twice")
        chosen[name] = trigger
    return tuple(chosen.get(bet.name) for bet in bets)


def placements(evs: Sequence[float], triggers: Sequence[Trigger | None],
               types_left: Sequence[int], start: Sequence[int]) -> tuple[bool, ...]:
    """Per bet, whether it is placed this round: its trigger reached (:meth:`Trigger.
    reached`), or (without one) its exact EV positive."""
    if not triggers:
        return tuple(ev > 0 for ev in evs)
    return tuple(ev > 0 if t is None else t.reached(types_left, start)
                 for ev, t in zip(evs, triggers, strict=True))


def completes_dealer(bets: Sequence[SideBet]) -> bool:
    """Whether a bet reads the dealer's cards after his up card."""
    return any(role in bet.event.looks_at for bet in bets for role in DEALER_CARDS)


@dataclass(frozen=True, slots=True)
class SideBetRound:
    """One round's side bets, per bet in the run's order."""

    evs: tuple[float, ...]
    """Each bet's exact EV per unit for the cards unseen before the round."""
    won: tuple[float | None, ...]
    """What each bet placed won (units; None: not bet, its EV was not positive)."""
    before: tuple[int, ...] = ()
    """The card types seen since the previous round was priced (for the first round of a
    shoe, the cards shown at its opening): a replay of the run removes them."""
    dealt: tuple[int, ...] = ()
    """The card types this round showed, in the order dealt (burnt cards left out)."""


def settle(bet: SideBet, paytable: str | None, cards: tuple[int, ...]) -> float:
    """What one unit of ``bet`` wins on ``cards`` (the event's cards in its order)."""
    line = settle_line(bet.event, cards)
    return -1.0 if line not in bet.event.lines else float(bet.paytable(paytable)[line])


def settle_line(event: Event, cards: tuple[int, ...]) -> str:
    """The line ``event`` settles ``cards`` on (the shortest prefix that settles)."""
    for k in range(1, len(cards) + 1):
        line = event.settle_hand(cards[:k])
        if line != MORE:
            return line
    raise InputError(f"{event.name}: the round dealt too few cards to settle it")


def baccarat_hands(dealt: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Player's and the Banker's cards of a finished baccarat round, from its cards as
    dealt: Player, Banker, Player, Banker, then the Player's third card if he drew, then
    the Banker's. With five cards one side drew: the Player, when his first two cards make
    5 or less (no natural was dealt, or nobody would have drawn), else the Banker.

    >>> baccarat_hands((0, 4, 8, 12))
    ((0, 8), (4, 12))
    >>> baccarat_hands((36, 4, 40, 8, 16)), baccarat_hands((20, 4, 40, 8, 16))
    (((36, 40, 16), (4, 8)), ((20, 40), (4, 8, 16)))
    """
    if not 4 <= len(dealt) <= 6:
        raise InputError(f"a baccarat round deals 4 to 6 cards, not {len(dealt)}")
    player, banker = [dealt[0], dealt[2]], [dealt[1], dealt[3]]
    if len(dealt) == 6:
        player.append(dealt[4])
        banker.append(dealt[5])
    elif len(dealt) == 5:
        drew = (baccarat_value(dealt[0]) + baccarat_value(dealt[2])) % 10 <= 5
        (player if drew else banker).append(dealt[4])
    return tuple(player), tuple(banker)


def settle_baccarat(bet: SideBet, paytable: str | None, dealt: Sequence[int]) -> float:
    """What one unit of baccarat ``bet`` wins on a finished round, its cards as dealt."""
    line = bet.event.settle_round(*baccarat_hands(dealt))
    return -1.0 if line not in bet.event.lines else float(bet.paytable(paytable)[line])


def price_all(bets: Sequence[SideBet], shoe: FaceShoe) -> tuple[float, ...]:
    """Each bet's exact EV for ``shoe`` (default pay tables)."""
    return tuple(price(bet, shoe).ev for bet in bets)


def blackjack_cards(event: Event, types: Sequence[int], player: Sequence[int],
                    dealer: Sequence[int]) -> tuple[int, ...]:
    """The card types ``event`` reads, in its order, from the positions of a blackjack
    round (:class:`strategy_calc.blackjack.playout.RoundCards`)."""
    roles = {"player's first card": player[:1], "player's second card": player[1:2],
             "dealer's up card": dealer[:1], "dealer's second card": dealer[1:2],
             "dealer's hole card": dealer[1:2],
             "dealer's draws": dealer[2:]}
    return tuple(types[i] for role in event.looks_at for i in roles[role])


@dataclass(frozen=True, slots=True)
class SideBetCount:
    """One side bet over a run: per unit bet, per round dealt as named."""

    share_bet: float
    """Share of the rounds dealt on which the bet's exact EV was positive (and it was bet)."""
    ev_per_round_bet: float | None
    """Mean exact EV per unit of the rounds bet (None: none was)."""
    win_per_100: Estimate
    """Expected win per 100 rounds dealt: the sum of the exact EVs of the bets placed,
    a ratio over shoes (its standard error as the count's win rate's)."""
    realised_per_100: Estimate
    """What the bets placed actually won per 100 rounds dealt (the same estimator)."""
    ev_off_the_top: float
    """Its EV per unit for the shoe every deal starts from."""
    trigger: Trigger | None = None
    """The count that placed it (``--sidebet-trigger``); None: its exact EV did."""
    exact_ev_rule_per_100: Estimate | None = None
    """With a trigger: the win per 100 rounds dealt of betting the same rounds when the
    exact EV is positive instead (the best any rule reading the cards seen can do)."""


def summarise(bets: Sequence[SideBet], shoes: Sequence[Sequence[SideBetRound]],
              top: Sequence[float], triggers: Sequence[Trigger | None] = ()
              ) -> dict[str, SideBetCount]:
    """Each bet's figures over the rounds of ``shoes`` (a list per shoe); with
    ``triggers`` (per bet, or None), what the exact-EV rule would have won too."""
    counts = [float(len(s)) for s in shoes]
    rounds = sum(counts)
    if rounds <= 0:
        raise InputError("no round was dealt")
    out: dict[str, SideBetCount] = {}
    for j, bet in enumerate(bets):
        placed = [r.evs[j] for s in shoes for r in s if r.won[j] is not None]
        expected = [math.fsum(r.evs[j] for r in s if r.won[j] is not None) for s in shoes]
        realised = [math.fsum(r.won[j] or 0.0 for r in s) for s in shoes]
        win, real = ratio_estimate(expected, counts), ratio_estimate(realised, counts)
        trigger = triggers[j] if triggers else None
        best = None
        if trigger is not None:
            perfect = ratio_estimate([math.fsum(max(r.evs[j], 0.0) for r in s)
                                      for s in shoes], counts)
            best = Estimate(100 * perfect.value, 100 * perfect.se)
        out[bet.name] = SideBetCount(
            len(placed) / rounds, math.fsum(placed) / len(placed) if placed else None,
            Estimate(100 * win.value, 100 * win.se), Estimate(100 * real.value, 100 * real.se),
            top[j], trigger, best)
    return out
