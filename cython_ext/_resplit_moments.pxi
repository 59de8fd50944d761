# Resplit rounds' second moments: the sums strategy_calc.splits.combine_moments takes, per
# count of extra pair cards gone (resplit_moment_rows).
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

cdef enum:
    RESPLIT_WIDTH = 20  # floats in one row of resplit_moment_rows

RESPLIT_ROW_WIDTH = RESPLIT_WIDTH


cdef int pair_cross(Ctx* cb, Ctx* cs, const int* base, int n1, int p, const Params* P2,
                    const char* code_b, const Term* ta, int na, double bja1, double bja2,
                    double bjb1, double bjb2, Term* tb, int cap, double* mass, int k_lo,
                    int half, double* out) noexcept nogil:
    """``out[0] +=`` E[(r1 + 1)(r2 + 1)] over hand 1's ends ``ta[:na]`` and every end of hand
    2 played after it (if ``k_lo`` is 0); ``out[1] +=`` the part where hand 2's second card
    is a pair card (rank index ``p``). r1 settles with ``bja1``/``bja2`` (what a dealer
    blackjack takes from an undoubled / doubled hand), r2 with ``bjb1``/``bjb2``; peek:
    no-blackjack outcomes only. A plain bust (-1 whatever the dealer holds) adds nothing:
    its hand-2 pass and its look-ups are skipped. ``half`` (0 or 1, else -1): for that
    part the two hands play and settle alike and hand 1's ends carry the same filter, so
    the joint law is symmetric: each pair of distinct ends once, twice over (the order of
    ``cmp_term``). Returns -1 if hand 2 has too many ends."""
    cdef int i, j, o, r, k, nb, c
    cdef int removed[NR]
    cdef double u1[NOUT]
    cdef double d[NOUT]
    cdef double x, w
    for i in range(na):
        if plain_bust(&ta[i]):
            continue
        for o in range(NOUT):
            u1[o] = term_result(&ta[i], o, bja1, bja2) + 1.0
        hand_two_after(cb, base, &ta[i])
        for k in range(k_lo, 2):
            nb = propagate(cb, n1, 1.0, code_b, True, P2.double_ok, P2.das, P2.aces_one_card,
                           tb, cap, mass, p if k == 1 else -1)
            if nb < 0:
                return -1
            for j in range(nb):
                if plain_bust(&tb[j]):
                    continue
                w = 1.0
                if k == half:
                    c = cmp_term(&tb[j], &ta[i])
                    if c > 0:
                        continue
                    if c < 0:
                        w = 2.0
                for r in range(NR):
                    removed[r] = node_counts[ta[i].node][r] + (ta[i].extra == r) \
                        + node_counts[tb[j].node][r] + (tb[j].extra == r)
                counted_dealer(cs, removed, d)
                x = 0.0
                for o in range(NOUT):
                    if d[o] != 0.0 and u1[o] != 0.0:
                        x += d[o] * u1[o] * (term_result(&tb[j], o, bjb1, bjb2) + 1.0)
                out[k] += w * ta[i].mass * tb[j].mass * x
    return 0


cdef void marginal_sums(Ctx* cs, const Term* t, int n, int p, double bj1, double bj2,
                        double* out) noexcept nogil:
    """What E[(r + 1) 1{the other hand's second card ...}] takes when the other hand is
    summed out: ``out[0] +=`` sum_t P(t) <D(t + the other pair card), r + 1> (any second
    card: the other hand's ends add up to its pair card gone, by exchangeability);
    ``out[1] +=`` sum_t P(t) q(t) <D(t + two pair cards), r + 1>, q(t) the chance that the
    other hand's second card is a pair card once ``t`` and its pair card are gone."""
    cdef int i, o, r, left = 0, cards
    cdef int removed[NR]
    cdef double u[NOUT]
    cdef double d[NOUT]
    cdef double x, q
    for r in range(NR):
        left += cs.base[r]
    for i in range(n):
        if plain_bust(&t[i]):
            continue
        for o in range(NOUT):
            u[o] = term_result(&t[i], o, bj1, bj2) + 1.0
        end_removed(&t[i], p, removed)
        cards = node_ncards[t[i].node] + (1 if t[i].extra >= 0 else 0)
        for r in range(2):
            if r == 1 and cs.replace:  # (with replacement: the shoe's proportion, none gone)
                q = cs.base[p] / <double>left
            elif r == 1:
                q = (cs.base[p] - removed[p]) / <double>(left - cards - 1)
                if q <= 0.0:
                    break
                removed[p] += 1
            else:
                q = 1.0
            counted_dealer(cs, removed, d)
            x = 0.0
            for o in range(NOUT):
                x += d[o] * u[o]
            out[r] += t[i].mass * q * x


cdef double outcome_mass(Ctx* cs, int p, int pairs_gone) noexcept nogil:
    """<D, 1> with ``pairs_gone`` pair cards gone from the round's shoe: 1, or in peek the
    chance of no dealer blackjack."""
    cdef int o, r
    cdef int removed[NR]
    cdef double d[NOUT]
    cdef double x = 0.0
    for r in range(NR):
        removed[r] = pairs_gone if r == p else 0
    counted_dealer(cs, removed, d)
    for o in range(NOUT):
        x += d[o]
    return x


cdef int resplit_row(SplitRound* w, int p, const Params* P, const Params* P2,
                     const char* code_a, const char* code_b, bint alike, int cap,
                     double* row) noexcept nogil:
    """One row of :func:`resplit_moment_rows` from the round ``w`` (its shoe: the row's).
    Returns -1 if a hand has too many ends.

    Two hands' E[r1 r2 1{f1} 1{f2}] (f: the hand's second card a pair card, or any) by
    r1 r2 = (r1 + 1)(r2 + 1) - (r1 + 1) - (r2 + 1) + 1 against each dealer outcome: the
    first term over the pairs of ends that are not plain busts (:func:`pair_cross`); the
    second sums hand 2 out (:func:`marginal_sums`: its ends' dealer laws add up to its
    cards to come being unseen), the third hand 1 (hand 2 dealt first: the hands' and the
    dealer's cards are blocks of one exchangeable deal), the last is the chance of the two
    second cards times <D, 1> with them gone."""
    cdef int role, f, g, n, n1 = node_child[0][p], left = 0, r
    cdef double acc[4]
    cdef double S[2][2]
    cdef double A[2][2]
    cdef double B[2][2]
    cdef double bj1, bj2, npair, nall, chance
    cdef const char* code
    cdef const Params* Q
    memset(row, 0, RESPLIT_WIDTH * sizeof(double))
    # one hand: role 0 the first hand, 1 a later one; f 1: its second card a pair card
    for role in range(2):
        code = code_a if role == 0 else code_b
        Q = P if role == 0 else P2
        bj1 = w.ca.bjl1 if role == 0 else w.cb.bjl1
        bj2 = w.ca.bjl2 if role == 0 else w.cb.bjl2
        for f in range(2):
            n = propagate(&w.ca, n1, 1.0, code, True, Q.double_ok, Q.das, Q.aces_one_card,
                          w.ta, cap, w.mass, p if f == 1 else -1)
            if n < 0:
                return -1
            acc[0] = acc[1] = acc[2] = acc[3] = 0.0
            one_hand_moments(&w.cs, w.ta, n, p, bj1, bj2, acc)
            row[6 * role + 3 * f] = acc[0]
            row[6 * role + 3 * f + 1] = acc[1]
            row[6 * role + 3 * f + 2] = acc[2]
    for r in range(NR):
        left += w.cs.base[r]
    nall = left - 2
    npair = w.cs.base[p] - 2
    if w.cs.replace:  # (with replacement no card is gone: each second card is a pair card
        nall = left   # with the shoe's proportion, whatever was dealt)
        npair = w.cs.base[p]
    # two hands: role 0 the first and a later one, 1 two later ones
    for role in range(2):
        if role == 1 and alike:
            memcpy(&row[16], &row[12], 4 * sizeof(double))
            break
        code = code_a if role == 0 else code_b
        Q = P if role == 0 else P2
        bj1 = w.ca.bjl1 if role == 0 else w.cb.bjl1
        bj2 = w.ca.bjl2 if role == 0 else w.cb.bjl2
        memset(S, 0, sizeof(S))
        memset(A, 0, sizeof(A))
        memset(B, 0, sizeof(B))
        for f in range(2):
            n = propagate(&w.ca, n1, 1.0, code, True, Q.double_ok, Q.das, Q.aces_one_card,
                          w.ta, cap, w.mass, p if f == 1 else -1)
            if n < 0:
                return -1
            marginal_sums(&w.cs, w.ta, n, p, bj1, bj2, A[f])
            # hands alike: the joint law is symmetric, so S[1][0] = S[0][1] and S[f][f]
            # takes each pair of distinct ends once
            if pair_cross(&w.cb, &w.cs, w.cs.base, n1, p, P2, code_b, w.ta, n, bj1, bj2,
                          w.cb.bjl1, w.cb.bjl2, w.tb, cap, w.mass,
                          f if alike else 0, f if alike else -1, S[f]) != 0:
                return -1
        if alike:
            S[1][0] = S[0][1]
            for f in range(2):
                for g in range(2):
                    B[f][g] = A[g][f]
        for g in range(2 if not alike else 0):  # hand 2 dealt first
            n = propagate(&w.ca, n1, 1.0, code_b, True, P2.double_ok, P2.das,
                          P2.aces_one_card, w.ta, cap, w.mass, p if g == 1 else -1)
            if n < 0:
                return -1
            acc[0] = acc[1] = 0.0
            marginal_sums(&w.cs, w.ta, n, p, w.cb.bjl1, w.cb.bjl2, acc)
            B[0][g] += acc[0]
            B[1][g] += acc[1]
        for f in range(2):
            for g in range(2):
                chance = 1.0
                if f + g >= 1:
                    chance = npair / nall if nall > 0 else 0.0
                if f + g == 2 and w.cs.replace:
                    chance *= npair / nall
                elif f + g == 2:
                    chance *= (npair - 1) / (nall - 1) if nall > 1 else 0.0
                row[12 + 4 * role + 2 * f + g] = S[f][g] - A[f][g] - B[f][g] \
                    + (chance * outcome_mass(&w.cs, p, 2 + f + g) if chance > 0.0 else 0.0)
    return 0


def resplit_moment_rows(const int[:] base, int pair, int up, params, const char[:] codes,
                        int rows, second_params=None):
    """The sums a resplit round's exact moments take (``strategy_calc.splits``'
    ``combine_moments``), one row per count ``a`` = 0 .. ``rows`` - 1 of further pair cards
    gone from ``base`` (the shoe with both pair cards in it, up card gone); None for a row
    the shoe has too few pair cards for.

    The split hands play ``codes`` (per node: bit 1 double, 2 hit, 4 stand) or, if None,
    each its own best play for its cards, the up card and the pair with no further pair
    card gone, frozen (cdp1: the first hand the first hand's, every later hand the second
    hand's, which differ only in what an ENHC dealer blackjack takes). A row holds raw sums
    (E of a quantity times the indicator; peek: over the outcomes with no dealer
    blackjack), r a hand's net result against the dealer who draws from the shoe less
    every card shown:

    * [6 role + 3 f + q], role 0 the first hand, 1 a later one, f 1 where its second card
      is a pair card (0: any), q: r, r^2, r 1{dealer blackjack} of one hand (the other
      original pair card gone too);
    * [12 + 4 role + 2 f1 + f2], role 0 the first hand and a later one, 1 two later ones,
      f1 / f2 as f for each: E[r1 r2] of two hands dealt one after the other.

    Hands whose suits matter (split 6s, 7s, 8s under a suited bonus) are not taken. An
    infinite deck (``params.with_replacement``) draws every card with replacement from
    ``base``'s proportions: no card is gone, so every row is the same (``a`` counts
    nothing) and a second card is a pair card with chance base[pair] / sum(base).
    """
    cdef Params P, P2
    cdef SplitRound w
    cdef int a, r, p = pair - 1, cap = 20000, got = 0
    cdef int shoe[NR]
    cdef char* fa = NULL
    cdef char* fb = NULL
    cdef const char* code_a
    cdef const char* code_b
    cdef double row[RESPLIT_WIDTH]
    cdef bint alike
    read_split_round(base, pair, up, params, second_params, codes, &P, &P2, True)
    if rows < 1 or rows > 12:
        raise ValueError("rows is 1 to 12")
    out = []
    try:
        fa = <char*>calloc(n_nodes, sizeof(char))
        fb = <char*>calloc(n_nodes, sizeof(char))
        if fa == NULL or fb == NULL:
            raise MemoryError()
        if codes is None:  # the own-play decisions with no further pair card gone, frozen
            try:
                split_round_open(&w, None, &base[0], p, up, &P, &P2, 1, 1)
                with nogil:
                    freeze_own_play(&w.ca, &w.cb, p, &P, &P2, w.frozen_a, w.frozen_b)
                    memcpy(fa, w.frozen_a, n_nodes)
                    memcpy(fb, w.frozen_b, n_nodes)
                check_cards(&w.cs)
            finally:
                split_round_close(&w)
            code_a = fa
            code_b = fb
        else:
            code_a = &codes[0]
            code_b = &codes[0]
        for a in range(rows):
            if P.replace and a > 0:  # (with replacement no pair card is ever gone: every
                out.append(out[0])   # row is the first)
                continue
            if base[p] - a < 2 and not P.replace:
                out.append(None)
                continue
            for r in range(NR):
                shoe[r] = base[r] - (a if r == p and not P.replace else 0)
            try:
                split_round_open(&w, None, shoe, p, up, &P, &P2, cap, cap)
                with nogil:
                    alike = same_hands(&P, &P2, &w.ca, &w.cb, code_a, code_b)
                    got = resplit_row(&w, p, &P, &P2, code_a, code_b, alike, cap, row)
                check_cards(&w.cs)
            finally:
                split_round_close(&w)
            if got != 0:
                raise MemoryError("too many terminal hands")
            out.append(tuple(row[r] for r in range(RESPLIT_WIDTH)))
    finally:
        free(fa)
        free(fb)
    return out
