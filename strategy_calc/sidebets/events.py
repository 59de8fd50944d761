"""The events side bets are settled on: which cards of the round each looks at, the lines
it can settle on (best first), and the rule that settles them.

A card here is a *card type*, an index ``4 * face + suit`` over :data:`FACES` (``A``,
``2`` .. ``9``, ``T``, ``J``, ``Q``, ``K``) and :data:`SUITS` (``s``, ``h``, ``d``,
``c``): 52 types, each held ``decks`` times by a full shoe. An event reads the cards it
looks at in its own order (the shoe is well shuffled, so which positions of the deal they
are does not change the probabilities; the brute force in tests/oracles/ deals them in
casino order) and settles a prefix of them: a line's name, :data:`LOSE`, or :data:`MORE`
(look at the next card). Lines are exclusive; a card sequence settles on one line or none.

>>> EVENTS["poker3"].settle((card("7h"), card("8h"), card("9h")))
'straight_flush'
>>> EVENTS["twenty"].settle((card("Qh"), card("Qh")))  # needs the dealer's two cards
'more'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from strategy_calc.blackjack.hand_rules import dealer_draws
from strategy_calc.cards import FACES, SUITS, parse_face

MORE = "more"
"""What :attr:`Event.settle` returns when the event needs the next card it looks at."""
LOSE = "lose"
"""What :attr:`Event.settle` returns when the bet is lost (the line no pay table prices)."""

QUEEN, HEARTS = FACES.index("Q"), SUITS.index("h")
RED = frozenset((SUITS.index("h"), SUITS.index("d")))
"""The red suits' indices (hearts, diamonds); spades and clubs are black."""


def card(text: str) -> int:
    """The card type of a card with its suit, e.g. ``Qh``.

    >>> card("As"), card("Qh"), card("Kc")
    (0, 45, 51)
    """
    face, suit = parse_face(text)
    if suit is None:
        raise ValueError(f"a card type needs a suit: {text!r}")
    return 4 * FACES.index(face) + SUITS.index(suit)


def face_of(t: int) -> int:
    """The face index (of :data:`FACES`) of card type ``t``."""
    return t // 4


def suit_of(t: int) -> int:
    """The suit index (of :data:`SUITS`) of card type ``t``."""
    return t % 4


def blackjack_value(t: int) -> int:
    """A card's blackjack value with the ace as 11 (J, Q, K are 10).

    >>> blackjack_value(card("As")), blackjack_value(card("Kd")), blackjack_value(card("7c"))
    (11, 10, 7)
    """
    f = face_of(t)
    return 11 if f == 0 else min(f + 1, 10)


@dataclass(frozen=True, slots=True)
class End:
    """How a baccarat round ended, what its side bets on the finished hands are settled on:
    each side's number of cards (2 or 3) and point.

    >>> End(2, 3, 9, 9).player_natural, End(2, 3, 9, 9).banker_natural
    (True, False)
    """

    player_cards: int
    """The Player's cards: 2, or 3 when he drew."""
    banker_cards: int
    """The Banker's cards: 2, or 3 when he drew."""
    player: int
    """The Player's point (0-9)."""
    banker: int
    """The Banker's point (0-9)."""

    @property
    def player_natural(self) -> bool:
        """The Player's first two cards make 8 or 9 (then nobody draws)."""
        return self.player_cards == 2 and self.player >= 8

    @property
    def banker_natural(self) -> bool:
        """The Banker's first two cards make 8 or 9 (then nobody draws)."""
        return self.banker_cards == 2 and self.banker >= 8


@dataclass(frozen=True, slots=True)
class Event:
    """An event on the cards of a round: what a side bet is settled on. It is settled on
    the cards it looks at (:attr:`settle`) or, in baccarat, on how the round ended
    (:attr:`settle_end`): exactly one of the two is given."""

    name: str
    """The name a side bet's TOML gives as ``event``."""
    game: str
    """The game whose round deals the cards (``blackjack``, ``baccarat``)."""
    looks_at: tuple[str, ...]
    """The cards of the round it looks at, in the order :attr:`settle` reads them."""
    lines: tuple[str, ...]
    """The lines it settles on, best first (a pay table prices every one)."""
    meaning: str
    """What the event is, in words (docs/MODEL.md states it at length)."""
    settle: Callable[[tuple[int, ...]], str] | None = None
    """Settle a prefix of the cards (card types): a line, :data:`LOSE` or :data:`MORE`."""
    hits_soft_17: bool | None = None
    """An event on the dealer's whole hand: whether the dealer hits soft 17 (the
    ruleset's ``dealer_hits_soft_17``, bound by :func:`under_dealer_rule`); None: the
    event does not read the dealer's rules."""

    settle_end: Callable[[End], str] | None = None
    """Settle a finished baccarat round: a line or :data:`LOSE`."""

    def settle_hand(self, cards: tuple[int, ...]) -> str:
        """:attr:`settle`, under the dealer's rule of :attr:`hits_soft_17` for events that
        read it."""
        if self.hits_soft_17 is not None:
            return settle_buster(cards, self.hits_soft_17)
        if self.settle is None:
            raise ValueError(f"event {self.name} is settled on a baccarat round's end,"
                             " not on a sequence of cards")
        return self.settle(cards)

    def settle_round(self, player: tuple[int, ...], banker: tuple[int, ...]) -> str:
        """Settle a finished baccarat round from its cards: the Player's and the Banker's
        (card types), each in the order dealt. An event on how the round ends
        (:attr:`settle_end`) reads each side's number of cards and point
        (:func:`round_end`); an event on cards (the pairs) reads the cards it looks at
        (:attr:`looks_at`, by :data:`BACCARAT_ROLES`). A line or :data:`LOSE`.

        >>> c = card
        >>> EVENTS["banker_six"].settle_round((c("Ts"), c("5d")), (c("3h"), c("3c")))
        'two_card_six'
        >>> EVENTS["player_pair"].settle_round((c("Js"), c("Jd"), c("2h")), (c("9c"), c("Kc")))
        'pair'
        >>> EVENTS["banker_pair"].settle_round((c("Js"), c("Jd")), (c("9c"), c("Kc")))
        'lose'
        """
        if self.game != "baccarat":
            raise ValueError(f"event {self.name} is not a baccarat event")
        if self.settle_end is not None:
            return self.settle_end(round_end(player, banker))
        cards = tuple(t for role in self.looks_at for t in _role(role, player, banker))
        line = self.settle_hand(cards)
        if line == MORE:
            raise ValueError(f"event {self.name}: the round dealt too few cards to settle it")
        return line


BACCARAT_ROLES = ("first", "second", "third")
"""A baccarat event on cards names them ``"Player's first card"`` .. ``"Banker's third
card"`` (either case): a side, then the card's place in that side's hand."""


def _role(role: str, player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[int, ...]:
    """The card of ``role`` (``"Player's second card"``, ...) in a finished round: one card,
    or none when that side holds fewer."""
    side, _, rest = role.lower().partition("'s ")
    place = rest.removesuffix(" card")
    if side not in ("player", "banker") or place not in BACCARAT_ROLES:
        raise ValueError(f"not a baccarat card: {role!r}")
    i = BACCARAT_ROLES.index(place)
    return (player if side == "player" else banker)[i:i + 1]


def baccarat_value(t: int) -> int:
    """A card's baccarat value: the ace 1, 2 to 9 their face, T, J, Q, K 0.

    >>> baccarat_value(card("As")), baccarat_value(card("9d")), baccarat_value(card("Qh"))
    (1, 9, 0)
    """
    f = face_of(t)
    return f + 1 if f < 9 else 0


def round_end(player: tuple[int, ...], banker: tuple[int, ...]) -> End:
    """How a baccarat round of these cards (each side's, in the order dealt) ended.

    >>> round_end((card("As"), card("7d")), (card("5h"), card("Kc"), card("2s")))
    End(player_cards=2, banker_cards=3, player=8, banker=7)
    """
    if not 2 <= len(player) <= 3 or not 2 <= len(banker) <= 3:
        raise ValueError(f"a baccarat hand holds 2 or 3 cards: {len(player)} and"
                         f" {len(banker)}")
    return End(len(player), len(banker), sum(map(baccarat_value, player)) % 10,
               sum(map(baccarat_value, banker)) % 10)


def _straight(faces: list[int]) -> bool:
    """Three faces in sequence, the ace low (A-2-3) or high (Q-K-A), never around the
    corner (K-A-2)."""
    low = sorted(faces)
    high = sorted(13 if f == 0 else f for f in faces)
    return any(s[1] == s[0] + 1 and s[2] == s[1] + 1 for s in (low, high))


def settle_poker3(cards: tuple[int, ...]) -> str:
    """21+3: the player's two cards and the dealer's up card as a three-card poker hand.

    >>> settle_poker3((card("Qs"), card("Ks"), card("As"))), settle_poker3((card("Ks"),
    ...     card("As"), card("2d")))
    ('straight_flush', 'lose')
    >>> settle_poker3((card("5h"), card("5h"), card("5h"))), settle_poker3((card("5h"),
    ...     card("5c"), card("5h"))), settle_poker3((card("5h"), card("5c"), card("9h")))
    ('suited_three_of_a_kind', 'three_of_a_kind', 'lose')
    """
    if len(cards) < 3:
        return MORE
    faces = [face_of(t) for t in cards]
    flush = len({suit_of(t) for t in cards}) == 1
    if len(set(faces)) == 1:
        return "suited_three_of_a_kind" if flush else "three_of_a_kind"
    straight = len(set(faces)) == 3 and _straight(faces)
    if straight and flush:
        return "straight_flush"
    if straight:
        return "straight"
    return "flush" if flush else LOSE


def _natural(a: int, b: int) -> bool:
    """An ace and a ten-valued card."""
    return sorted((blackjack_value(a), blackjack_value(b))) == [10, 11]


def settle_twenty(cards: tuple[int, ...]) -> str:
    """Lucky Ladies: the player's first two cards total 20 (an ace counts 11: A-9 is 20,
    A-A is not); a pair of queens of hearts also looks at the dealer's up and hole cards.

    >>> settle_twenty((card("Ts"), card("Js"))), settle_twenty((card("As"), card("9d")))
    ('suited_20', 'any_20')
    >>> settle_twenty((card("Kd"), card("Kd"))), settle_twenty((card("5d"), card("5d")))
    ('matched_20', 'lose')
    >>> h = card("Qh")
    >>> settle_twenty((h, h, card("Ac"), card("Ts"))), settle_twenty((h, h, card("9c"), h))
    ('qh_pair_dealer_blackjack', 'qh_pair')
    """
    if len(cards) < 2:
        return MORE
    first, second = cards[0], cards[1]
    if blackjack_value(first) + blackjack_value(second) != 20:
        return LOSE
    if first == second == 4 * QUEEN + HEARTS:
        if len(cards) < 4:
            return MORE
        return "qh_pair_dealer_blackjack" if _natural(cards[2], cards[3]) else "qh_pair"
    if first == second:
        return "matched_20"
    return "suited_20" if suit_of(first) == suit_of(second) else "any_20"


def settle_pair(cards: tuple[int, ...]) -> str:
    """The Deluxe pair bet: the player's first two cards of one face (J-J, not J-Q).

    >>> [settle_pair((card(a), card(b))) for a, b in (("Ks", "Ks"), ("Ks", "Kc"),
    ...     ("Ks", "Kh"), ("Ks", "Qs"))]
    ['perfect', 'coloured', 'mixed', 'lose']
    """
    if len(cards) < 2:
        return MORE
    a, b = cards[0], cards[1]
    if face_of(a) != face_of(b):
        return LOSE
    if a == b:
        return "perfect"
    return "coloured" if (suit_of(a) in RED) == (suit_of(b) in RED) else "mixed"


BUST_LINES = ("bust_8_or_more_player_blackjack", "bust_7_player_blackjack",
              "bust_8_or_more", "bust_7", "bust_6", "bust_5", "bust_4", "bust_3")
"""Buster's lines, best first: the dealer busts with 8 or more cards, or 7, with a player
blackjack; then by the number of cards in his busted hand (without a player blackjack
for 7 and 8 or more)."""


def dealer_stops(values: list[int], h17: bool) -> bool:
    """Whether the dealer stops drawing with cards of ``values`` (blackjack values, the
    ace 11): the dealer's draw of :func:`strategy_calc.blackjack.hand_rules.dealer_draws`
    (its one home), a soft 17 drawn to when he hits soft 17 (``h17``). A dealer never stops
    on one card.

    >>> dealer_stops([11, 6], False), dealer_stops([11, 6], True), dealer_stops([10, 6], True)
    (True, False, False)
    """
    if len(values) < 2:
        return False
    return not dealer_draws(sum(1 if v == 11 else v for v in values), 11 in values, h17)


def settle_buster(cards: tuple[int, ...], h17: bool = False) -> str:
    """Buster: the dealer's hand (up card, second card, draws) until he stops, then, when
    he busts with 7 or more cards, the player's first two cards (a blackjack pays more on
    some tables). A dealer blackjack stands (21, no bust).

    >>> c = card
    >>> settle_buster((c("Ts"), c("6d"), c("9h"))), settle_buster((c("Ts"), c("7d")))
    ('bust_3', 'lose')
    >>> settle_buster((c("As"), c("6d"))), settle_buster((c("As"), c("6d")), h17=True)
    ('lose', 'more')
    >>> seven = (c("2s"), c("2d"), c("2h"), c("2c"), c("3s"), c("3d"), c("Tc"))  # 24
    >>> settle_buster(seven), settle_buster(seven + (c("Ah"), c("Kd")))
    ('more', 'bust_7_player_blackjack')
    """
    values: list[int] = []
    for k, t in enumerate(cards):
        values.append(blackjack_value(t))
        if dealer_stops(values, h17):
            hard = sum(1 if v == 11 else v for v in values)
            if hard <= 21:
                return LOSE
            n = k + 1
            if n < 7:
                return f"bust_{n}"
            rest = cards[n:]
            if len(rest) < 2:
                return MORE
            top = "8_or_more" if n >= 8 else "7"
            blackjack = _natural(rest[0], rest[1])
            return f"bust_{top}_player_blackjack" if blackjack else f"bust_{top}"
    return MORE


def under_dealer_rule(event: Event, hits_soft_17: bool) -> Event:
    """``event`` under a dealer who hits soft 17 or not (events that read his rules; the
    others as they are).

    >>> under_dealer_rule(EVENTS["buster"], True).hits_soft_17
    True
    """
    if event.hits_soft_17 is None:
        return event
    return replace(event, hits_soft_17=hits_soft_17)
ROUND_END = ("the finished round: each side's cards and point",)
"""What a baccarat event on how the round ends looks at (:attr:`Event.settle_end`)."""


def settle_banker_six(end: End) -> str:
    """Lucky 6: the Banker wins with a point of 6, of two or of three cards.

    >>> settle_banker_six(End(3, 2, 5, 6)), settle_banker_six(End(2, 3, 2, 6))
    ('two_card_six', 'three_card_six')
    >>> settle_banker_six(End(2, 2, 6, 6)), settle_banker_six(End(2, 3, 5, 7))
    ('lose', 'lose')
    """
    if end.banker != 6 or end.player >= 6:
        return LOSE
    return "two_card_six" if end.banker_cards == 2 else "three_card_six"


MARGINS = ("win_by_9", "win_by_8", "win_by_7", "win_by_6", "win_by_5", "win_by_4",
           "natural_win", "natural_tie")
"""The Dragon Bonus' lines: a win without a natural by 9 to 4 points, a win with one, a
tie with one."""


def settle_margin(side: int) -> Callable[[End], str]:
    """The Dragon Bonus on the Player (``side`` 0) or the Banker (1): the side wins with a
    natural, or ties with a natural on either side, or wins without one by 4 points or more.

    >>> player, banker = settle_margin(0), settle_margin(1)
    >>> player(End(2, 2, 9, 8)), banker(End(2, 2, 8, 8)), player(End(3, 3, 9, 0))
    ('natural_win', 'natural_tie', 'win_by_9')
    >>> banker(End(3, 3, 1, 4)), player(End(3, 3, 7, 7)), banker(End(2, 2, 9, 8))
    ('lose', 'lose', 'lose')
    """
    return _Margin(side)


@dataclass(frozen=True, slots=True)
class _Margin:
    """:func:`settle_margin`'s rule, a value (a counter's bets travel to worker processes
    by pickle, which a closure cannot)."""

    side: int

    def __call__(self, end: End) -> str:
        side = self.side
        mine, theirs = (end.player, end.banker) if side == 0 else (end.banker, end.player)
        natural = (end.player_natural, end.banker_natural)
        if mine == theirs:
            return "natural_tie" if any(natural) else LOSE
        if mine < theirs:
            return LOSE
        if natural[side]:
            return "natural_win"
        return f"win_by_{mine - theirs}" if mine - theirs >= 4 else LOSE


def settle_dragon_7(end: End) -> str:
    """EZ Baccarat's Dragon 7: the Banker wins with a point of 7 on three cards.

    >>> settle_dragon_7(End(3, 3, 6, 7)), settle_dragon_7(End(2, 2, 6, 7))
    ('dragon_7', 'lose')
    """
    won = end.banker == 7 and end.player < 7 and end.banker_cards == 3
    return "dragon_7" if won else LOSE


def settle_panda_8(end: End) -> str:
    """EZ Baccarat's Panda 8: the Player wins with a point of 8 on three cards.

    >>> settle_panda_8(End(3, 3, 8, 7)), settle_panda_8(End(3, 2, 8, 8))
    ('panda_8', 'lose')
    """
    won = end.player == 8 and end.banker < 8 and end.player_cards == 3
    return "panda_8" if won else LOSE


def settle_tie(point: int) -> Callable[[End], str]:
    """Egalité: the round ties on a point of ``point``.

    >>> settle_tie(7)(End(3, 2, 7, 7)), settle_tie(7)(End(2, 2, 6, 6))
    ('tie', 'lose')
    """
    return _Tie(point)


@dataclass(frozen=True, slots=True)
class _Tie:
    """:func:`settle_tie`'s rule, a value (picklable, as :class:`_Margin`)."""

    point: int

    def __call__(self, end: End) -> str:
        return "tie" if end.player == end.banker == self.point else LOSE


def settle_natural(point: int, side: int) -> Callable[[End], str]:
    """Natural 8 or Natural 9: the Player's (``side`` 0) or the Banker's (1) first two
    cards make ``point`` (8 or 9), whatever the other side holds.

    >>> settle_natural(8, 1)(End(2, 2, 9, 8)), settle_natural(9, 0)(End(3, 2, 9, 6))
    ('natural_8', 'lose')
    """
    return _Natural(point, side)


@dataclass(frozen=True, slots=True)
class _Natural:
    """:func:`settle_natural`'s rule, a value (picklable, as :class:`_Margin`)."""

    point: int
    side: int

    def __call__(self, end: End) -> str:
        natural = end.banker_natural if self.side else end.player_natural
        won = natural and (end.banker if self.side else end.player) == self.point
        return f"natural_{self.point}" if won else LOSE


CARD_WORDS = {2: "two", 3: "three"}
"""A side's number of cards in a line's name (``three_card_win_6``)."""
SIDES = ("player", "banker")
"""The sides of a baccarat round, by index (0 the Player, 1 the Banker)."""


@dataclass(frozen=True, slots=True)
class WinWith:
    """The rule of a side-wins event (:func:`wins_with`): ``side`` (0 the Player, 1 the
    Banker) wins (its point higher than the other's; a tie loses) with a final point in
    ``totals`` (empty: any point), on ``cards`` (2 or 3; None: either), the lines split by
    the number of cards when ``by_cards``; a value (picklable, as :class:`_Margin`).

    >>> tiger = WinWith(1, (6,), None, True)
    >>> tiger(End(3, 2, 5, 6)), tiger(End(2, 3, 2, 6)), tiger(End(2, 2, 6, 6))
    ('two_card_win_6', 'three_card_win_6', 'lose')
    """

    side: int
    """0 the Player, 1 the Banker."""
    totals: tuple[int, ...]
    """The winning points it pays on, ascending (empty: any point)."""
    cards: int | None
    """The side's number of cards it pays on (2 or 3; None: either)."""
    by_cards: bool
    """Whether a two-card and a three-card win are different lines."""

    def line(self, cards: int, total: int) -> str:
        """The line of a win with ``cards`` cards and a point of ``total``."""
        prefix = f"{CARD_WORDS[cards]}_card_" if self.by_cards or self.cards else ""
        return f"{prefix}win" + (f"_{total}" if self.totals else "")

    @property
    def lines(self) -> tuple[str, ...]:
        """Every line, per total ascending, a three-card win before a two-card one."""
        counts = (3, 2) if self.by_cards else (self.cards or 2,)
        out = [self.line(n, t) for t in (self.totals or (0,)) for n in counts]
        return tuple(dict.fromkeys(out))

    def __call__(self, end: End) -> str:
        mine, theirs = (end.player, end.banker) if self.side == 0 else (end.banker,
                                                                          end.player)
        cards = end.player_cards if self.side == 0 else end.banker_cards
        if mine <= theirs or (self.totals and mine not in self.totals):
            return LOSE
        if self.cards is not None and cards != self.cards:
            return LOSE
        return self.line(cards, mine)


_WINS = re.compile(r"(player|banker)_wins(?:_with_([0-9](?:_or_[0-9])*))?"
                   r"(?:_(by_cards|on_two_cards|on_three_cards))?")
WINS_FORMS = ("player_wins", "banker_wins", "SIDE_wins_with_6", "SIDE_wins_with_8_or_9",
              "SIDE_wins_on_three_cards", "SIDE_wins_with_6_by_cards")
"""Examples of the side-wins events' names (:func:`wins_with`)."""


def wins_with(name: str) -> Event | None:
    """The side-wins event named ``name``, or None when the name is not of that form:
    ``SIDE_wins`` (``player`` or ``banker``) then, optionally, ``_with_T`` or
    ``_with_T_or_U...`` (the final points it pays on, 0-9: a line per point, ``win_T``;
    without, any point, one line ``win``), then optionally ``_on_two_cards`` or
    ``_on_three_cards`` (a win with that many cards only: lines ``two_card_win_T`` ..) or
    ``_by_cards`` (a two-card and a three-card win are separate lines:
    ``three_card_win_T``, ``two_card_win_T``). A win is the side's point higher than the
    other's; a tie loses. "Banker wins by total", Big Tiger, Wizard of Odds' 3 Card Win,
    Lucky 6 (``banker_wins_with_6_by_cards``), Dragon 7
    (``banker_wins_with_7_on_three_cards``), Panda 8 are of this form.

    >>> event = wins_with("banker_wins_with_6_on_three_cards")
    >>> event.lines, event.settle_round((card("Ts"), card("5d"), card("Kh")),
    ...                                 (card("3h"), card("Tc"), card("3d")))
    (('three_card_win_6',), 'three_card_win_6')
    >>> wins_with("player_wins_with_8_or_9").lines, wins_with("tie_6")
    (('win_8', 'win_9'), None)
    """
    match = _WINS.fullmatch(name)
    if match is None:
        return None
    side_name, totals_text, split = match.groups()
    totals = tuple(int(t) for t in totals_text.split("_or_")) if totals_text else ()
    if list(totals) != sorted(set(totals)):
        raise ValueError(f"event {name}: give the points once each, ascending")
    cards = {"on_two_cards": 2, "on_three_cards": 3}.get(split or "")
    rule = WinWith(SIDES.index(side_name), totals, cards, split == "by_cards")
    side = side_name.capitalize()
    points = (" or ".join(map(str, totals)) if totals else "any point")
    how = {None: "", "by_cards": ", a two-card and a three-card win paid apart",
           "on_two_cards": ", on two cards", "on_three_cards": ", on three cards"}[split]
    return Event(name, "baccarat", ROUND_END, rule.lines,
                 f"the {side} wins (its point higher; a tie loses) with {points}{how}",
                 settle_end=rule)


def find_event(name: str) -> Event:
    """The event named ``name``: one of :data:`EVENTS`, or a side-wins event
    (:func:`wins_with`); an unknown name is a ValueError.

    >>> find_event("poker3").game, find_event("banker_wins_with_7").lines
    ('blackjack', ('win_7',))
    """
    if name in EVENTS:
        return EVENTS[name]
    event = wins_with(name)
    if event is None:
        raise ValueError(f"unknown event {name!r} (events: {', '.join(EVENTS)}; or"
                         f" {', '.join(WINS_FORMS)}: the Player or Banker wins, with the"
                         " points given, optionally on two or three cards or by cards)")
    return event


def settle_face_pair(cards: tuple[int, ...]) -> str:
    """Baccarat's Player or Banker pair: a side's first two cards of one face (J-J, not
    J-Q; suits do not matter).

    >>> settle_face_pair((card("Js"), card("Jd"))), settle_face_pair((card("Js"), card("Qs")))
    ('pair', 'lose')
    """
    if len(cards) < 2:
        return MORE
    return "pair" if face_of(cards[0]) == face_of(cards[1]) else LOSE


EVENTS: dict[str, Event] = {event.name: event for event in (
    Event("poker3", "blackjack", ("player's first card", "player's second card",
                                  "dealer's up card"),
          ("suited_three_of_a_kind", "straight_flush", "three_of_a_kind", "straight",
           "flush"),
          "the player's first two cards and the dealer's up card as a three-card poker"
          " hand: three of one face and suit, a straight flush, three of a kind, a"
          " straight (three faces in sequence, the ace low in A-2-3 or high in Q-K-A,"
          " never K-A-2), a flush (three of one suit)", settle_poker3),
    Event("twenty", "blackjack", ("player's first card", "player's second card",
                                  "dealer's up card", "dealer's hole card"),
          ("qh_pair_dealer_blackjack", "qh_pair", "matched_20", "suited_20", "any_20"),
          "the player's first two cards total 20 (an ace counts 11): two queens of hearts"
          " with a dealer blackjack (the up card and the dealer's second card an ace and a"
          " ten-valued card), two queens of hearts, a matched 20 (two cards of one face and"
          " suit), a suited 20, any 20", settle_twenty),
    Event("pair", "blackjack", ("player's first card", "player's second card"),
          ("perfect", "coloured", "mixed"),
          "the player's first two cards of one face (J-J is a pair, J-Q is not): of one"
          " suit (perfect), of one colour (coloured), one red and one black (mixed)",
          settle_pair),
    Event("buster", "blackjack", ("dealer's up card", "dealer's second card",
                                  "dealer's draws", "player's first card",
                                  "player's second card"),
          BUST_LINES,
          "the dealer busts (his hand passes 21), paid by the number of cards in his busted"
          " hand (3 to 8 or more); with 7 or 8 or more, whether the player's first two"
          " cards are a blackjack. The dealer completes his hand whether or not the"
          " players bust; a dealer blackjack (under the peek or not) is 21, not a bust."
          " Dealt under the ruleset's dealer rule (hits or stands on soft 17)",
          settle_buster, hits_soft_17=False),
    Event("banker_six", "baccarat", ROUND_END, ("three_card_six", "two_card_six"),
          "the Banker wins with a point of 6 (the Player's point lower), of three cards"
          " (he drew) or of two", settle_end=settle_banker_six),
    *(Event(f"margin_{name}", "baccarat", ROUND_END, MARGINS,
            f"the {name.capitalize()} wins with a natural (8 or 9 on two cards), or the round"
            " ties with a natural (either side's, so both), or the"
            f" {name.capitalize()} wins without a natural by 9, 8, 7, 6, 5 or 4 points"
            " (a smaller win, a tie without a natural, a loss: lose)",
            settle_end=settle_margin(side)) for side, name in enumerate(("player", "banker"))),
    Event("dragon_7", "baccarat", ROUND_END, ("dragon_7",),
          "the Banker wins with a point of 7 on three cards (EZ Baccarat's Dragon 7; at EZ"
          " Baccarat that win pushes the Banker bet, which pays even money otherwise, no"
          " commission: a rule of the main bet, not of this one)",
          settle_end=settle_dragon_7),
    Event("panda_8", "baccarat", ROUND_END, ("panda_8",),
          "the Player wins with a point of 8 on three cards (EZ Baccarat's Panda 8)",
          settle_end=settle_panda_8),
    *(Event(f"tie_{point}", "baccarat", ROUND_END, ("tie",),
            f"the round ties on a point of {point} (Egalité {point})",
            settle_end=settle_tie(point)) for point in range(10)),
    *(Event(f"{side}_pair", "baccarat", (f"{side.capitalize()}'s first card",
                                         f"{side.capitalize()}'s second card"), ("pair",),
            f"the {side.capitalize()}'s first two cards of one face (J-J is a pair, J-Q is"
            " not); the ruleset's pair bet in these terms", settle_face_pair)
      for side in ("player", "banker")),
    *(Event(f"natural_{point}_{name}", "baccarat", ROUND_END, (f"natural_{point}",),
            f"the {name.capitalize()}'s first two cards make {point} (a natural {point})",
            settle_end=settle_natural(point, side))
      for point in (8, 9) for side, name in enumerate(("player", "banker"))),
)}
"""The events side bets can be settled on, by name."""
