"""The rules of a baccarat game: the shoe size and the payouts."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from strategy_calc.cards import MAX_BACCARAT_DECKS, CardError, check_decks
from strategy_calc.rules.fields import RulesError, check_choices
from strategy_calc.rules.shoe import BurnStart, Shuffle, check_shoe_fields

if TYPE_CHECKING:
    from fractions import Fraction


BETS: tuple[str, ...] = ("banker", "player", "tie", "player_pair", "banker_pair")
"""The baccarat bets, in display order (also the tie-break order of
:attr:`strategy_calc.baccarat.odds.BaccaratOdds.best`)."""


BET_NAMES: dict[str, str] = {
    "banker": "Banker", "player": "Player", "tie": "Tie",
    "player_pair": "Player Pair", "banker_pair": "Banker Pair",
}
"""Display names of :data:`BETS`."""


@dataclass(frozen=True, slots=True)
class BaccaratRules:
    """The rules of one baccarat game: the shoe size and the payouts.

    A payout is what a winning bet wins per unit bet (the stake comes back on
    top); it is read exactly as the nearest fraction with a denominator up to
    10**6 (0.95 is 19/20). Player and Banker bets push on a tie.
    ``str(rules)`` is a stable short slug.

    >>> str(BaccaratRules(name="no-commission", banker_pays=1, banker_six_pays=0.5))
    'no-commission: 8D P1 B1/6:0.5 T8 PP11 BP11'
    >>> BaccaratRules(tie_pays=-1)
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: tie_pays must be a number >= 0, not -1
    """

    name: str = "custom"
    """The ruleset's name (``macau-baccarat`` or the user's own)."""
    decks: int = 8
    """Number of 52-card decks in the full shoe, 1 to 25."""
    player_pays: float = 1.0
    """What a winning Player bet wins, per unit bet (1 = 1:1)."""
    banker_pays: float = 0.95
    """What a winning Banker bet wins, per unit bet, commission taken (0.95 = 1:1 less 5%)."""
    banker_six_pays: float = 0.95
    """What a Banker bet winning with a point of 6 wins, per unit bet. Set it
    equal to ``banker_pays`` for no special rule; commission-free games pay 0.5
    (1:2) with ``banker_pays = 1``."""
    tie_pays: float = 8.0
    """What a winning Tie bet wins, per unit bet (8 = 8:1)."""
    player_pair_pays: float = 11.0
    """What a Player Pair bet wins (Player's first two cards of one rank), per unit bet."""
    banker_pair_pays: float = 11.0
    """What a Banker Pair bet wins (Banker's first two cards of one rank), per unit bet."""
    shuffle: Shuffle = "cut_card"
    """How the shoe is shuffled: ``cut_card`` (a shoe dealt to a cut card, then shuffled
    anew) or ``continuous`` (a continuous shuffler: each round's cards go into a buffer
    of ``continuous_buffer_cards`` cards that returns to the machine when full). Counted
    runs (``count``) deal it; a single round's EV does not depend on it (docs/MODEL.md,
    "The shoe procedure")."""
    cut_card_from_end: tuple[int, ...] = (14, 14)
    """Where the cut card goes: a range ``[LOW, HIGH]`` of cards from the end (cards
    behind it), drawn uniformly for each shoe; it comes out with the last card in front
    of it. ``[]``: not stated (``count`` then puts it 14 cards from the end)."""
    burn_start: BurnStart = 0
    """Cards burnt face down (unseen) before a shoe's first round, or ``decks``: as many
    cards as the shoe has decks."""
    burn_per_round: int = 0
    """Cards burnt face down (unseen) before every round."""
    burn_shown_card: bool = True
    """Before a shoe, the first card is shown (seen) and as many cards as its value (ace
    1, tens and faces 10) are burnt face down (unseen)."""
    demo_rounds: int = 0
    """Demonstration rounds dealt at the start of a shoe, seen, without bets (0 to 3)."""
    rounds_after_cut_card: int = 0
    """Rounds dealt after the round in which the cut card comes out: 0 (that round is the
    shoe's last) or 1 (one more round)."""
    continuous_buffer_cards: int = 0
    """Under ``shuffle = "continuous"``: the buffer's size in cards; the round's cards
    wait there, seen and out of play, until it holds at least this many, then all of
    them go back into the machine (0: every round's cards go back at once)."""

    def __post_init__(self) -> None:
        try:
            check_decks(self.decks, MAX_BACCARAT_DECKS)
        except CardError as exc:
            raise RulesError(str(exc)) from None
        for field in ("player_pays", "banker_pays", "banker_six_pays", "tie_pays",
                      "player_pair_pays", "banker_pair_pays"):
            value = getattr(self, field)
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or value < 0):
                raise RulesError(f"{field} must be a number >= 0, not {value!r}")
        check_choices(self)
        check_shoe_fields(self)

    def payout(self, field: str) -> Fraction:
        """The exact payout of a ``*_pays`` field, per unit bet.

        >>> BaccaratRules().payout("banker_pays")
        Fraction(19, 20)
        """
        from fractions import Fraction  # here: only baccarat's exact odds need it

        return Fraction(getattr(self, field)).limit_denominator(10**6)

    def __str__(self) -> str:
        banker = f"B{self.banker_pays:g}"
        if self.banker_six_pays != self.banker_pays:
            banker += f"/6:{self.banker_six_pays:g}"
        return (f"{self.name}: {self.decks}D P{self.player_pays:g} {banker}"
                f" T{self.tie_pays:g} PP{self.player_pair_pays:g} BP{self.banker_pair_pays:g}")
