"""A brute force of blackjack's first-card side bets, in casino order, on small shoes
(exact fractions).

Written from the bets' definitions (docs/MODEL.md "Side bets", the sources in
strategy_calc/sidebets/builtin/*.toml), not from strategy_calc.sidebets: a shoe is a list of
physical cards ``(face, suit)`` with faces ``"A23456789TJQK"`` and suits ``"shdc"``; the
round's first four cards are dealt one by one without replacement in casino order (player,
dealer up, player, dealer's second card) and every ordering is counted. Cards known to be
out without a suit are handled by averaging over every set of physical cards of that face
they could have been (each equally likely).

Each bet's settlement returns the name of its line, or ``"lose"``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence

from rational import Fraction

FACES = "A23456789TJQK"
SUITS = "shdc"

Card = tuple[str, str]
Deal = tuple[Card, Card, Card, Card]
"""(player's first card, dealer's up card, player's second card, dealer's second card)."""


def deck(decks: int = 1) -> list[Card]:
    """The physical cards of ``decks`` full decks."""
    return [(f, s) for _ in range(decks) for f in FACES for s in SUITS]


def points(face: str) -> int:
    """Blackjack points with the ace as 11."""
    return 11 if face == "A" else 10 if face in "TJQK" else int(face)


# --- 21+3: "a flush, straight, straight flush, or three of a kind" (ace high or low) ----


def twenty_one_plus_three(deal: Deal) -> str:
    p1, up, p2, _ = deal
    hand = [p1, p2, up]
    faces = [c[0] for c in hand]
    suited = hand[0][1] == hand[1][1] == hand[2][1]
    if faces[0] == faces[1] == faces[2]:
        return "suited_three_of_a_kind" if suited else "three_of_a_kind"
    order = sorted(FACES.index(f) for f in faces)  # A = 0 .. K = 12
    ace_high = sorted(13 if i == 0 else i for i in order)
    straight = any(o[2] - o[0] == 2 and len(set(o)) == 3 for o in (order, ace_high))
    if straight and suited:
        return "straight_flush"
    if straight:
        return "straight"
    return "flush" if suited else "lose"


# --- Lucky Ladies: "the player's first two cards total twenty" -------------------------


def lucky_ladies(deal: Deal) -> str:
    p1, up, p2, second = deal
    if points(p1[0]) + points(p2[0]) != 20:
        return "lose"
    if p1 == p2 == ("Q", "h"):
        blackjack = {points(up[0]), points(second[0])} == {11, 10}
        return "qh_pair_dealer_blackjack" if blackjack else "qh_pair"
    if p1 == p2:
        return "matched_20"
    return "suited_20" if p1[1] == p2[1] else "any_20"


# --- Deluxe's pair bet: perfect / coloured / mixed pair -------------------------------


def deluxe_pair(deal: Deal) -> str:
    p1, _, p2, _ = deal
    if p1[0] != p2[0]:
        return "lose"
    if p1[1] == p2[1]:
        return "perfect"
    red = "hd"
    return "coloured" if (p1[1] in red) == (p2[1] in red) else "mixed"


SETTLE: dict[str, Callable[[Deal], str]] = {
    "21+3": twenty_one_plus_three, "lucky-ladies": lucky_ladies, "deluxe-pair": deluxe_pair,
}
LOOKS_AT = {"21+3": 3, "lucky-ladies": 4, "deluxe-pair": 3}
"""How many of the round's first cards (in casino order) each bet needs dealt."""


def brute_force(bet: str, shoe: Sequence[Card]) -> dict[str, Fraction]:
    """The probability of each line of ``bet`` over every ordering of the round's first
    cards from ``shoe`` (a known list of physical cards)."""
    settle, k = SETTLE[bet], LOOKS_AT[bet]
    counts: Counter[str] = Counter()
    total = 0
    for dealt in itertools.permutations(range(len(shoe)), k):
        cards = [shoe[i] for i in dealt] + [("2", "s")] * (4 - k)  # unseen by the bet
        counts[settle((cards[0], cards[1], cards[2], cards[3]))] += 1
        total += 1
    return {line: Fraction(n, total) for line, n in counts.items()}


def with_unknown_removals(bet: str, shoe: Sequence[Card], faces: str
                          ) -> dict[str, Fraction]:
    """:func:`brute_force` when one card of each face in ``faces`` is out, suit unknown:
    the average over every choice of physical cards they were."""
    choices = [[i for i, c in enumerate(shoe) if c[0] == f] for f in faces]
    total: Counter[str] = Counter()
    cases = 0
    for removed in itertools.product(*choices):
        if len(set(removed)) < len(removed):
            continue
        left = [c for i, c in enumerate(shoe) if i not in removed]
        for line, p in brute_force(bet, left).items():
            total[line] += p
        cases += 1
    return {line: p / cases for line, p in total.items()}
