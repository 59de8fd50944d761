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

from collections.abc import Callable
from dataclasses import dataclass, replace

from strategy_calc.blackjack.hand_rules import dealer_draws as dealer_draws
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
class Event:
    """An event on the cards of a round: what a side bet is settled on."""

    name: str
    """The name a side bet's TOML gives as ``event``."""
    game: str
    """The game whose round deals the cards (``blackjack``)."""
    looks_at: tuple[str, ...]
    """The cards of the round it looks at, in the order :attr:`settle` reads them."""
    lines: tuple[str, ...]
    """The lines it settles on, best first (a pay table prices every one)."""
    meaning: str
    """What the event is, in words (docs/MODEL.md states it at length)."""
    settle: Callable[[tuple[int, ...]], str]
    """Settle a prefix of the cards (card types): a line, :data:`LOSE` or :data:`MORE`."""
    hits_soft_17: bool | None = None
    """An event on the dealer's whole hand: whether the dealer hits soft 17 (the
    ruleset's ``dealer_hits_soft_17``, bound by :func:`under_dealer_rule`); None: the
    event does not read the dealer's rules."""

    def settle_hand(self, cards: tuple[int, ...]) -> str:
        """:attr:`settle`, under the dealer's rule of :attr:`hits_soft_17` for events that
        read it."""
        if self.hits_soft_17 is None:
            return self.settle(cards)
        return settle_buster(cards, self.hits_soft_17)


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
)}
"""The events side bets can be settled on, by name."""
