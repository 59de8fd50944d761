"""Side bets: the pair bet on the player's first two cards, exact for any shoe.

The pair bet is settled on the player's first two cards, which (the shoe being
well shuffled) are two cards drawn at random from the shoe: ``rules.decks``
52-card decks less the cards known to be out. It uses the 13 ranks ``A``,
``2`` .. ``9``, ``T``, ``J``, ``Q``, ``K`` (J-J is a pair, J-Q is not) and the
suits (``s``, ``h``, ``d``, ``c``; hearts and diamonds are red).

Two tables, chosen by ``rules.pair_bet``:

* ``perfect``: a *mixed* pair (same rank, one red and one black card) pays
  ``pair_pays_mixed``, a *coloured* pair (same rank and colour, different
  suits) ``pair_pays_coloured``, a *perfect* pair (same rank and suit, 2+ decks)
  ``pair_pays_perfect``;
* ``any``: any same-rank pair pays ``pair_pays_any``.

Anything else loses the bet. Every figure is exact (a :class:`~fractions.Fraction`)
or its correctly rounded float; an EV is per unit side bet.

>>> from strategy_calc.rules import blackjack_rules
>>> odds = analyse_pair(blackjack_rules("deluxe"))  # 8 decks, 25/12/6
>>> odds.exact_probabilities()
{'perfect': Fraction(7, 415), 'coloured': Fraction(8, 415), 'mixed': Fraction(16, 415), \
'no_pair': Fraction(384, 415)}
>>> odds.exact_ev(), f"{odds.ev:+.4%}"
(Fraction(-17, 415), '-4.0964%')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from strategy_calc.cards import (
    FACES,
    SUITS,
    CardError,
    FaceCard,
    FaceShoe,
    parse_face_card,
    parse_face_cards,
)
from strategy_calc.rules import BlackjackRules, RulesError

RANKS: tuple[str, ...] = FACES
"""The 13 ranks of the pair bet (faces: J-J is a pair, J-Q is not), in count order."""

RED_SUITS = "hd"
"""The red suits; the other two (spades, clubs) are black."""

PERFECT_OUTCOMES: tuple[str, ...] = ("perfect", "coloured", "mixed", "no_pair")
"""Outcomes of the perfect-pairs table, best first."""

ANY_OUTCOMES: tuple[str, ...] = ("pair", "no_pair")
"""Outcomes of the any-pair table."""

class NoPairBetError(RulesError):
    """The ruleset has no pair side bet (``pair_bet = "none"``)."""


PairCard = FaceCard
"""A card of the pair bet's shoe: a face and, if given, a suit (a ``FaceCard``)."""
parse_pair_card = parse_face_card
parse_pair_cards = parse_face_cards


@dataclass(frozen=True, slots=True)
class PairShoe(FaceShoe):
    """A suit-aware shoe: the cards still in it, some removed with unknown suit.

    ``known[r][s]`` counts the cards of rank ``RANKS[r]`` and suit ``SUITS[s]``
    not known to be out (the full shoe less the removals whose suit was given);
    ``unknown[r]`` more cards of rank ``RANKS[r]`` are out, suits unknown.

    With ``u = unknown[r]`` such removals of a rank whose known cards number
    ``K = sum(known[r])`` (``k_s`` of suit ``s``), a well-shuffled shoe makes the
    removed cards a uniformly random ``u``-subset of those ``K`` cards, so the
    ``A = K - u`` cards left are a uniformly random ``A``-subset, and the counts
    ``a_s`` left are multivariate hypergeometric. The pair probabilities are
    *quadratic* in the ``a_s``: with ``N`` cards left (a fixed number), the
    ordered first two cards give

    * ``P(perfect)  = sum over ranks, suits s of  a_s (a_s - 1) / (N (N - 1))``,
    * ``P(coloured) = sum over ranks of 2 (a_h a_d + a_s a_c) / (N (N - 1))``,
    * ``P(mixed)    = sum over ranks of 2 (a_h + a_d) (a_s + a_c) / (N (N - 1))``,

    and the exact answer is their expectation over the unknown suits. Plugging
    in ``E[a_s] = k_s A / K`` is wrong, since ``E[a_s a_t] != E[a_s] E[a_t]``.
    Instead count ordered pairs of distinct *physical* cards: a given pair
    (of the ``K`` cards of the rank) is still in the shoe with probability
    ``f = A (A - 1) / (K (K - 1))``, whatever its suits. Hence

    * ``E[a_s (a_s - 1)] = k_s (k_s - 1) f``, and
    * ``E[a_s a_t] = k_s k_t f`` for ``s != t``,

    so each rank's pair counts are those of its known cards times its own
    ``f`` (ranks are independent: each unknown removal's rank is known).
    Example, one deck less one king of unknown suit: ``K = 4, A = 3, f = 1/2``;
    the kings' ordered coloured pairs ``2 (1 + 1) = 4`` become ``2``, which is
    right (whatever suit went, one colour keeps both its suits: 2 ordered
    pairs), while the plug-in ``a_s = 3/4`` would give ``4 (3/4)^2 = 9/4``.

    >>> shoe = PairShoe.full(1).remove(parse_pair_cards("K, Kh"))
    >>> shoe.cards_left, shoe.known[12], shoe.unknown[12]
    (50, (1, 0, 1, 1), 1)
    """

    def exact_probabilities(self) -> dict[str, Fraction]:
        """Exact probability of each outcome of :data:`PERFECT_OUTCOMES` for the
        first two cards dealt from this shoe (unknown suits averaged out exactly,
        as derived in the class docstring).

        >>> PairShoe.full(1).exact_probabilities()
        {'perfect': Fraction(0, 1), 'coloured': Fraction(1, 51), 'mixed': Fraction(2, 51), \
'no_pair': Fraction(16, 17)}
        """
        n = self.cards_left
        if n < 2:
            raise CardError(f"only {n} cards left: the pair bet needs 2")
        red = [SUITS.index(s) for s in RED_SUITS]
        black = [i for i in range(len(SUITS)) if i not in red]
        perfect = coloured = mixed = Fraction(0)
        for row, out in zip(self.known, self.unknown, strict=True):
            total = sum(row)
            if total < 2:
                continue  # at most one card of the rank: no pair
            left = total - out
            keep = Fraction(left * (left - 1), total * (total - 1))
            perfect += keep * sum(k * (k - 1) for k in row)
            coloured += keep * 2 * (row[red[0]] * row[red[1]] + row[black[0]] * row[black[1]])
            mixed += keep * 2 * sum(row[i] for i in red) * sum(row[i] for i in black)
        pairs = n * (n - 1)
        probabilities = {"perfect": perfect / pairs, "coloured": coloured / pairs,
                         "mixed": mixed / pairs}
        probabilities["no_pair"] = 1 - sum(probabilities.values(), Fraction(0))
        return probabilities


@dataclass(frozen=True, slots=True)
class PairOdds:
    """The exact odds of the pair side bet for one shoe, priced by the ruleset's table.

    Probabilities are of the player's first two cards; the EV is per unit side bet.
    """

    rules: BlackjackRules
    """The rules: ``pair_bet`` picks the table, the ``pair_pays_*`` fields price it."""
    shoe: PairShoe
    """The shoe the two cards are dealt from."""
    removed: tuple[str, ...]
    """The cards removed from the full shoe, as given (``5``, ``Kh``...)."""
    perfect: Fraction
    """Probability of a perfect pair (same rank and suit)."""
    coloured: Fraction
    """Probability of a coloured pair (same rank and colour, different suits)."""
    mixed: Fraction
    """Probability of a mixed pair (same rank, one red and one black card)."""

    @property
    def table(self) -> str:
        """``perfect`` (perfect-pairs table) or ``any`` (any-pair table)."""
        return self.rules.pair_bet

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcomes of the table: :data:`PERFECT_OUTCOMES` or :data:`ANY_OUTCOMES`."""
        return PERFECT_OUTCOMES if self.table == "perfect" else ANY_OUTCOMES

    def exact_probabilities(self) -> dict[str, Fraction]:
        """Exact probability of each outcome of the table (they sum to 1).

        >>> from strategy_calc.rules import blackjack_rules
        >>> analyse_pair(blackjack_rules("deluxe", ["pair_bet=any"])).exact_probabilities()
        {'pair': Fraction(31, 415), 'no_pair': Fraction(384, 415)}
        """
        no_pair = 1 - self.perfect - self.coloured - self.mixed
        if self.table == "perfect":
            return {"perfect": self.perfect, "coloured": self.coloured, "mixed": self.mixed,
                    "no_pair": no_pair}
        return {"pair": self.perfect + self.coloured + self.mixed, "no_pair": no_pair}

    @property
    def probabilities(self) -> dict[str, float]:
        """Probability of each outcome of the table (correctly rounded floats)."""
        return {k: float(v) for k, v in self.exact_probabilities().items()}

    def payouts(self) -> dict[str, Fraction]:
        """What each outcome of the table wins per unit bet (``no_pair``: -1, the bet lost).

        A ``pair_pays_*`` field is read as the nearest fraction with a
        denominator up to 10**6.

        >>> from strategy_calc.rules import blackjack_rules
        >>> analyse_pair(blackjack_rules("deluxe")).payouts()["perfect"]
        Fraction(25, 1)
        """
        r = self.rules
        fields = ({"perfect": r.pair_pays_perfect, "coloured": r.pair_pays_coloured,
                   "mixed": r.pair_pays_mixed} if self.table == "perfect"
                  else {"pair": r.pair_pays_any})
        pays = {k: Fraction(v).limit_denominator(10**6) for k, v in fields.items()}
        pays["no_pair"] = Fraction(-1)
        return pays

    def exact_ev(self) -> Fraction:
        """Exact EV of the side bet, per unit side bet.

        >>> from strategy_calc.rules import blackjack_rules
        >>> analyse_pair(blackjack_rules("deluxe", ["pair_bet=any"])).exact_ev()
        Fraction(-43, 415)
        """
        pays = self.payouts()
        return sum((p * pays[k] for k, p in self.exact_probabilities().items()), Fraction(0))

    @property
    def ev(self) -> float:
        """EV of the side bet per unit side bet (correctly rounded float)."""
        return float(self.exact_ev())


def analyse_pair(rules: BlackjackRules, removed: str | Iterable[str] = ()) -> PairOdds:
    """Exact odds of the pair side bet for a ``rules.decks``-deck shoe less ``removed``.

    ``removed``: cards such as ``"5,5,Kh,Qs"`` (a card without a suit is one of
    that rank, suit unknown) or an iterable of them. A ruleset without the bet
    (``pair_bet = "none"``) raises :class:`NoPairBetError`.

    >>> from strategy_calc.rules import BlackjackRules
    >>> odds = analyse_pair(BlackjackRules(decks=1, pair_bet="perfect"), "Kh,Kd")
    >>> odds.coloured, odds.mixed
    (Fraction(1, 49), Fraction(48, 1225))
    >>> analyse_pair(BlackjackRules(name="macau-1983"))
    Traceback (most recent call last):
    ...
    strategy_calc.blackjack.pair_bet.NoPairBetError: ruleset 'macau-1983' has no pair side bet \
(it is Deluxe's: --rules deluxe, or add --set pair_bet=perfect or --set pair_bet=any)
    """
    if rules.pair_bet == "none":
        raise NoPairBetError(f"ruleset {rules.name!r} has no pair side bet"
                             " (it is Deluxe's: --rules deluxe, or add --set pair_bet=perfect or"
                             " --set pair_bet=any)")
    cards = parse_pair_cards(removed)
    shoe = PairShoe.full(rules.finite_decks("the pair side bet")).remove(cards)
    p = shoe.exact_probabilities()
    return PairOdds(rules, shoe, tuple(str(c) for c in cards),
                    p["perfect"], p["coloured"], p["mixed"])
