"""The rules of a blackjack game: one frozen value, one docstring per field, the rule
predicates spelled out once."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from strategy_calc.cards import INFINITE_DECK, RANK_SYMBOLS, CardError, Decks, check_decks
from strategy_calc.rules.bonus_hands import SUITED_ROW, BonusHand, check_table
from strategy_calc.rules.fields import RulesError, check_choices, payout_slug
from strategy_calc.rules.shoe import BurnStart, Shuffle, check_shoe_fields

if TYPE_CHECKING:
    pass


HoleCard = Literal["peek", "enhc"]


EnhcLoses = Literal["all", "original", "original_and_splits"]


DoubleOn = Literal["any", "9-11", "10-11", "11", "none"]


_DOUBLE_TOTALS: dict[str, tuple[int, int]] = {
    "any": (0, 21), "9-11": (9, 11), "10-11": (10, 11), "11": (11, 11), "none": (1, 0)}
"""The best two-card totals each ``double_on`` allows (low, high): :meth:`may_double`."""


Surrender = Literal["none", "late", "early", "not_vs_ace", "2-9", "late_vs_ten_ace"]


PairTable = Literal["none", "any", "perfect"]


@dataclass(frozen=True, slots=True)
class BlackjackRules:
    """The rules of one blackjack game; every field is a ruleset option.

    Payouts are multiples of the bet. ``str(rules)`` is a stable short slug.
    """

    name: str = "custom"
    """The ruleset's name (``macau-1983``, ``deluxe`` or the user's own)."""
    decks: Decks = 6
    """Number of 52-card decks in the shoe, 1 to 6250, or ``inf``: an infinite deck, every
    card (the dealer's and the player's) drawn with replacement, an ace and each of 2..9
    with chance 1/13, a ten-valued card 4/13, whatever was dealt before."""
    single_deck_one_round: bool = False
    """With one deck (Macau's "metal box"), exactly one round is dealt per shuffle, so
    every round is dealt off the top: a counted run deals no second round and has no
    cut card. No effect with more decks."""
    dealer_hits_soft_17: bool = False
    """True: dealer hits soft 17 (H17); False: stands on all 17s (S17)."""
    dealer_22_pushes: bool = False
    """True: when the dealer ends on exactly 22, every player hand still standing pushes
    (a live-game rule, Free Bet and Blackjack Switch's): a player blackjack still wins
    ``blackjack_pays``, a busted hand has already lost, a bonus paid at once stays paid;
    22 is then a dealer outcome of its own ("22"; "bust" is 23 or more). False: a 22 is a
    bust like any other."""
    hole_card: HoleCard = "peek"
    """``peek``: the dealer checks for blackjack before anyone plays and a
    blackjack ends the round at once; ``enhc``: no hole card is checked (European
    no-hole-card), the player acts without knowing."""
    enhc_loses: EnhcLoses = "all"
    """Under ``enhc``: a dealer blackjack takes every bet on the box (``all``:
    doubles and split bets too), only the original bet (``original``: the first split
    hand's stake, the hand of the pair card given first; the second hand's stake and
    every double are returned. With suits known the two hands can differ, so the order a
    suited pair is given in can change the split's EV: ``hand`` says so), or the original
    bet and the split bets (``original_and_splits``, Macau's Galaxy tables: every hand's
    own stake is lost, every double returned)."""
    blackjack_pays: float = 1.5
    """What a player blackjack wins, per unit bet."""
    double_on: DoubleOn = "any"
    """Which first two cards may be doubled: ``any``, totals ``9-11``,
    ``10-11``, ``11`` only (hard, as a two-card A+T is blackjack), or ``none``."""
    double_after_split: bool = True
    """Whether a split hand may be doubled (under the same ``double_on``)."""
    double_after_hit: bool = False
    """Doubling on any number of cards: a hand of three or more cards may double too (bet
    doubled, exactly one more card, then it stands), when its best total is one
    ``double_on`` allows (``any``: every total; ``9-11``: a hand of 9 to 11, soft or hard,
    as the two-card rule reads); split hands only where ``double_after_split`` lets them
    double. A 21 may be doubled where ``double_on`` allows 21 and it does not stand
    (``hand_of_21_stands``). False: only the first two cards (and a split hand's) may be
    doubled. Not with ``charlie_cards`` (a doubled Charlie is not modelled)."""
    hand_of_21_stands: bool = False
    """A hand that reaches 21 stands at once, split hands and a blackjack included: it
    is never doubled, nor (a blackjack) surrendered (Deluxe: "a hand reaching 21 stands
    automatically"). Off, a 21 is played on as any hand (never hit, as no card helps it):
    a split hand's two-card 21 (an ace and a ten, no blackjack) may then be doubled where
    ``double_after_split`` and ``double_on`` (``any``) allow 21, and optimal play doubles
    it where that is worth more (a shoe left rich in tens can make it so)."""
    max_split_hands: int = 2
    """Most hands a player may hold after splitting: 1 = no split, 2 = split once, up to 4."""
    resplit_aces: bool = False
    """Whether split aces may be split again (within ``max_split_hands``)."""
    split_aces_one_card: bool = True
    """Split aces get exactly one card each."""
    no_split_ranks: str = ""
    """Pairs that may not be split: ranks ``A``, ``2`` .. ``9``, ``T`` separated by commas
    (``A``: no splitting aces, as at SJM's tables; ``4,5,T``: no splitting fours, fives or
    ten-valued pairs, J-Q included); empty (or ``none``): every pair may be split as
    ``max_split_hands`` allows. ``10``, ``J``, ``Q``, ``K`` read as ``T``, and ``45T`` as
    ``4,5,T`` (for ``sweep --vary``, whose values are separated by commas); the value is
    kept in rank order. Such a pair is played as the unsplit hand it is, and a hand of another
    pair never resplits into one (a resplit needs a pair card of its own rank)."""
    charlie_cards: int = 0
    """A Charlie: a hand that reaches this many cards without busting wins its bet at once
    (even money; a doubled hand its doubled bet), split hands included; 0 = no Charlie,
    else 5 to 21 (five-card Charlie: 5). In a peek game the dealer's blackjack is settled
    first (a Charlie never meets one); under ENHC the Charlie is paid when it is made,
    before the dealer's second card, and a dealer blackjack found later does not take it
    (as the Macau bonuses: paid at once and settled)."""
    surrender: Surrender = "none"
    """``none``; ``late`` (lost whole to a dealer blackjack); ``early`` (half
    back even against a dealer blackjack); ``not_vs_ace`` (Macau: any up card but
    an ace, decided before the dealer draws, so early); ``2-9`` (Deluxe: only
    against 2-9, where the dealer cannot have blackjack); ``late_vs_ten_ace`` (late,
    only against a ten or an ace: the game of Wizard of Odds' effects-of-removal table,
    docs/REFERENCE.md)."""
    insurance: bool = True
    """Insurance (half the bet, pays 2:1) is offered against an ace."""
    even_money: bool = False
    """A player blackjack may take 1:1 at once against an ace."""
    even_money_vs_ten: bool = False
    """Even money is offered against a ten too (Macau's 1991 amendment)."""
    bonus_suited_678: float = 0.0
    """Payout (multiple of the bet) of a three-card suited 6-7-8; 0 = none."""
    bonus_777: float = 0.0
    """Payout (multiple of the bet) of a three-card 7-7-7; 0 = none."""
    bonus_on_split_hands: bool = True
    """Whether the 6-7-8 / 7-7-7 bonuses count on split hands."""
    bonus_settles_hand: bool = True
    """Macau 1983 Art. 9's bonus (the 6-7-8 / 7-7-7 above) is paid at once; the text does
    not say what then becomes of the hand. True: it is settled (not also played against
    the dealer). False, the other reading: the hand, paid, also plays on against the
    dealer as a 21 that stands (it wins against his 17 to 20 and a bust, pushes his 21,
    and his blackjack takes its bet as ``enhc_loses`` says; the bonus stays paid)."""
    bonus_hands: tuple[BonusHand, ...] = ()
    """The bonus table: hands paid at once, each a row of ranks (three or more cards),
    suited or any suits, the payout, whether the paid hand is settled (else it also
    stands against the dealer) and whether split hands count. TOML: an array of tables
    ``{cards = "7-7-7", pays = 5, suited = false, settles = true, split_hands = true}``
    (or of text rows); ``--set``: rows separated by ``;``, each ``[suited ]CARDS=PAYS
    [plays-on] [not-split]``, e.g. ``"suited 6-7-8=5; 6-7-8=2"``; empty: none. A hand is
    paid when its cards, as dealt, are exactly a row's ranks (never a doubled hand); a
    hand matching two rows gets the higher payout. ``bonus_suited_678`` and
    ``bonus_777`` (with ``bonus_on_split_hands`` and ``bonus_settles_hand``) are
    shorthands for two rows; a row may not repeat them. A suited row must be 6-7-8 (suits
    are tracked for 6, 7 and 8 only)."""
    pair_bet: PairTable = "none"
    """Pair side bet on the player's first two cards: ``none``; ``any`` (any
    same-rank pair pays ``pair_pays_any``); ``perfect`` (perfect pairs: mixed
    colours / same colour / same suit pay the three ``pair_pays_*`` below)."""
    pair_pays_any: float = 11.0
    """Any-pair table: payout of a same-rank pair (J-J yes, J-Q no)."""
    pair_pays_mixed: float = 6.0
    """Perfect-pairs table: same rank, one red and one black."""
    pair_pays_coloured: float = 12.0
    """Perfect-pairs table: same rank and colour, different suits."""
    pair_pays_perfect: float = 25.0
    """Perfect-pairs table: same rank and suit."""
    shuffle: Shuffle = "cut_card"
    """How the shoe is shuffled: ``cut_card`` (a shoe dealt to a cut card, then shuffled
    anew) or ``continuous`` (a continuous shuffler: each round's cards go into a buffer
    of ``continuous_buffer_cards`` cards that returns to the machine when full). Counted
    runs (``count``) deal it; a single round's EV does not depend on it (docs/MODEL.md,
    "The shoe procedure")."""
    cut_card_from_end: tuple[int, ...] = ()
    """Where the cut card goes: a range ``[LOW, HIGH]`` of cards from the end (cards
    behind it), drawn uniformly for each shoe; it comes out with the last card in front
    of it. ``[]``: not stated (``count`` deals 75% of the shoe, ``--penetration``)."""
    burn_start: BurnStart = 0
    """Cards burnt face down (unseen) before a shoe's first round, or ``decks``: as many
    cards as the shoe has decks."""
    burn_per_round: int = 0
    """Cards burnt face down (unseen) before every round."""
    burn_shown_card: bool = False
    """Before a shoe, the first card is shown (seen) and as many cards as its value (ace
    1, tens and faces 10) are burnt face down (unseen)."""
    burn_before_dealer_cards: bool = False
    """A card is burnt face down (unseen) before the dealer's second card, and one more
    after it when the dealer must draw (Macau 1983 Art. 2, a shoe game)."""
    rounds_after_cut_card: int = 0
    """Rounds dealt after the round in which the cut card comes out: 0 (that round is the
    shoe's last) or 1 (one more round)."""
    continuous_buffer_cards: int = 0
    """Under ``shuffle = "continuous"``: the buffer's size in cards; the round's cards
    wait there, seen and out of play, until it holds at least this many, then all of
    them go back into the machine (0: every round's cards go back at once)."""

    def __post_init__(self) -> None:
        check_choices(self)
        try:
            if self.decks != INFINITE_DECK:
                check_decks(self.decks)
        except CardError as exc:
            raise RulesError(str(exc)) from None
        object.__setattr__(self, "no_split_ranks", _rank_list(self.no_split_ranks))
        if self.charlie_cards != 0 and not 5 <= self.charlie_cards <= 21:
            raise RulesError(f"charlie_cards must be 0 (no Charlie) or 5 to 21, not"
                             f" {self.charlie_cards}")
        if self.double_after_hit and self.charlie_cards:
            raise RulesError("double_after_hit cannot be combined with charlie_cards (a"
                             " Charlie made by a double is not modelled)")
        if not 1 <= self.max_split_hands <= 4:
            raise RulesError(f"max_split_hands must be 1 to 4, not {self.max_split_hands}")
        for field in ("blackjack_pays", "bonus_suited_678", "bonus_777", "pair_pays_any",
                      "pair_pays_mixed", "pair_pays_coloured", "pair_pays_perfect"):
            value = getattr(self, field)
            if not math.isfinite(value) or value < 0:
                raise RulesError(f"{field} must be a finite number >= 0, not {value}")
        check_shoe_fields(self)
        object.__setattr__(self, "bonus_hands", tuple(self.bonus_hands))
        if not all(isinstance(row, BonusHand) for row in self.bonus_hands):
            raise RulesError("bonus_hands holds BonusHand rows")
        table = self.bonus_table  # (a row repeating a shorthand: refused here, once)
        if self.charlie_cards and any(len(r.ranks) >= self.charlie_cards for r in table):
            raise RulesError(f"a bonus hand of {self.charlie_cards} or more cards is a"
                             " Charlie first: not with charlie_cards (a hand cannot be both)")

    @property
    def infinite_deck(self) -> bool:
        """True for an infinite deck (``decks = "inf"``): every card drawn with replacement."""
        return self.decks == INFINITE_DECK

    def finite_decks(self, what: str) -> int:
        """The shoe's decks, for ``what`` (an analysis that deals, counts or removes real
        cards); an error for an infinite deck, which has no cards to deal or count.

        >>> BlackjackRules(decks=8).finite_decks("count")
        8
        >>> BlackjackRules(decks="inf").finite_decks("count")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        strategy_calc.rules.RulesError: count needs a shoe of whole decks, not an ...
        """
        if isinstance(self.decks, int):
            return self.decks
        raise RulesError(f"{what} needs a shoe of whole decks, not an infinite deck"
                         " (decks = inf)")

    @property
    def peek(self) -> bool:
        """True when the dealer checks for blackjack before the players act."""
        return self.hole_card == "peek"

    @property
    def has_bonus(self) -> bool:
        """True when some hand is paid a bonus (:attr:`bonus_table` is not empty)."""
        return self.bonus_suited_678 > 0 or self.bonus_777 > 0 or bool(self.bonus_hands)

    @property
    def bonus_table(self) -> tuple[BonusHand, ...]:
        """Every bonus row: the shorthands' (a suited 6-7-8, a 7-7-7) and ``bonus_hands``.

        >>> [str(r) for r in BlackjackRules(bonus_777=3.0, bonus_on_split_hands=False).bonus_table]
        ['7-7-7=3 not-split']
        """
        return _bonus_table(self.bonus_suited_678, self.bonus_777, self.bonus_on_split_hands,
                            self.bonus_settles_hand, self.bonus_hands)

    def suited_678(self, split: bool = False) -> tuple[float, bool]:
        """(payout, settles) of the suited 6-7-8 row for a hand (``split``: a split hand);
        payout 0 when no suited row pays it.

        >>> from strategy_calc.rules.bonus_hands import parse_bonus_hands
        >>> BlackjackRules(bonus_hands=parse_bonus_hands("suited 6-7-8=5 plays-on", True)
        ...                ).suited_678()
        (5.0, False)
        """
        rows = self.bonus_rows(split, suited=True)
        return (rows[0].pays, rows[0].settles) if rows else (0.0, True)

    def any_suit_row(self, ranks: Sequence[int], split: bool = False) -> BonusHand | None:
        """The row of any suits that pays a hand of ``ranks`` (``split``: a split hand), or
        None (at most one: a multiset has one row of any suits).

        >>> str(BlackjackRules(bonus_777=3.0).any_suit_row([7, 7, 7]))
        '7-7-7=3'
        """
        key = tuple(sorted(ranks))
        return next((row for row in self.bonus_rows(split) if row.ranks == key), None)

    def bonus_rows(self, split: bool = False, suited: bool = False) -> tuple[BonusHand, ...]:
        """The rows that pay a hand (``split``: a split hand) of any suits (``suited``
        false) or, with ``suited``, its suited rows."""
        return tuple(r for r in self.bonus_table
                     if r.suited == suited and (r.split_hands or not split))

    # ---- rule predicates: the one place each rule's meaning is spelled out

    def may_double(self, total: int) -> bool:
        """Whether a first-two-card hand of best total ``total`` may be doubled.

        >>> BlackjackRules(double_on="9-11").may_double(9)
        True
        >>> BlackjackRules(double_on="11").may_double(10)
        False
        """
        if total == 21 and self.hand_of_21_stands:
            return False
        low, high = _DOUBLE_TOTALS[self.double_on]
        return low <= total <= high

    def may_double_hand(self, cards: int, total: int, split: bool = False) -> bool:
        """Whether a hand of ``cards`` cards and best total ``total`` may double (``split``:
        it is a split hand, not of one-card aces): its first two cards by ``double_on``
        (and ``double_after_split``), three or more also by ``double_after_hit``.

        >>> rules = BlackjackRules(double_on="9-11", double_after_hit=True)
        >>> rules.may_double_hand(3, 10), rules.may_double_hand(3, 12)
        (True, False)
        >>> BlackjackRules().may_double_hand(3, 10)
        False
        """
        if split and not self.double_after_split:
            return False
        if cards > 2 and not self.double_after_hit:
            return False
        return cards >= 2 and self.may_double(total)

    def may_surrender(self, up: int) -> bool:
        """Whether a two-card initial hand may surrender against up card ``up`` (1..10).

        >>> BlackjackRules(surrender="2-9").may_surrender(10)
        False
        >>> BlackjackRules(surrender="not_vs_ace").may_surrender(10)
        True
        >>> [BlackjackRules(surrender="late_vs_ten_ace").may_surrender(up) for up in (1, 9, 10)]
        [True, False, True]
        """
        if self.surrender == "none":
            return False
        if self.surrender == "not_vs_ace":
            return up != 1
        if self.surrender == "2-9":
            return 2 <= up <= 9
        if self.surrender == "late_vs_ten_ace":
            return up in (1, 10)
        return True

    def offers_insurance(self, up: int) -> bool:
        """Whether insurance is offered against up card ``up`` (1..10): against an ace.

        >>> BlackjackRules().offers_insurance(1), BlackjackRules().offers_insurance(10)
        (True, False)
        """
        return self.insurance and up == 1

    def offers_even_money(self, up: int) -> bool:
        """Whether a player blackjack may take 1:1 at once against up card ``up`` (1..10).

        >>> macau = BlackjackRules(even_money=True, even_money_vs_ten=True)
        >>> macau.offers_even_money(10), BlackjackRules(even_money=True).offers_even_money(10)
        (True, False)
        """
        return self.even_money and (up == 1 or (up == 10 and self.even_money_vs_ten))

    @property
    def surrender_loses_to_blackjack(self) -> bool:
        """Late surrender: decided after the peek, so a dealer blackjack takes the whole bet;
        every other kind gives half the bet back regardless."""
        return self.surrender in ("late", "late_vs_ten_ace")

    def dealer_blackjack_takes(self, second_split_hand: bool = False) -> tuple[float, float]:
        """What an ENHC dealer blackjack takes from a standing hand: (on a bet of 1, doubled).

        Under ``enhc_loses = "original"`` only the original bet (the first
        hand's stake) is lost; a second split hand and every double are returned. Under
        ``"original_and_splits"`` every hand's own stake is lost and every double returned.

        >>> BlackjackRules(enhc_loses="original").dealer_blackjack_takes(second_split_hand=True)
        (0.0, 0.0)
        >>> BlackjackRules(enhc_loses="original_and_splits").dealer_blackjack_takes(True)
        (1.0, 1.0)
        """
        if self.enhc_loses == "all":
            return 1.0, 2.0
        if self.enhc_loses == "original_and_splits":
            return 1.0, 1.0
        return (0.0, 0.0) if second_split_hand else (1.0, 1.0)

    def may_split(self, rank: int) -> bool:
        """Whether a pair of ``rank`` (1..10) may be split: ``max_split_hands`` allows a
        split and ``no_split_ranks`` does not name the rank.

        >>> rules = BlackjackRules(no_split_ranks="t,4,5")
        >>> rules.no_split_ranks, [rules.may_split(r) for r in (1, 4, 8, 10)]
        ('4,5,T', [True, False, True, False])
        """
        if self.max_split_hands < 2:
            return False
        return RANK_SYMBOLS[rank - 1] not in self.no_split_ranks.split(",")

    def is_charlie(self, cards: int) -> bool:
        """Whether a hand of ``cards`` cards that has not bust is a Charlie (wins at once).

        >>> [BlackjackRules(charlie_cards=5).is_charlie(n) for n in (4, 5)]
        [False, True]
        >>> BlackjackRules().is_charlie(9)
        False
        """
        return self.charlie_cards > 0 and cards >= self.charlie_cards

    def split_aces_take_one_card(self, pair_is_ace: bool) -> bool:
        """Whether each hand of this split takes exactly one card (split aces)."""
        return pair_is_ace and self.split_aces_one_card

    def split_hands_may_double(self, pair_is_ace: bool) -> bool:
        """Double after split, for this pair: never on one-card split aces."""
        return self.double_after_split and not self.split_aces_take_one_card(pair_is_ace)

    def __str__(self) -> str:
        parts = [
            f"{self.decks}D",
            "H17" if self.dealer_hits_soft_17 else "S17",
            *(["22-push"] if self.dealer_22_pushes else []),
            "peek" if self.peek else f"ENHC-{self.enhc_loses}",
            payout_slug(self.blackjack_pays),
            {"any": "DA", "none": "ND"}.get(self.double_on, "D" + self.double_on),
            "DAS" if self.double_after_split else "NDAS",
            *(["DAH"] if self.double_after_hit else []),
            f"split-{self.max_split_hands}" + ("-RSA" if self.resplit_aces else ""),
        ]
        surrender = {"none": "", "late": "LS", "early": "ES", "not_vs_ace": "ES-not-A",
                     "2-9": "LS-2-9", "late_vs_ten_ace": "LS-T-A"}[self.surrender]
        if surrender:
            parts.append(surrender)
        if self.charlie_cards:
            parts.append(f"charlie-{self.charlie_cards}")
        if self.no_split_ranks:
            parts.append("no-split-" + self.no_split_ranks.replace(",", ""))
        if self.bonus_suited_678 > 0 or self.bonus_777 > 0:
            parts.append(f"bonus-{self.bonus_suited_678:g}/{self.bonus_777:g}"
                         + ("" if self.bonus_settles_hand else "-plays-on"))
        if self.bonus_hands:
            parts.append("bonus[" + ",".join(str(r).replace(" ", "-")
                                             for r in self.bonus_hands) + "]")
        return f"{self.name}: " + " ".join(parts)


@functools.lru_cache(maxsize=64)
def _bonus_table(b678: float, b777: float, on_split: bool, settles: bool,
                 rows: tuple[BonusHand, ...]) -> tuple[BonusHand, ...]:
    """:attr:`BlackjackRules.bonus_table`, once per distinct table."""
    table = ([BonusHand(SUITED_ROW, b678, True, settles, on_split)] if b678 > 0 else []) + (
        [BonusHand((7, 7, 7), b777, False, settles, on_split)] if b777 > 0 else [])
    try:
        check_table(table + list(rows))
    except RulesError as exc:
        raise RulesError(f"{exc} (bonus_suited_678 and bonus_777 are rows of the table:"
                         " give each hand once)") from None
    return tuple(table) + rows


def _rank_list(text: str) -> str:
    """``no_split_ranks`` as kept: its ranks in rank order, comma separated, each once
    (given separated by commas or spaces, or run together: ``45T``, as ``sweep --vary``
    takes it).

    >>> _rank_list(" k, a ,10"), _rank_list("45t"), _rank_list("none"), _rank_list("")
    ('A,T', '4,5,T', '', '')
    """
    if not isinstance(text, str):
        raise RulesError(f"no_split_ranks is text such as \"A\" or \"4,5,T\", not {text!r}")
    words = text.replace(",", " ").upper().split()
    if words in ([], ["NONE"]):
        return ""
    ranks = set()
    for word in words:
        for symbol in [word] if word == "10" else list(word):
            symbol = "T" if symbol in ("10", "J", "Q", "K") else symbol
            if symbol not in RANK_SYMBOLS:
                raise RulesError(f"invalid value {text!r} for no_split_ranks (ranks A, 2 to"
                                 " 9, T, as \"A\", \"4,5,T\" or \"45T\"; empty or none:"
                                 " every pair may be split)")
            ranks.add(RANK_SYMBOLS.index(symbol))
    return ",".join(RANK_SYMBOLS[i] for i in sorted(ranks))


def inert_overrides(rules: BlackjackRules, overrides: Sequence[str]) -> list[str]:
    """Warnings for ``--set`` fields that change nothing under the resulting rules.

    >>> from strategy_calc.rules import blackjack_rules
    >>> inert_overrides(blackjack_rules("deluxe"), ["enhc_loses=all"])
    ['enhc_loses has no effect in a peek game (hole_card = "peek")']
    """
    set_fields = {item.partition("=")[0].strip() for item in overrides}
    no_shorthand = rules.bonus_suited_678 <= 0 and rules.bonus_777 <= 0  # (bonus_hands: own flags)
    reasons = {
        "enhc_loses": (rules.peek, 'in a peek game (hole_card = "peek")'),
        "resplit_aces": (rules.max_split_hands <= 2, "when max_split_hands <= 2 (no resplit)"),
        "split_aces_one_card": (rules.max_split_hands < 2, "when max_split_hands = 1 (no split)"),
        "no_split_ranks": (rules.max_split_hands < 2, "when max_split_hands = 1 (no split)"),
        "double_after_split": (rules.max_split_hands < 2 or rules.double_on == "none",
                               "without splits or doubles (max_split_hands = 1 or"
                               ' double_on = "none")'),
        "bonus_on_split_hands": (no_shorthand, "without a bonus (both bonuses are 0)"),
        "bonus_settles_hand": (no_shorthand, "without a bonus (both bonuses are 0)"),
        "even_money_vs_ten": (not rules.even_money, "when even_money = false"),
        "single_deck_one_round": (rules.decks != 1, "with more than one deck"),
    }
    return [f"{field} has no effect {why}" for field, (inert, why) in reasons.items()
            if field in set_fields and inert]


def double_allowed_totals(rules: BlackjackRules) -> tuple[int, ...]:
    """22 flags: entry ``t`` is 1 when a first-two-card best total ``t`` may be doubled.

    >>> [t for t, ok in enumerate(double_allowed_totals(BlackjackRules(double_on="10-11"))) if ok]
    [10, 11]
    """
    return tuple(1 if rules.may_double(t) else 0 for t in range(22))
