# The rules of play the engine applies, each written once: a hand's soft total, the
# dealer's draw and the outcome class his final hand makes. The tables (player nodes,
# dealer trees) and the play call these; a new rule of play changes the function here
# that applies it (and, for a new dealer outcome, its constants in _engine.pxd).
#
# Included into _engine.pyx before every file that uses them; the constants they read are
# declared once in _engine.pxd. (Python has its own: strategy_calc's hands and rules.)

cdef inline int best_total(int hard, bint has_ace) noexcept nogil:
    """The soft total: the ``hard`` total (aces 1) with an ace counting 11 when that does not
    bust. A hand is soft when this is not ``hard``."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


cdef inline bint dealer_draws(int hard, bint has_ace, bint h17) noexcept nogil:
    """The dealer's draw rule: he draws below DEALER_STANDS (17), and on a soft 17 when he
    hits soft 17 (``h17``)."""
    cdef int best = best_total(hard, has_ace)
    return best < DEALER_STANDS or (h17 and best == DEALER_STANDS and best != hard)


cdef inline int dealer_outcome(int hard, bint has_ace, int ncards, bint h17) noexcept nogil:
    """The outcome class of the dealer's hand of ``ncards`` cards (0..4 = 17..21, OUT_BUST,
    OUT_BJ), or -1 while he draws."""
    cdef int best = best_total(hard, has_ace)
    if ncards == 2 and best == 21:
        return OUT_BJ
    if hard > 21:
        return OUT_BUST
    if dealer_draws(hard, has_ace, h17):
        return -1
    return best - DEALER_STANDS
