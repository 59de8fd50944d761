# Baccarat enumeration, included into _engine.pyx (one compiled module).
#
# Exact counts of ordered 6-card deals (cards not needed by the round are
# counted as dealt, like the published totals), classified by final points and
# by the number of cards each side holds (what the side bets are settled on:
# naturals, three-card wins).
# The tableau works on points only (T, J, Q, K are all 0), so the main
# enumeration runs over 10 point classes; pair bets need the 13 ranks and have
# a closed form. Public entry point: baccarat_deal_counts.
#
# Ordering: the deal is P1, B1, P2, B2, then the player's and the banker's
# third cards. The number of ordered deals of given cards is a product of
# falling counts that does not depend on the order, so each side's two-card
# start is enumerated as a multiset {a <= b} with multiplicity 2 when a != b.
#
# Sizes: every grid cell is at most the number of ordered 6-card deals,
# n (n-1) ... (n-5) < n**6; with n <= _BAC_MAX_CARDS = 1300 that is below
# 4.9e18 < 2**63 - 1 (12 decks: 624 cards, 5.9e16), so int64 never overflows.

from libc.string cimport memset

cdef inline bint _bac_banker_draws(int banker, int third) noexcept nogil:
    """Banker's tableau; ``third`` is the point of the player's third card, -1 if he stood."""
    if banker <= 2:
        return True
    if banker >= 7:
        return False
    if third < 0:
        return banker <= 5
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    return third == 6 or third == 7


cdef inline void _bac_settle(long long* c, long long left, int player, int banker,
                             long long weight, long long* grid) noexcept nogil:
    """Add the deals that start with a given 4-card prefix (weight) to ``grid``.

    ``c`` holds the point counts left after the prefix, ``left`` their sum.
    Deals whose round uses fewer than 6 cards are multiplied by the ordered
    ways to fill the unused positions.
    """
    cdef int t, u, p3, b3
    cdef long long wt
    cdef long long* row
    if player >= 8 or banker >= 8 or (player >= 6 and banker >= 6):
        # naturals, or both stand on 6-7: two unused positions
        grid[player * _BAC_POINTS + banker] += weight * left * (left - 1)
        return
    if player >= 6:
        # player stands on 6-7, banker (0-5) draws: one unused position
        row = grid + 100 + player * _BAC_POINTS
        weight *= left - 1
        for u in range(_BAC_POINTS):
            b3 = banker + u
            if b3 >= 10:
                b3 -= 10
            row[b3] += weight * c[u]
        return
    # player (0-5) draws a third card
    for t in range(_BAC_POINTS):
        if c[t] == 0:
            continue
        wt = weight * c[t]
        p3 = player + t
        if p3 >= 10:
            p3 -= 10
        if _bac_banker_draws(banker, t):
            c[t] -= 1
            row = grid + 300 + p3 * _BAC_POINTS
            for u in range(_BAC_POINTS):
                b3 = banker + u
                if b3 >= 10:
                    b3 -= 10
                row[b3] += wt * c[u]
            c[t] += 1
        else:
            grid[200 + p3 * _BAC_POINTS + banker] += wt * (left - 1)


cdef inline void _bac_enumerate(long long* c, long long n, long long* grid) noexcept nogil:
    """Fill ``grid`` (zeroed, 200 cells) for the point counts ``c`` (sum ``n``).

    ``c`` is used as scratch space (make/unmake) and is restored on return.
    """
    cdef int p1, p2, b1, b2, player, banker
    cdef long long w1, w2, w3, w4
    for p1 in range(_BAC_POINTS):
        if c[p1] == 0:
            continue
        w1 = c[p1]
        c[p1] -= 1
        for p2 in range(p1, _BAC_POINTS):
            if c[p2] == 0:
                continue
            w2 = w1 * c[p2] * (1 if p1 == p2 else 2)
            c[p2] -= 1
            player = p1 + p2
            if player >= 10:
                player -= 10
            for b1 in range(_BAC_POINTS):
                if c[b1] == 0:
                    continue
                w3 = w2 * c[b1]
                c[b1] -= 1
                for b2 in range(b1, _BAC_POINTS):
                    if c[b2] == 0:
                        continue
                    w4 = w3 * c[b2] * (1 if b1 == b2 else 2)
                    c[b2] -= 1
                    banker = b1 + b2
                    if banker >= 10:
                        banker -= 10
                    _bac_settle(c, n - 4, player, banker, w4, grid)
                    c[b2] += 1
                c[b1] += 1
            c[p2] += 1
        c[p1] += 1


cdef inline long long _bac_falling(long long n, int k) noexcept nogil:
    """n (n-1) ... (n-k+1)."""
    cdef long long r = 1
    cdef int i
    for i in range(k):
        r *= n - i
    return r


def baccarat_deal_counts(counts):
    """Exact counts of ordered 6-card baccarat deals from a shoe.

    ``counts``: 13 non-negative integers, the cards left of each rank
    A, 2, ..., 9, T, J, Q, K (at least 6 and at most 1300 cards in all).

    Returns ``(deals, pairs, grid)``: ``deals`` is n (n-1) ... (n-5) for the n
    cards left; ``pairs`` the number of those deals whose Player's first two
    cards have the same rank (the Banker's count is the same, by symmetry);
    ``grid`` a tuple of 400 counts, ``grid[200 * j + 100 * k + 10 * p + b]``
    the deals that end with Player point ``p``, Banker point ``b``, the Player
    holding ``2 + j`` cards and the Banker ``2 + k``. Cards the round does not
    use are counted as dealt.
    """
    cdef long long c[_BAC_POINTS]
    cdef long long grid[_BAC_GRID]
    cdef long long n = 0, same = 0, x, deals, pairs
    cdef int i
    if len(counts) != _BAC_RANKS:
        raise _InputError(f"expected {_BAC_RANKS} rank counts, got {len(counts)}")
    memset(c, 0, sizeof(c))
    memset(grid, 0, sizeof(grid))
    for i in range(_BAC_RANKS):
        x = counts[i]
        if x < 0 or x > _BAC_MAX_CARDS:
            raise _InputError(f"rank count out of range: {x}")
        c[i + 1 if i < 9 else 0] += x
        n += x
        same += x * (x - 1)
    if n < 6 or n > _BAC_MAX_CARDS:
        raise _InputError(f"a baccarat shoe needs 6 to {_BAC_MAX_CARDS} cards, not {n}")
    with nogil:
        _bac_enumerate(c, n, grid)
        deals = _bac_falling(n, 6)
        pairs = same * _bac_falling(n - 2, 4)
    return deals, pairs, tuple([grid[i] for i in range(_BAC_GRID)])
