"""The events side bets are settled on: which cards of the round each looks at, the lines
it can settle on (best first), and the rule that settles them.

A card here is a *card type*, an index ``4 * face + suit`` over :data:`FACES` (``A``,
``2`` .. ``9``, ``T``, ``J``, ``Q``, ``K``) and :data:`SUITS` (``s``, ``h``, ``d``,
``c``): 52 types, each held ``decks`` times by a full shoe. An event reads the cards it
looks at in its own order (the shoe is well shuffled, so which positions of the deal they
are does not change the probabilities; the brute force in tests/oracles/ deals them in
casino order) and settles a prefix of them: a line's name, :data:`LOSE`, or :data:`MORE`
(look at the next card). Lines are exclusive; a card sequence settles on one line or none.

>>> EVENTS["pair"].settle((card("7h"), card("7d")))
'coloured'
>>> EVENTS["pair"].settle((card("7h"),))  # needs the player's second card
'more'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from strategy_calc.cards import FACES, SUITS, parse_face

MORE = "more"
"""What :attr:`Event.settle` returns when the event needs the next card it looks at."""
LOSE = "lose"
"""What :attr:`Event.settle` returns when the bet is lost (the line no pay table prices)."""

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


EVENTS: dict[str, Event] = {event.name: event for event in (
    Event("pair", "blackjack", ("player's first card", "player's second card"),
          ("perfect", "coloured", "mixed"),
          "the player's first two cards of one face (J-J is a pair, J-Q is not): of one"
          " suit (perfect), of one colour (coloured), one red and one black (mixed)",
          settle_pair),
)}
"""The events side bets can be settled on, by name."""
