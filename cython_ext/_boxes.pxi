# Several boxes in one round: each box's moments and the cross moment of two boxes
# (box_pair_moments).
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd. Built
# from the split round's pieces (propagate, split_contexts, UnionSum, union_sums); it
# changes none of them.

cdef int box_unit(UnionSum* R, UnionSum* Q, const int* cards, double w, const double* r,
                  bint peek, const double* fall_b, const double* inv_fall_n) noexcept nogil:
    """Add one hand's end (its box's start and draws: ``cards``, probability ``w``, net
    result ``r`` per dealer outcome) to the sums per set of cards: ``R`` gets orders *
    r, ``Q`` (if not NULL) orders * r^2, where orders = w / F(cards) is the number of
    draw orders that lead to this end (F: the chance of one given order of ``cards``;
    peek: the blackjack entry 0). Returns -1 if out of memory."""
    cdef unsigned char u[NR]
    cdef int q, k
    cdef double f, x
    cdef double* row
    for q in range(NR):
        u[q] = <unsigned char>cards[q]
    f = drawn_chance(u, -1, fall_b, inv_fall_n, &k)
    if f == 0.0 or w == 0.0:
        return 0
    x = w / f
    row = usum_row(R, cards)
    if row == NULL:
        return -1
    for k in range(NOUT):
        if not (peek and k == OUT_BJ):
            row[k] += x * r[k]
    if Q != NULL:
        row = usum_row(Q, cards)
        if row == NULL:
            return -1
        for k in range(NOUT):
            if not (peek and k == OUT_BJ):
                row[k] += x * r[k] * r[k]
    return 0


cdef int box_terms(UnionSum* R, UnionSum* Q, const Term* t, int n, double w, int other,
                   double bjl1, double bjl2, bint peek, const double* fall_b,
                   const double* inv_fall_n) noexcept nogil:
    """:func:`box_unit` for every end ``t[:n]`` (probability ``w`` times its mass), the
    card ``other`` (rank index, -1: none) gone with it (a split hand's sibling pair card)."""
    cdef int i, o
    cdef int removed[NR]
    cdef double r[NOUT]
    for i in range(n):
        end_removed(&t[i], other, removed)
        for o in range(NOUT):
            r[o] = term_result(&t[i], o, bjl1, bjl2)
        if box_unit(R, Q, removed, w * t[i].mass, r, peek, fall_b, inv_fall_n) != 0:
            return -1
    return 0


cdef double box_table_sum(UnionSum* u, const int* base, int up, int drule,
                          double* lanes) except? -1.0:
    """sum over the sets of cards c in ``u`` of F(c) <D(c), u's row of c>, D(c) the
    dealer's law from ``base`` less c (:func:`union_sums`, p = -1)."""
    cdef int kmax[NR]
    cdef int nmax = 0, i, r, tot
    cdef double S = 0.0
    for r in range(NR):
        kmax[r] = 0
    for i in range(u.n):
        tot = 0
        for r in range(NR):
            tot += u.cards[i * NR + r]
            if u.cards[i * NR + r] > kmax[r]:
                kmax[r] = u.cards[i * NR + r]
        if tot > nmax:
            nmax = tot
    if nmax > UMAX:
        raise MemoryError("two boxes hold more cards than the factor tables")
    if u.n == 0:
        return 0.0
    if union_sums(u.cards, u.n, NULL, NULL, u.h, kmax, nmax, -1, base, up, drule, lanes,
                  &S) != 0:
        raise MemoryError()
    return S


cdef double blackjack_chance(const int* shoe, int up) noexcept nogil:
    """P(the dealer's next card completes a blackjack with ``up``) from ``shoe``."""
    cdef int r, n = 0, hole = blackjack_hole(up)
    for r in range(NR):
        n += shoe[r]
    if n <= 0 or hole < 0:
        return 0.0
    return <double>shoe[hole] / n


def box_pair_moments(const int[:] base, int up, params, const char[:] actions,
                     const char[:] codes, split_codes, split_params, double blackjack_pays,
                     double surrender_blackjack_loss):
    """``(E[X1], E[X1^2] less the split starts' part, E[X1 X2], E[X1 1{dealer
    blackjack}])`` for two boxes dealt off
    ``base`` (the shoe with the up card ``up`` gone), per unit bet a box, given the up
    card, raw over every dealer outcome (peek: the dealer-blackjack rounds included,
    where a natural pushes and every other box loses 1).

    Each box plays a fixed strategy that sees its own cards and the up card only:
    ``actions[10 a + b]`` (rank indexes a <= b) is its two-card play, 0 stand, 1 hit, 2
    double, 3 split, 4 surrender (a natural is paid ``blackjack_pays`` unless the dealer
    has one too; ENHC surrender loses ``surrender_blackjack_loss`` to a later dealer
    blackjack); later hits, and each split hand's two-card play, follow ``codes`` (per
    node, as :func:`split_distribution`), or for split hands ``split_codes[p]`` where not
    None (rank index p); a split of rank index p plays by ``split_params[p]`` where not
    None (split aces: one card, no double), else ``params``.

    How: X1 X2 = sum over the hands of box 1 and of box 2 of r_h r_k. Every hand's end is
    a set of cards c (a split hand's with its sibling's pair card; the sibling's draws
    are unseen cards) reached by orders(c) draw orders, so P(end h of box 1 and end k of
    box 2) = orders(h) orders(k) F(c_h + c_k) (the boxes' and the dealer's cards are
    blocks of one exchangeable deal, each block stopping by its own cards), and the
    dealer's law given both is D(c_h + c_k). So with R(c) = sum of orders * r over the
    ends with cards c, E[X1 X2] = sum over unions U of F(U) <D(U), sum over c + c' = U of
    R(c) R(c')>: one dealer evaluation per union. E[X1] likewise from R, and E[X1^2]
    from orders * r^2 for the unsplit starts; a split start's second moment needs its
    two hands jointly (:func:`split_moments`), which the caller adds.

    Exact while the dealer cannot run out of cards.
    """
    cdef Params P, PS
    cdef Ctx c
    cdef Ctx ca, cb
    cdef bint made = False, made_split = False, peek
    cdef UnionSum R, Q, H, B
    cdef Term* terms = NULL
    cdef double* mass = NULL
    cdef double* lanes = NULL
    cdef double fall_b[NR * (UMAX + 1)]
    cdef double inv_fall_n[UMAX + 1]
    cdef int kmax[NR]
    cdef int cards[NR]
    cdef int start[NR]
    cdef int shoe[NR]
    cdef double r[NOUT]
    cdef int a, b, o, i, j, k, n, node, act, p, cap = 20000, N = 0, n1, ok
    cdef double w, f, pbj, ev, second, cross, x, xi, xj, with_bj
    cdef const char* cd
    cdef const char* scd
    cdef const char[:] sview
    cdef const double* ri
    cdef double* row
    cdef DMemo local
    cdef DMemo* m
    read_params(params, &P)
    finite_only(&P, "two boxes' moments")
    check_shoe(base)
    check_up(up)
    check_codes(codes, "codes")
    if codes is None or actions is None or actions.shape[0] != 100:
        raise ValueError("actions: 100 two-card plays; codes: a play code per node")
    if len(split_codes) != NR or len(split_params) != NR:
        raise ValueError("split_codes, split_params: one entry (or None) per rank")
    for p in range(NR):
        if split_codes[p] is not None:
            check_codes(split_codes[p], "split_codes")
    peek = P.mode != 0
    for a in range(NR):
        N += base[a]
        kmax[a] = base[a] if base[a] < UMAX else UMAX
    falling_tables(&base[0], -1, kmax, UMAX, fall_b, inv_fall_n)
    cd = &codes[0]
    if P.mode == 2:
        raise ValueError("boxes: the exact conditioning (ENHC or peek), not the shortcut")
    local.keys = NULL
    ok = usum_init(&R)
    ok = usum_init(&Q) | ok
    ok = usum_init(&H) | ok
    ok = usum_init(&B) | ok
    m = NULL
    try:
        if ok != 0:
            raise MemoryError()
        m = own_or_given(None, &local, &base[0], up, P.drule)
        terms = <Term*>malloc(cap * sizeof(Term))
        mass = <double*>malloc(n_nodes * sizeof(double))
        lanes = <double*>malloc(LANES * tree_scratch_size() * sizeof(double))
        if terms == NULL or mass == NULL or lanes == NULL:
            raise MemoryError()
        ctx_init(&c, &base[0], up, &P, False, m)
        made = True
        # every box's ends, by the cards they take
        for a in range(NR):
            for b in range(a, NR):
                if base[a] < 1 + (a == b) or base[b] < 1:
                    continue
                for k in range(NR):
                    start[k] = (k == a) + (k == b)
                w = (1.0 if a == b else 2.0) * base[a] * (base[b] - (a == b)) \
                    / (<double>N * (N - 1))
                node = node_child[node_child[0][a]][b]
                act = actions[10 * a + b]
                if a == 0 and b == 9:  # a natural
                    for o in range(NOUT):
                        r[o] = blackjack_pays if o != OUT_BJ else 0.0
                    if box_unit(&R, &Q, start, w, r, peek, fall_b, inv_fall_n) != 0:
                        raise MemoryError()
                    continue
                if act == 4:
                    for o in range(NOUT):
                        r[o] = -0.5 if o != OUT_BJ else -surrender_blackjack_loss
                    if box_unit(&R, &Q, start, w, r, peek, fall_b, inv_fall_n) != 0:
                        raise MemoryError()
                    continue
                if act == 3:
                    if a != b:
                        raise ValueError("only a pair splits")
                    scd = cd
                    if split_codes[a] is not None:
                        sview = split_codes[a]
                        scd = &sview[0]
                    read_params(params if split_params[a] is None else split_params[a], &PS)
                    if PS.mode != P.mode or PS.drule != P.drule:
                        raise ValueError("a split's parameters must share the game")
                    split_contexts(&ca, &cb, NULL, &base[0], a, up, &PS, &PS, m)
                    made_split = True
                    n1 = node_child[0][a]
                    with nogil:
                        n = propagate(&ca, n1, 1.0, scd, True, PS.double_ok, PS.das,
                                      PS.aces_one_card, terms, cap, mass)
                        ok = 0 if n < 0 else box_terms(&R, NULL, terms, n, w, a, ca.bjl1,
                                                       ca.bjl2, peek, fall_b, inv_fall_n)
                        if ok == 0:
                            n = propagate(&cb, n1, 1.0, scd, True, PS.double_ok, PS.das,
                                          PS.aces_one_card, terms, cap, mass)
                            ok = 0 if n < 0 else box_terms(&R, NULL, terms, n, w, a,
                                                           cb.bjl1, cb.bjl2, peek, fall_b,
                                                           inv_fall_n)
                    check_cards(&ca)
                    check_cards(&cb)
                    ctx_free(&ca)
                    ctx_free(&cb)
                    made_split = False
                    if n < 0 or ok != 0:
                        raise MemoryError("too many terminal hands")
                    continue
                with nogil:
                    if act == 0:
                        n = add_term(terms, 0, cap, node, -1, T_STAND, 1.0, 0.0, 1.0)
                    elif act == 2:
                        n = double_terms(&c, node, terms, cap)
                    else:
                        n = propagate(&c, node, 1.0, cd, False, NULL, False, False, terms,
                                      cap, mass)
                    ok = 0 if n < 0 else box_terms(&R, &Q, terms, n, w, -1, c.bjl1, c.bjl2,
                                                   peek, fall_b, inv_fall_n)
                if n < 0 or ok != 0:
                    raise MemoryError("too many terminal hands")
        check_cards(&c)
        # the pairs of ends, by the union of their cards
        with nogil:
            ok = 0
            for i in range(R.n):
                ri = &R.h[i * NOUT]
                for j in range(i, R.n):
                    for k in range(NR):
                        cards[k] = R.cards[i * NR + k] + R.cards[j * NR + k]
                    for k in range(NR):
                        if cards[k] > base[k]:
                            break
                    else:
                        row = usum_row(&H, cards)
                        if row == NULL:
                            ok = -1
                            break
                        f = 1.0 if i == j else 2.0
                        for o in range(NOUT):
                            row[o] += f * ri[o] * R.h[j * NOUT + o]
                if ok != 0:
                    break
        if ok != 0:
            raise MemoryError()
        ev = box_table_sum(&R, &base[0], up, P.drule, lanes)
        # E[X1 1{dealer blackjack}]: the blackjack entries alone (peek: the rounds below)
        for i in range(R.n if not peek else 0):
            for k in range(NR):
                cards[k] = R.cards[i * NR + k]
            row = usum_row(&B, cards)
            if row == NULL:
                raise MemoryError()
            row[OUT_BJ] = R.h[i * NOUT + OUT_BJ]
        with_bj = box_table_sum(&B, &base[0], up, P.drule, lanes)
        second = box_table_sum(&Q, &base[0], up, P.drule, lanes)
        cross = box_table_sum(&H, &base[0], up, P.drule, lanes)
        if peek and blackjack_hole(up) >= 0:
            # the rounds the hole card ends: a natural pushes, every other box loses 1
            for a in range(NR):
                for b in range(a, NR):
                    if base[a] < 1 + (a == b) or base[b] < 1:
                        continue
                    w = (1.0 if a == b else 2.0) * base[a] * (base[b] - (a == b)) \
                        / (<double>N * (N - 1))
                    xi = 0.0 if (a == 0 and b == 9) else -1.0
                    for k in range(NR):
                        shoe[k] = base[k] - (k == a) - (k == b)
                    pbj = blackjack_chance(shoe, up)
                    ev += w * pbj * xi
                    with_bj += w * pbj * xi
                    second += w * pbj * xi * xi
                    for i in range(NR):
                        for j in range(i, NR):
                            if shoe[i] < 1 + (i == j) or shoe[j] < 1:
                                continue
                            x = (1.0 if i == j else 2.0) * shoe[i] * (shoe[j] - (i == j)) \
                                / (<double>(N - 2) * (N - 3))
                            xj = 0.0 if (i == 0 and j == 9) else -1.0
                            shoe[i] -= 1
                            shoe[j] -= 1
                            cross += w * x * blackjack_chance(shoe, up) * xi * xj
                            shoe[i] += 1
                            shoe[j] += 1
    finally:
        if made_split:
            ctx_free(&ca)
            ctx_free(&cb)
        if made:
            ctx_free(&c)
        if m != NULL and m == &local:
            dmemo_free(&local)
        usum_free(&R)
        usum_free(&Q)
        usum_free(&H)
        usum_free(&B)
        free(terms)
        free(mass)
        free(lanes)
    return ev, second, cross, with_bj
