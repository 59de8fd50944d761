# Outcome distributions of a whole round, split rounds included (SplitRound,
# hand_distribution, split_distribution).
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

cdef struct SplitRound:  # what one split round's enumeration holds (split_round_open)
    Ctx ca              # the first hand's context
    Ctx cb              # the second hand's
    Ctx cs              # the settling one, from the shoe with both pair cards
    bint made           # the three contexts are made
    DMemo local         # the dealer memo when the caller gives none ...
    DMemo* m            # ... and the one in use (NULL until taken)
    Term* ta            # the first hand's ends
    Term* tb            # the second hand's
    double* mass        # propagate's scratch
    char* frozen_a      # each hand's frozen own-play codes (freeze_own_play)
    char* frozen_b


cdef int split_round_open(SplitRound* w, DealerMemo memo, const int* base, int p, int up,
                          const Params* P, const Params* P2, int cap_a, int cap_b) except -1:
    """Take what a split round's enumeration needs: the dealer memo (``memo``, or one made
    for the call), ``cap_a`` and ``cap_b`` terms for the two hands' ends, the scratch, the
    frozen-code buffers and the three contexts (:func:`split_contexts`). Call
    :func:`split_round_close` afterwards in every case, also when this raises."""
    w.made = False
    w.m = NULL
    w.local.keys = NULL
    w.ta = NULL
    w.tb = NULL
    w.mass = NULL
    w.frozen_a = NULL
    w.frozen_b = NULL
    w.m = own_or_given(None if P.replace else memo, &w.local, base, up, P.drule)
    w.ta = <Term*>malloc(cap_a * sizeof(Term))
    w.tb = <Term*>malloc(cap_b * sizeof(Term))
    w.mass = <double*>malloc(n_nodes * sizeof(double))
    w.frozen_a = <char*>calloc(n_nodes, sizeof(char))
    w.frozen_b = <char*>calloc(n_nodes, sizeof(char))
    if w.ta == NULL or w.tb == NULL or w.mass == NULL or w.frozen_a == NULL \
            or w.frozen_b == NULL:
        raise MemoryError()
    split_contexts(&w.ca, &w.cb, &w.cs, base, p, up, P, P2, w.m)
    w.made = True
    return 0


cdef void split_round_close(SplitRound* w) noexcept:
    """Give back all that :func:`split_round_open` took (whatever it got to)."""
    if w.made:
        ctx_free(&w.ca)
        ctx_free(&w.cb)
        ctx_free(&w.cs)
        w.made = False
    if w.m == &w.local:
        dmemo_free(&w.local)
    elif w.m != NULL:
        memo_release(w.m)
    w.m = NULL
    free(w.ta)
    free(w.tb)
    free(w.mass)
    free(w.frozen_a)
    free(w.frozen_b)
    w.ta = NULL
    w.tb = NULL
    w.mass = NULL
    w.frozen_a = NULL
    w.frozen_b = NULL


cdef void freeze_own_play(Ctx* ca, Ctx* cb, int p, const Params* P, const Params* P2,
                          char* frozen_a, char* frozen_b) noexcept nogil:
    """Each split hand's best play for its own cards, the up card and the pair (cdp1),
    frozen as per-node codes (:func:`record_codes`)."""
    split_hand(ca, p, P.double_ok, P.das, P.aces_one_card, NULL)
    record_codes(ca, p, P.double_ok, P.das, frozen_a)
    split_hand(cb, p, P2.double_ok, P2.das, P2.aces_one_card, NULL)
    record_codes(cb, p, P2.double_ok, P2.das, frozen_b)


cdef int cmp_term(const void* a, const void* b) noexcept nogil:
    """Order terms by what settles them: node, busting card, kind, bet, value (a bonus:
    at the 6-7-8 a suited and a plain row pay differently)."""
    cdef const Term* x = <const Term*>a
    cdef const Term* y = <const Term*>b
    if x.node != y.node:
        return -1 if x.node < y.node else 1
    if x.extra != y.extra:
        return -1 if x.extra < y.extra else 1
    if x.kind != y.kind:
        return -1 if x.kind < y.kind else 1
    if x.bet != y.bet:
        return -1 if x.bet < y.bet else 1
    if x.value != y.value:
        return -1 if x.value < y.value else 1
    return 0


cdef int merge_terms(Term* t, int n) noexcept nogil:
    """Sort ``t[:n]`` and add up the terms that settle alike (masses and moments);
    return how many are left."""
    cdef int i, k = 0
    if n <= 1:
        return n
    qsort(t, n, sizeof(Term), cmp_term)
    for i in range(1, n):
        if cmp_term(&t[k], &t[i]) == 0:
            t[k].mass += t[i].mass
            t[k].ka += t[i].ka
            t[k].kb += t[i].kb
            t[k].kab += t[i].kab
        else:
            k += 1
            t[k] = t[i]
    return k + 1


cdef inline double suit_mean(double u2, double s2, double k, double n) noexcept nogil:
    """E[U] for hand 2: U = (s2 - k) / n, the chance its next card of a rank has its suit
    (``u2`` that chance before hand 1 drew; pinned at 0 or 1 when it was)."""
    cdef double x
    if u2 <= 0.0:
        return 0.0
    if u2 >= 1.0:
        return 1.0
    if n <= 0.0:
        return 0.0
    x = (s2 - k) / n
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


cdef inline bint memcmp_codes(char sb[3][4][2], int j, int k) noexcept nogil:
    """Hand 2 decides alike in suit cases ``j`` and ``k``."""
    cdef int x, y
    for x in range(3):
        for y in range(2):
            if sb[x][j][y] != sb[x][k][y]:
                return False
    return True


cdef int split_suited_rounds(Ctx* ca, Ctx* cb, Ctx* cs, const int* base, int p,
                             const Params* P, const Params* P2, const char* code_a,
                             const char* code_b, const double* pool, int npairs,
                             const double* pw, const int* pi, const int* pj, const int* psame,
                             Term* ta, int cap_a, Term* tb, int cap, double* mass,
                             double* mom, double* hist, double* bj_hist) noexcept nogil:
    """:func:`split_distribution`'s rounds when split 6s, 7s or 8s know their suits.

    Hand 2 (pair card suit s2) makes a suited 6-7-8 from the two other ranks a, b (with
    replacement, an infinite deck, U_x is hand 2's own chance ``suit_u`` whatever hand 1
    drew, so E[U_a U_b] = U_a U_b; the corners below then mix exactly that):
    a card of rank x it draws has suit s2 with chance U_x = (S_x - k_x) / n_x, where
    S_x of the n0_x = ``pool`` cards of known suit have s2, k_x of them went to hand 1
    and n_x = n0_x - (hand 1's cards of rank x). Its end masses are affine in each of
    U_a, U_b (its second card has s2 with chance U, then the third completes with
    chance U of the other rank), so hand 2's part of the histogram given hand 1's end
    is f(U_a, U_b) = c0 + c1 U_a + c2 U_b + c3 U_a U_b, and its mean over hand 1's
    suits is E f = the sum over the corners (0/1, 0/1) of f times the weights
    E[U_a U_b], E[U_a] - E[U_a U_b], E[U_b] - E[U_a U_b] and the rest: hand 2 played
    with each corner's chances, weighted. The means need E[k_a], E[k_b], E[k_a k_b]
    per hand-1 end, which :func:`propagate` tracks (``Ctx.mom``).

    Each pair of suit cases (probability ``pw``, hand 1's case ``pi``, hand 2's ``pj``,
    one suit or two ``psame``) plays hand 1 by its own case's decisions; hand 1's ends
    that settle alike are added up over the cases whose hand 2 decides alike (every
    case under fixed codes), so hand 2 is played once per end and corner. Returns -1
    when ``cap`` is too small.
    """
    cdef int ra = 5 if p != 5 else 6
    cdef int rb = 7 if p != 7 else 6
    cdef int n1 = node_child[0][p]
    cdef int g, e, x, i, j, r, na, nb, n, k
    cdef double s2a, s2b, u2a, u2b, ea, eb, eab, na_left, nb_left, ka, kb, kab, w
    cdef double wc[4]
    cdef char sa[3][4][2]
    cdef char sb[3][4][2]
    cdef int same_codes
    memcpy(sa, ca.suit_code, sizeof(sa))
    memcpy(sb, cb.suit_code, sizeof(sb))
    ca.mom = mom
    ca.mom_r[0] = ra
    ca.mom_r[1] = rb
    ca.mom_t[0] = pool[ra - 5]
    ca.mom_t[1] = pool[rb - 5]
    ca.nsuit = 1
    ca.suit_w[0] = 1.0
    cb.nsuit = 1
    cb.suit_w[0] = 1.0
    for g in range(npairs):  # g: the first pair of its group (hand 2 decides alike)
        same_codes = 0
        for e in range(g):
            if cb.suit_play == 0 or memcmp_codes(sb, pj[e], pj[g]):
                same_codes = 1
                break
        if same_codes:
            continue
        na = 0
        for e in range(g, npairs):
            if e > g and not (cb.suit_play == 0 or memcmp_codes(sb, pj[e], pj[g])):
                continue
            i = pi[e]
            j = pj[e]
            for x in range(3):
                ca.suit_u[0][x] = P.suit_u[i][x]
                for k in range(2):
                    ca.suit_code[x][0][k] = sa[x][i][k]
            ca.q678 = P.suit_u[i][ra - 5] * P.suit_u[i][rb - 5]
            ca.mom_same = psame[e]
            u2a = P2.suit_u[j][ra - 5]
            u2b = P2.suit_u[j][rb - 5]
            s2a = u2a * pool[ra - 5]
            s2b = u2b * pool[rb - 5]
            ca.mom_s2[0] = s2a
            ca.mom_s2[1] = s2b
            if na + cap > cap_a:
                return -1
            n = propagate(ca, n1, pw[e], code_a, True, P.double_ok, P.das, P.aces_one_card,
                          &ta[na], cap, mass)
            if n < 0:
                return -1
            for k in range(na, na + n):  # hand 2's suit weights: mass times E[U_a] ...
                w = ta[k].mass
                na_left = pool[ra - 5] - node_counts[ta[k].node][ra] - (ta[k].extra == ra)
                nb_left = pool[rb - 5] - node_counts[ta[k].node][rb] - (ta[k].extra == rb)
                ka = ta[k].ka / w
                kb = ta[k].kb / w
                kab = ta[k].kab / w
                ea = suit_mean(u2a, s2a, ka, na_left)
                eb = suit_mean(u2b, s2b, kb, nb_left)
                if P.replace:  # (with replacement hand 1 takes no card from hand 2's
                    ea = u2a   # suits: its chances are its own, and independent)
                    eb = u2b
                    eab = u2a * u2b
                elif 0.0 < u2a < 1.0 and 0.0 < u2b < 1.0 and na_left > 0.0 and nb_left > 0.0:
                    eab = (s2a * s2b - s2a * kb - s2b * ka + kab) / (na_left * nb_left)
                    if eab > ea or eab > eb:
                        eab = ea if ea < eb else eb
                    if eab < ea + eb - 1.0:
                        eab = ea + eb - 1.0
                    if eab < 0.0:
                        eab = 0.0
                else:
                    eab = ea * eb
                ta[k].ka = w * ea
                ta[k].kb = w * eb
                ta[k].kab = w * eab
            na = merge_terms(ta, na + n)
        j = pj[g]
        for x in range(3):
            for k in range(2):
                cb.suit_code[x][0][k] = sb[x][j][k]
            cb.suit_u[0][x] = P2.suit_u[j][x]
        for i in range(na):
            hand_two_after(cb, base, &ta[i])
            wc[3] = ta[i].kab                      # (1, 1)
            wc[2] = ta[i].ka - ta[i].kab           # (1, 0)
            wc[1] = ta[i].kb - ta[i].kab           # (0, 1)
            wc[0] = (ta[i].mass - ta[i].ka) - wc[1]  # (0, 0)
            nb = 0
            for x in range(4):
                if wc[x] <= 0.0:
                    continue
                cb.suit_u[0][ra - 5] = 1.0 if x & 2 else 0.0
                cb.suit_u[0][rb - 5] = 1.0 if x & 1 else 0.0
                cb.q678 = cb.suit_u[0][ra - 5] * cb.suit_u[0][rb - 5]
                n = propagate(cb, n1, wc[x], code_b, True, P2.double_ok, P2.das,
                              P2.aces_one_card, &tb[nb], cap, mass)
                if n < 0:
                    return -1
                nb += n
            nb = merge_terms(tb, nb)
            for k in range(nb):
                settle(cs, &ta[i], &tb[k], tb[k].mass, ca.bjl1, ca.bjl2, cb.bjl1, cb.bjl2,
                       hist, bj_hist)
    ca.mom = NULL
    return 0


cdef int double_terms(Ctx* c, int node, Term* out, int cap) noexcept nogil:
    """The terminals of doubling ``node``: one card, bet 2, then stand (or bust)."""
    cdef int shoe[NR]
    cdef int r, n = 0
    cdef int N = node_shoe(c, node, shoe)
    for r in range(NR):
        if shoe[r] > 0:
            n = add_last_card(out, n, cap, node, r, 2.0, <double>shoe[r] / N)
    return n


cdef DMemo* own_or_given(DealerMemo memo, DMemo* local, const int* base, int up,
                         int drule) except? NULL:
    """The caller's memo (checked and marked in use) or ``local``, made for this call."""
    cdef int origin[NR]
    cdef int r
    if memo is not None:
        return memo_acquire(memo, base, up, drule)
    for r in range(NR):
        origin[r] = base[r] + (r == up - 1)
    if dmemo_init(local, origin, drule, up) != 0:
        dmemo_free(local)
        raise MemoryError()
    return local


cdef double* blackjack_hist(double[:] bj_hist, const Params* P) except? NULL:
    """The histogram for outcomes with a dealer blackjack (ENHC only), or NULL."""
    if bj_hist is None:
        return NULL
    if P.mode != 0:
        raise ValueError("bj_hist is for a game without a hole-card check (ENHC)")
    check_hist(bj_hist)
    return &bj_hist[0]


cdef int check_hist(double[:] hist) except -1:
    if hist is None or hist.shape[0] != HIST_SIZE:
        raise ValueError("hist needs 2600 bins")
    return 0


def hand_distribution(const int[:] base, const int[:] hand, int up, params, int action,
                      const char[:] codes, double[:] hist, DealerMemo memo=None,
                      double[:] bj_hist=None):
    """Add the distribution of one unsplit hand's net result to ``hist`` (bins of 0.01).

    ``base``: the shoe with the hand's cards in it (up card gone); ``action``:
    0 stand, 1 hit, 2 double; later hits follow ``codes`` (per node, bit 2 =
    hit) or, if None, the optimal play. Peek (conditioning 1): only the
    outcomes with no dealer blackjack (their probabilities, not conditioned);
    ENHC: all, or with ``bj_hist`` those in which the dealer has blackjack
    there and the others in ``hist``. A natural's payout is the caller's.
    ``memo``: dealer distributions shared with other calls on the same origin.
    """
    cdef Params P
    cdef Ctx c
    cdef Term* terms = NULL
    cdef double* mass = NULL
    cdef int node, i, n = 0, cap = 20000
    cdef const char* cd = NULL
    cdef double* bjh = NULL
    cdef DMemo local
    cdef DMemo* m
    read_params(params, &P)
    check_shoe(base)
    check_up(up)
    check_hand(hand, base, P.replace)
    check_hist(hist)
    bjh = blackjack_hist(bj_hist, &P)
    check_codes(codes, "codes")
    if action < 0 or action > 2:
        raise ValueError("action is 0 (stand), 1 (hit) or 2 (double)")
    node = node_of(&hand[0])
    if node < 0:
        raise _InputError("the hand is bust")
    if codes is not None:
        cd = &codes[0]
    local.keys = NULL
    m = own_or_given(None if P.replace else memo, &local, &base[0], up, P.drule)
    try:
        terms = <Term*>malloc(cap * sizeof(Term))
        mass = <double*>malloc(n_nodes * sizeof(double))
        if terms == NULL or mass == NULL:
            raise MemoryError()
        ctx_init(&c, &base[0], up, &P, False, m)
        try:
            with nogil:
                if action == 0:
                    n = add_term(terms, 0, cap, node, -1, T_STAND, 1.0, 0.0, 1.0)
                elif action == 2:
                    n = double_terms(&c, node, terms, cap)
                else:
                    n = propagate(&c, node, 1.0, cd, False, NULL, False, False, terms, cap, mass)
                for i in range(n):
                    settle(&c, &terms[i], NULL, terms[i].mass, c.bjl1, c.bjl2, 0.0, 0.0,
                           &hist[0], bjh)
            check_cards(&c)
        finally:
            ctx_free(&c)
    finally:
        if m == &local:
            dmemo_free(&local)
        else:
            memo_release(m)
        free(terms)
        free(mass)
    if n < 0:
        raise MemoryError("too many terminal hands")


def split_distribution(const int[:] base, int pair, int up, params, const char[:] codes,
                       double[:] hist, DealerMemo memo=None, second_params=None, suits=None,
                       double[:] bj_hist=None):
    """Add the distribution of a split round's net result (both hands) to ``hist``.

    One split, no resplit. Each hand plays ``codes`` (per node: bit 1 double,
    2 hit, 4 stand) or, if None, the optimal strategy for its own cards, the
    up card and the pair (as :func:`split_tables` row 0). The dealer settles
    against both hands, so the joint outcome is enumerated exactly: every end
    of the first hand, then every end of the second from what is left.
    ``base``: the shoe with both pair cards in it (up card gone). Peek: only
    outcomes with no dealer blackjack, as in :func:`hand_distribution`.
    ``second_params``: the second hand's parameters where they differ (its pair
    card's suit); default ``params``. Split 6s, 7s and 8s that know their suits
    (``split_suits``) play their suit-aware best two-card decisions (codes None).
    ``suits`` (an :class:`strategy_calc.engine.SplitSuits`, needed when the hands know
    their suits): how the two pair cards' suits go together; the two hands' suited
    bonuses then come from one shoe (:func:`split_suited_rounds`). ``bj_hist`` (ENHC):
    as in :func:`hand_distribution`.
    """
    cdef Params P, P2
    cdef SplitRound w
    cdef Ctx* ca
    cdef Ctx* cb
    cdef Ctx* cs
    cdef int r, i, j, na = 0, nb, p = pair - 1, cap = 20000, n1
    cdef Term* ta
    cdef Term* tb
    cdef double* mass
    cdef const char* code_a
    cdef const char* code_b
    cdef bint suited
    cdef double* mom = NULL
    cdef double pool[3]
    cdef double pw[16]
    cdef int pi[16]
    cdef int pj[16]
    cdef int psame[16]
    cdef int npairs = 0
    cdef double* bjh = NULL
    read_params(params, &P)
    read_params(params if second_params is None else second_params, &P2)
    if P2.drule != P.drule or P2.mode != P.mode:
        raise ValueError("the two hands' parameters must share the game")
    bjh = blackjack_hist(bj_hist, &P)
    suited = P.nsuit > 0 or P2.nsuit > 0
    if suited:
        if P.nsuit == 0 or P2.nsuit == 0:
            raise ValueError("both split hands know their suits, or neither does")
        if suits is None:
            raise ValueError("split hands that know their suits need the pair cards' joint"
                             " suits (suits)")
        if len(suits.pool) != 3 or not all(0.0 <= x and isfinite(x) for x in suits.pool):
            raise ValueError("suits.pool has the cards of known suit of ranks 6, 7, 8")
        for r in range(3):
            pool[r] = suits.pool[r]
        if not 0 < len(suits.pairs) <= 16:
            raise ValueError("suits.pairs has 1 to 16 cases")
        for case in suits.pairs:
            w_, i_, j_, same_ = case
            if not (0.0 <= w_ <= 1.0 and 0 <= i_ < P.nsuit and 0 <= j_ < P2.nsuit):
                raise ValueError("a suits.pairs case is (probability, hand 1's suit case,"
                                 " hand 2's, one suit)")
            pw[npairs] = w_
            pi[npairs] = i_
            pj[npairs] = j_
            psame[npairs] = 1 if same_ else 0
            npairs += 1
    check_pair(base, pair)
    check_up(up)
    check_hist(hist)
    check_codes(codes, "codes")
    n1 = node_child[0][p]
    try:
        split_round_open(&w, memo, &base[0], p, up, &P, &P2, (3 if suited else 1) * cap,
                         (4 if suited else 1) * cap)
        ca = &w.ca
        cb = &w.cb
        cs = &w.cs
        ta = w.ta
        tb = w.tb
        mass = w.mass
        if suited:
            mom = <double*>malloc(3 * n_nodes * sizeof(double))
            if mom == NULL:
                raise MemoryError()
        ca.suit_play = 2 if codes is None else 0  # the frozen own-cards decisions
        cb.suit_play = 2 if codes is None else 0
        with nogil:
            if codes is None:
                freeze_own_play(ca, cb, p, &P, &P2, w.frozen_a, w.frozen_b)
                code_a = w.frozen_a
                code_b = w.frozen_b
            else:
                code_a = &codes[0]
                code_b = &codes[0]
            if suited:
                na = split_suited_rounds(ca, cb, cs, &base[0], p, &P, &P2, code_a, code_b,
                                         pool, npairs, pw, pi, pj, psame, ta, 3 * cap, tb,
                                         cap, mass, mom, &hist[0], bjh)
            else:
                na = propagate(ca, n1, 1.0, code_a, True, P.double_ok, P.das,
                               P.aces_one_card, ta, cap, mass)
            for i in range(na if na > 0 and not suited else 0):
                hand_two_after(cb, &base[0], &ta[i])
                nb = propagate(cb, n1, ta[i].mass, code_b, True, P.double_ok, P.das,
                               P.aces_one_card, tb, cap, mass)
                if nb < 0:
                    na = -1
                    break
                for j in range(nb):
                    settle(cs, &ta[i], &tb[j], tb[j].mass, ca.bjl1, ca.bjl2, cb.bjl1,
                           cb.bjl2, &hist[0], bjh)
        check_cards(cs)
    finally:
        split_round_close(&w)
        free(mom)
    if na < 0:
        raise MemoryError("too many terminal hands")


cdef inline void end_removed(const Term* t, int other, int* removed) noexcept nogil:
    """The cards gone once the hand ``t`` ended, with the other hand's pair card ``other``."""
    cdef int r
    for r in range(NR):
        removed[r] = node_counts[t.node][r] + (t.extra == r) + (r == other)


cdef inline bint plain_bust(const Term* t) noexcept nogil:
    """A bust on the original bet: -1 whatever the dealer holds."""
    return t.kind == T_BUST and t.bet == 1.0


cdef int one_hand_moments(Ctx* cs, const Term* t, int n, int other, double bjl1, double bjl2,
                          double* out) noexcept nogil:
    """out[0..3] += E[r], E[r^2], E[r 1{dealer blackjack}] and the outcomes' mass (1, or
    P(no blackjack) in peek) of one split hand's ends ``t[:n]`` (``other``: the other
    hand's pair card, still unseen by the dealer)."""
    cdef int i, o
    cdef int removed[NR]
    cdef double d[NOUT]
    cdef double x
    for i in range(n):
        end_removed(&t[i], other, removed)
        counted_dealer(cs, removed, d)
        for o in range(NOUT):
            if d[o] == 0.0:
                continue
            x = term_result(&t[i], o, bjl1, bjl2)
            out[0] += t[i].mass * d[o] * x
            out[1] += t[i].mass * d[o] * x * x
            out[3] += t[i].mass * d[o]
            if o == OUT_BJ:
                out[2] += t[i].mass * d[o] * x
    return 0


cdef bint same_hands(const Params* a, const Params* b, const Ctx* ca, const Ctx* cb,
                     const char* code_a, const char* code_b) noexcept nogil:
    """The two split hands play alike and settle alike (then their ends' joint law and
    the round's result are symmetric in them)."""
    cdef int t
    if ca.bjl1 != cb.bjl1 or ca.bjl2 != cb.bjl2 or a.das != b.das \
            or a.aces_one_card != b.aces_one_card or a.nfix != b.nfix or a.b678 != b.b678 \
            or a.q678 != b.q678:
        return False
    for t in range(a.nfix):
        if a.fix_node[t] != b.fix_node[t] or a.fix_pay[t] != b.fix_pay[t] \
                or a.fix_stand[t] != b.fix_stand[t]:
            return False
    for t in range(NTOTALS):
        if a.double_ok[t] != b.double_ok[t]:
            return False
    return code_a == code_b or memcmp(code_a, code_b, n_nodes) == 0
