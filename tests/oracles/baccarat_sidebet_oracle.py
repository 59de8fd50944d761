"""A brute force of baccarat's side bets on the finished round, in casino order, on small
shoes (exact fractions).

Written from the rules text (docs/RULES.md section 3, the third-card tableau; the bets'
definitions in docs/MODEL.md "Side bets" and the sources of
strategy_calc/sidebets/builtin/*.toml), not from strategy_calc: a shoe is a list of
faces ``"A23456789TJQK"``; the cards are dealt one at a time without replacement in casino
order (Player, Banker, Player, Banker, then the Player's third card if he draws, then the
Banker's if he draws), every physical card equally likely at each draw, and the round
stops when the tableau says so. Each finished round is kept with its exact probability.

Each bet's settlement returns the name of its line, or ``"lose"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from rational import Fraction

FACES = "A23456789TJQK"

Hand = tuple[str, ...]
Round = tuple[Hand, Hand]
"""(the Player's cards, the Banker's cards), in the order dealt."""


def value(face: str) -> int:
    """RULES.md "Values": A = 1, 2..9 face, T/J/Q/K = 0."""
    return 1 if face == "A" else 0 if face in "TJQK" else int(face)


@cache
def point(hand: Hand) -> int:
    """A hand's point: its total mod 10."""
    return sum(value(f) for f in hand) % 10


def natural(hand: Hand) -> bool:
    """8 or 9 on the first two cards."""
    return len(hand) == 2 and point(hand) >= 8


def banker_draws(banker: int, third: int | None) -> bool:
    """RULES.md: "Banker, Player stood: draws on 0-5, stands on 6-7"; "Banker, Player drew
    card c: 0-2 draw; 3 draws unless c = 8; 4 draws if c in 2-7; 5 draws if c in 4-7; 6
    draws if c in 6-7; 7 stands"."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    if banker == 6:
        return third in (6, 7)
    return False


def rounds(shoe: str) -> dict[Round, Fraction]:
    """Every finished round dealt from ``shoe`` (a string of faces, one per physical card)
    with its probability: the ordered ways to draw its cards (a product of cards left of
    each face as it is drawn) over the ordered ways to draw that many cards from the shoe.
    (:func:`brute_force` sums :func:`ways` instead, the same in integers, for speed.)"""
    n = len(shoe)
    return {r: Fraction(w, _ordered(n, len(r[0]) + len(r[1]))) for r, w in ways(shoe).items()}


def _ordered(n: int, k: int) -> int:
    """The ordered ways to draw ``k`` of ``n`` cards."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def ways(shoe: str) -> dict[Round, int]:
    """Every finished round dealt from ``shoe`` with its ordered ways to be drawn."""
    found: Counter[Round] = Counter()
    left = Counter(shoe)

    def draw(w: int) -> list[tuple[str, int]]:
        """Each face the next card can be, with the ways so far times its cards left."""
        return [(f, w * c) for f, c in left.items() if c > 0]

    def take(face: str) -> None:
        left[face] -= 1

    def put(face: str) -> None:
        left[face] += 1

    for p1, w1 in draw(1):
        take(p1)
        for b1, w2 in draw(w1):
            take(b1)
            for p2, w3 in draw(w2):
                take(p2)
                for b2, w4 in draw(w3):
                    take(b2)
                    finish((p1, p2), (b1, b2), w4, draw, take, put, found)
                    put(b2)
                put(p2)
            put(b1)
        put(p1)
    return dict(found)


def finish(player: Hand, banker: Hand, w: int,
           draw: Callable[[int], list[tuple[str, int]]],
           take: Callable[[str], None], put: Callable[[str], None],
           found: Counter[Round]) -> None:
    """The third cards by the tableau, then the round kept."""
    if natural(player) or natural(banker):  # "nobody draws"
        found[(player, banker)] += w
        return
    if point(player) >= 6:  # the Player stands on 6-7
        if banker_draws(point(banker), None):
            for b3, w2 in draw(w):
                found[(player, (*banker, b3))] += w2
        else:
            found[(player, banker)] += w
        return
    for p3, w1 in draw(w):  # the Player draws on 0-5
        take(p3)
        drew = (*player, p3)
        if banker_draws(point(banker), value(p3)):
            for b3, w2 in draw(w1):
                found[(drew, (*banker, b3))] += w2
        else:
            found[(drew, banker)] += w1
        put(p3)


# --- the bets, from their definitions --------------------------------------------------


def lucky6(r: Round) -> str:
    """The Banker wins with a point of 6, of two or of three cards."""
    player, banker = r
    if point(banker) == 6 and point(player) < 6:
        return "two_card_six" if len(banker) == 2 else "three_card_six"
    return "lose"


def dragon_bonus(side: int) -> Callable[[Round], str]:
    """Dragon Bonus on the Player (``side`` 0) or the Banker (1): a win with a natural pays
    (natural_win), a tie with a natural pushes (natural_tie), a win without one by 4 to 9
    points pays by the margin; anything else loses."""

    def settle(r: Round) -> str:
        mine, theirs = r[side], r[1 - side]
        margin = point(mine) - point(theirs)
        if margin == 0:
            return "natural_tie" if natural(mine) or natural(theirs) else "lose"
        if margin < 0:
            return "lose"
        if natural(mine):
            return "natural_win"
        return f"win_by_{margin}" if margin >= 4 else "lose"

    return settle


def dragon7(r: Round) -> str:
    """The Banker wins with a three-card 7."""
    player, banker = r
    return ("dragon_7" if len(banker) == 3 and point(banker) == 7 and point(player) < 7
            else "lose")


def panda8(r: Round) -> str:
    """The Player wins with a three-card 8."""
    player, banker = r
    return ("panda_8" if len(player) == 3 and point(player) == 8 and point(banker) < 8
            else "lose")


def egalite(n: int) -> Callable[[Round], str]:
    """A tie on the point ``n``."""
    return lambda r: "tie" if point(r[0]) == point(r[1]) == n else "lose"


def pair(side: int) -> Callable[[Round], str]:
    """The first two cards of a side (0 Player, 1 Banker) of one face (J-J, not J-Q)."""
    return lambda r: "pair" if r[side][0] == r[side][1] else "lose"


def natural_of(total: int, side: int) -> Callable[[Round], str]:
    """A side's (0 Player, 1 Banker) first two cards make ``total`` (8 or 9)."""
    return lambda r: f"natural_{total}" if point(r[side][:2]) == total else "lose"


def side_wins(side: int, totals: tuple[int, ...] = (), cards: int | None = None,
              by_cards: bool = False) -> Callable[[Round], str]:
    """The side (0 Player, 1 Banker) wins, its point higher than the other's (a tie
    loses), with a final point in ``totals`` (empty: any), with ``cards`` cards only (None:
    2 or 3). The line (docs/MODEL.md, the side-wins events): ``win``, then ``_T`` for the
    point when points are named, prefixed ``two_card_`` / ``three_card_`` when a card count
    is named or the lines are split by it."""

    def settle(r: Round) -> str:
        mine, theirs = point(r[side]), point(r[1 - side])
        n = len(r[side])
        if mine <= theirs or (totals and mine not in totals) or (cards and n != cards):
            return "lose"
        word = {2: "two", 3: "three"}[n]
        prefix = f"{word}_card_" if cards or by_cards else ""
        return prefix + "win" + (f"_{mine}" if totals else "")

    return settle


SIDE_WINS: dict[str, Callable[[Round], str]] = {
    "banker_wins": side_wins(1),
    "player_wins_with_6_or_7_or_9": side_wins(0, (6, 7, 9)),
    "banker_wins_with_5_or_6_or_7_by_cards": side_wins(1, (5, 6, 7), by_cards=True),
    "player_wins_on_two_cards": side_wins(0, cards=2),
    "banker_wins_with_5_or_8_on_three_cards": side_wins(1, (5, 8), cards=3),
    "player_wins_by_cards": side_wins(0, by_cards=True),
}
"""Side-wins events (by their names in strategy_calc.sidebets.events) and their
settlement, from the definition."""


SETTLE: dict[str, Callable[[Round], str]] = {
    "lucky6": lucky6, "lucky6-vegas": lucky6, "super6": lucky6,
    "dragon-bonus-player": dragon_bonus(0), "dragon-bonus-banker": dragon_bonus(1),
    "dragon7": dragon7, "panda8": panda8,
    **{f"egalite-{n}": egalite(n) for n in range(10)},
    "player-pair": pair(0), "banker-pair": pair(1),
    **{f"natural{n}-{name}": natural_of(n, side) for n in (8, 9)
       for side, name in enumerate(("player", "banker"))},
    "big-tiger": side_wins(1, (6,), cards=3),
    "three-card-win-player": side_wins(0, cards=3),
    "three-card-win-banker": side_wins(1, cards=3),
}
"""Each built-in baccarat side bet's settlement."""


@cache
def brute_force(bet: str, shoe: str) -> dict[str, Fraction]:
    """The probability of each line of ``bet`` (a built-in of :data:`SETTLE` or an event
    of :data:`SIDE_WINS`) over every round dealt from ``shoe``."""
    settle = SETTLE[bet] if bet in SETTLE else SIDE_WINS[bet]
    lines: Counter[tuple[str, int]] = Counter()
    for r, w in ways(shoe).items():
        lines[(settle(r), len(r[0]) + len(r[1]))] += w
    out: Counter[str] = Counter()
    for (line, k), w in lines.items():
        out[line] += Fraction(w, _ordered(len(shoe), k))
    return dict(out)
