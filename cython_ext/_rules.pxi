# The rules of play the engine applies, each written once: a hand's soft total, the
# dealer's draw, the outcome class his final hand makes and the hole card that gives him
# a blackjack, and the settlement of a standing hand against the dealer's outcomes. The
# tables (player nodes, dealer trees), the play, the distributions and the optimal split
# call these; a new rule of play changes the function here that applies it (and, for a
# new dealer outcome, its constants in _engine.pxd).
#
# Included into _engine.pyx before every file that uses them; the constants they read are
# declared once in _engine.pxd. (Python has its own, once too:
# strategy_calc/blackjack/hand_rules.py.)

cdef inline int best_total(int hard, bint has_ace) noexcept nogil:
    """The soft total: the ``hard`` total (aces 1) with an ace counting 11 when that does not
    bust. A hand is soft when this is not ``hard``."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


cdef inline bint dealer_draws(int hard, bint has_ace, bint h17) noexcept nogil:
    """The dealer's draw rule: he draws below DEALER_STANDS (17), and on a soft 17 when he
    hits soft 17 (``h17``)."""
    cdef int best = best_total(hard, has_ace)
    return best < DEALER_STANDS or (h17 and best == DEALER_STANDS and best != hard)


cdef inline int dealer_outcome(int hard, bint has_ace, int ncards, int drule) noexcept nogil:
    """The outcome class of the dealer's hand of ``ncards`` cards (0..4 = 17..21, OUT_BUST,
    OUT_BJ, OUT_22), or -1 while he draws, under the dealer rule ``drule`` (DEALER_H17: he
    hits soft 17; DEALER_22: a hand he ends on exactly 22 is OUT_22, which every standing
    hand pushes, :func:`stand_result`, not a bust)."""
    cdef int best = best_total(hard, has_ace)
    if ncards == 2 and best == 21:
        return OUT_BJ
    if hard == 22 and drule & DEALER_22:
        return OUT_22
    if hard > 21:
        return OUT_BUST
    if dealer_draws(hard, has_ace, drule & DEALER_H17):
        return -1
    return best - DEALER_STANDS


cdef inline int blackjack_hole(int up) noexcept nogil:
    """The rank index of the hole card that gives the dealer a blackjack under up card
    ``up`` (1..10): a ten-valued card under an ace, an ace under a ten; -1 under any other
    up card (no blackjack to peek for)."""
    if up == 1:
        return NR - 1
    if up == 10:
        return 0
    return -1


cdef inline bint charlie_hand(int ncards, int charlie) noexcept nogil:
    """A Charlie: a hand of ``ncards`` cards that has not bust wins its bet at once when the
    rules' ``charlie`` (charlie_cards) is set and it holds that many cards (settled like a
    bonus: in a peek game only when the dealer has no blackjack; under ENHC before his
    second card, so his blackjack does not take it)."""
    return charlie > 0 and ncards >= charlie


cdef inline bint doubles_after_hit(int ncards, bint dah, bint total_ok) noexcept nogil:
    """Double after hit (double_after_hit): a hand of three or more cards may double (bet 2,
    one card, stand) when the rules' ``dah`` allows it for this hand (split hands: only
    where double_after_split does) and its best total is one ``double_on`` allows
    (``total_ok``). The two-card double is decided where it always was."""
    return dah and ncards >= 3 and total_ok


# ------------------------------------------------------------ a standing hand's settlement
cdef inline int stand_result(int total, int outcome) noexcept nogil:
    """What standing on ``total`` does against the dealer's ``outcome`` (0..4 = 17..21,
    OUT_BUST, or OUT_22; a dealer blackjack takes an amount of its own,
    :func:`blackjack_loss`): 1 the bet wins, 0 it pushes, -1 it loses. A dealer who ends on
    22 where it is an outcome of its own (dealer_22_pushes) pushes every standing hand (a
    player blackjack and the bonuses are paid before, a busted hand has lost)."""
    cdef int dealer
    if outcome == OUT_BUST:
        return 1
    if outcome == OUT_22:
        return 0
    dealer = DEALER_STANDS + outcome
    return 1 if total > dealer else (0 if total == dealer else -1)


cdef inline double blackjack_loss(double bet, double loss1, double loss2) noexcept nogil:
    """What a dealer blackjack (ENHC: no hole card checked) takes from a standing ``bet``:
    ``loss1`` from the original bet, ``loss2`` from a doubled one."""
    return loss2 if bet > 1.0 else loss1


cdef inline double add_signed(double acc, int sign, double p) noexcept nogil:
    """``acc`` plus ``sign`` (1, 0, -1) times ``p``: a push adds nothing."""
    if sign > 0:
        return acc + p
    if sign < 0:
        return acc - p
    return acc


cdef inline double stand_net(int total, const double* d) noexcept nogil:
    """The net result, per unit bet, of standing on ``total`` against the dealer's
    distribution ``d`` (NOUT outcomes) but his blackjack: sum_o d[o] stand_result(total, o),
    summed bust first, then 17..21, then 22 (the order every stand value is made in; 22
    pushes, so adds nothing)."""
    cdef double sn = stand_result(total, OUT_BUST) * d[OUT_BUST]
    cdef int o
    for o in range(OUT_BUST):
        sn = add_signed(sn, stand_result(total, o), d[o])
    return add_signed(sn, stand_result(total, OUT_22), d[OUT_22])


cdef inline int stand_class(int total) noexcept nogil:
    """The class a standing ``total`` settles as (NCLS of them): 0 below the dealer's lowest
    final total (each of his totals beats it), else 1 + the outcome of that dealer total
    (1..5: 17..21)."""
    return 0 if total < DEALER_STANDS else total - DEALER_STANDS + 1


cdef inline void class_nets(const double* d, double* v) noexcept nogil:
    """``v[c]``: :func:`stand_net` of a total of class ``c`` (:func:`stand_class`), every
    class at once. Class 0's is stand_net's sum; each class above adds to the one below
    the outcomes (his blackjack aside) against which one total more does better (his total
    equal to it turns from a loss into a push, the one below from a push into a win), the
    highest outcome first: the doubles the optimal split has always settled with (summed
    afresh a class at a time, some would differ in the last bit)."""
    cdef double sn = stand_net(DEALER_STANDS - 1, d)
    cdef double step
    cdef int c, o, t, better
    v[0] = sn
    for c in range(1, NCLS):
        t = DEALER_STANDS - 1 + c
        step = 0.0
        for o in range(OUT_BJ - 1, -1, -1):
            better = stand_result(t, o) - stand_result(t - 1, o)
            if better != 0:
                step += better * d[o]
        sn += step
        v[c] = sn


cdef inline double stand_settlement(int mode, double bet, double net, double pbj,
                                    double loss1, double loss2) noexcept nogil:
    """The value of ``bet`` standing, in the conditioning ``mode`` (see the module
    docstring): ``net`` its net result per unit against the dealer's outcomes but his
    blackjack (:func:`stand_net`, or a sum of such over several bets), ``pbj`` P(dealer
    blackjack), ``loss1`` / ``loss2`` what his blackjack takes from an original / a doubled
    bet (ENHC, :func:`blackjack_loss`; several bets: their sum twice, with ``bet`` 1).
    ENHC: the plain expectation; peek exact: E[result 1{no dealer blackjack}]; the peek
    shortcut: given no dealer blackjack."""
    if mode == 0:
        return bet * net - blackjack_loss(bet, loss1, loss2) * pbj
    if mode == 1:
        return bet * net
    return bet * net / (1.0 - pbj)


# ------------------------------------------------------------------------ exact ties
cdef inline bint beats(double alt, double keep) noexcept nogil:
    """The one rule for exact ties: the play worth ``alt`` is taken over the one worth
    ``keep`` only when it is worth more by more than TIE_ULPS units in the last place of 1
    (TIE_ULPS x 2**-52 = 1.4e-14 of the bet). Within that the two tie, and the play
    compared as ``keep`` is taken: every caller passes the calmer play there (stand before
    hit, hit or stand before double, any play before surrender or a split), so an exact
    tie stands, as the rules text of docs/MODEL.md ("Exact ties") says. The values are
    sums of at most a few thousand terms of magnitude 1 or less, so two equal values
    differ in floating point by a few ulps of 1 at most; a real difference on the small
    shoes where ties occur is a rational with a denominator dividing the falling
    factorial of the cards left (times the payouts' denominators), far above the
    tolerance."""
    return alt - keep > TIE_ULPS * 2.220446049250313e-16
