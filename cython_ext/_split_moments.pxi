# Split-round moments by the union of both split hands' cards (SplitMomentTable,
# SplitMomentGroup, split_moments), split_play and split_postsplit.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

cdef struct UnionSum:   # sums kept per distinct union of both split hands' cards
    uint64_t* keys      # packed union + 1; 0 = empty slot
    int* slot_of        # slot -> union index
    uint64_t mask
    int n               # unions kept
    int cap
    unsigned char* cards  # n * NR: both hands' cards, pair cards included
    double* h           # n * NOUT


cdef int usum_init(UnionSum* u) noexcept nogil:
    """Returns -1 if out of memory (free it with :func:`usum_free` either way)."""
    u.mask = (1ULL << 14) - 1
    u.n = 0
    u.cap = 4096
    u.keys = <uint64_t*>calloc(u.mask + 1, sizeof(uint64_t))
    u.slot_of = <int*>malloc((u.mask + 1) * sizeof(int))
    u.cards = <unsigned char*>malloc(u.cap * NR)
    u.h = <double*>malloc(u.cap * NOUT * sizeof(double))
    return 0 if u.keys != NULL and u.slot_of != NULL and u.cards != NULL and u.h != NULL \
        else -1


cdef void usum_free(UnionSum* u) noexcept nogil:
    free(u.keys)
    free(u.slot_of)
    free(u.cards)
    free(u.h)
    u.keys = NULL
    u.slot_of = NULL
    u.cards = NULL
    u.h = NULL


cdef double* usum_row(UnionSum* u, const int* removed) noexcept nogil:
    """The sums of the union ``removed`` (zeros when new), or NULL if out of memory or
    a rank count is above 63 (never for two player hands)."""
    cdef uint64_t key = 1, slot
    cdef unsigned char* cards
    cdef double* h
    cdef int r, k
    for r in range(NR):
        if removed[r] > 63:
            return NULL
        key += (<uint64_t>removed[r]) << (6 * r)
    slot = mix(key) & u.mask
    while u.keys[slot] != 0:
        if u.keys[slot] == key:
            return &u.h[u.slot_of[slot] * NOUT]
        slot = (slot + 1) & u.mask
    if u.n == u.cap:
        cards = <unsigned char*>realloc(u.cards, 2 * u.cap * NR)
        if cards == NULL:
            return NULL
        u.cards = cards
        h = <double*>realloc(u.h, 2 * u.cap * NOUT * sizeof(double))
        if h == NULL:
            return NULL
        u.h = h
        u.cap *= 2
    k = u.n
    u.n += 1
    u.keys[slot] = key
    u.slot_of[slot] = k
    for r in range(NR):
        u.cards[k * NR + r] = <unsigned char>removed[r]
    for r in range(NOUT):
        u.h[k * NOUT + r] = 0.0
    if 2 * <uint64_t>u.n > u.mask and rehash_double(&u.keys, &u.slot_of, &u.mask) != 0:
        return NULL
    return &u.h[k * NOUT]


cdef int split_cross(Ctx* ca, Ctx* cb, Ctx* cs, const int* base, int n1, const Params* P2,
                     const char* code_b, bint symmetric, const Term* ta, int na, Term* tb,
                     int cap, double* mass, UnionSum* acc, double* S) noexcept nogil:
    """The cross sum of :func:`split_moments` over hand 1's ends ``ta[:na]``: with ``acc``
    NULL, ``S[0] +=`` sum P(t1, t2) <D(t1 + t2), (r1 + 1)(r2 + 1)>; else, per union u of the
    two hands' cards, ``acc``'s row of u ``+=`` sum over its (t1, t2) of P(t1, t2) (r1 + 1)
    (r2 + 1) per dealer outcome (peek: blackjack entry 0). Returns -1 if hand 2 has too many
    ends, -2 if out of memory."""
    cdef int i, j, o, r, c, nb
    cdef int removed[NR]
    cdef double r1[NOUT]
    cdef double d[NOUT]
    cdef double w, x
    cdef double* row
    for i in range(na):
        if plain_bust(&ta[i]):
            continue
        hand_two_after(cb, base, &ta[i])
        nb = propagate(cb, n1, 1.0, code_b, True, P2.double_ok, P2.das, P2.aces_one_card,
                       tb, cap, mass)
        if nb < 0:
            return -1
        for o in range(NOUT):
            r1[o] = term_result(&ta[i], o, ca.bjl1, ca.bjl2) + 1.0
        counted_outcomes(cs.mode, r1)
        for j in range(nb):
            if plain_bust(&tb[j]):
                continue
            w = ta[i].mass * tb[j].mass
            if symmetric:
                c = cmp_term(&tb[j], &ta[i])
                if c > 0:
                    continue
                if c < 0:
                    w *= 2.0
            for r in range(NR):
                removed[r] = node_counts[ta[i].node][r] + (ta[i].extra == r) \
                    + node_counts[tb[j].node][r] + (tb[j].extra == r)
            if acc != NULL:
                row = usum_row(acc, removed)
                if row == NULL:
                    return -2
                for o in range(NOUT):
                    if r1[o] != 0.0:
                        row[o] += w * r1[o] * (term_result(&tb[j], o, cb.bjl1, cb.bjl2) + 1.0)
                continue
            dealer_for(cs, -1, removed, d)
            x = 0.0
            for o in range(NOUT):
                if d[o] != 0.0 and r1[o] != 0.0:
                    x += d[o] * r1[o] * (term_result(&tb[j], o, cb.bjl1, cb.bjl2) + 1.0)
            S[0] += w * x
    return 0


cdef double drawn_chance(const unsigned char* cards, int p, const double* fall_b,
                         const double* inv_fall_n, int* drawn) noexcept nogil:
    """P(the cards of a union but the two pair cards (rank index ``p``; -1: all the cards)
    come first, in a given order) from the shoe whose falling counts are ``fall_b[r *
    (UMAX + 1) + k]`` (0 past a rank's table) and ``inv_fall_n[k]`` = 1 / (N)_k;
    ``drawn``: their number, set."""
    cdef int r, k, n = 0
    cdef double f = 1.0
    for r in range(NR):
        k = cards[r] - 2 * (r == p)
        n += k
        f *= fall_b[r * (UMAX + 1) + k]
    drawn[0] = n
    return f * inv_fall_n[n]


cdef int falling_tables(const int* shoe, int p, const int* kmax, int nmax, double* fall_b,
                        double* inv_fall_n) noexcept nogil:
    """The tables of :func:`drawn_chance` for ``shoe`` less both pair cards (rank index
    ``p``; -1: the shoe as it is), up to ``kmax[r]`` cards of each rank and ``nmax`` in all
    (at most UMAX)."""
    cdef int r, k, N = 0, b
    for r in range(NR):
        b = shoe[r] - 2 * (r == p)
        N += b
        fall_b[r * (UMAX + 1)] = 1.0
        for k in range(1, UMAX + 1):
            fall_b[r * (UMAX + 1) + k] = fall_b[r * (UMAX + 1) + k - 1] * (b - k + 1) \
                if k <= kmax[r] and b - k + 1 > 0 else 0.0
    inv_fall_n[0] = 1.0
    for k in range(1, UMAX + 1):
        inv_fall_n[k] = inv_fall_n[k - 1] / (N - k + 1) if k <= nmax and N - k + 1 > 0 \
            else 0.0
    return 0


cdef struct MomentTab:
    int n               # unions
    unsigned char* cards  # n * NR: both hands' cards, pair cards included
    double* h           # n * NOUT: orders(t1) orders(t2) (r1 + 1)(r2 + 1), summed per union
    int ref[NR]         # the reference shoe less both pair cards
    int kmax[NR]        # most cards of each rank drawn (pair cards aside) in a union
    int nmax            # most cards drawn in a union
    int drule


cdef class SplitMomentTable:
    """The cross sums of one split round's second moment, once for every shoe (read-only
    once made; see :func:`split_moment_table`).

    With the split hands' codes fixed, P(t1, t2) = orders(t1) orders(t2) F(drawn), F(d)
    the chance that the cards ``d`` come first in a given order: which draw orders lead to
    an end depends on the codes only, and every order of the same cards is as likely
    (exchangeability). So per union u of the two hands' cards the table keeps h(u) =
    sum over its (t1, t2) of orders(t1) orders(t2) (r1 + 1)(r2 + 1) per dealer outcome,
    and for a shoe S, S = sum_u F_S(u) <D_S(u), h(u)>: one dealer evaluation per union
    and no look-up. It is made on a reference shoe and holds for every shoe with no
    more cards of any rank (no union they can deal is missing).
    """
    cdef MomentTab t
    cdef object params
    cdef object second
    cdef bytes codes

    cdef int pair
    cdef int up

    def __cinit__(self):
        self.t.n = 0
        self.t.cards = NULL
        self.t.h = NULL

    def __dealloc__(self):
        free(self.t.cards)
        free(self.t.h)

    @property
    def unions(self):
        """Distinct unions of both hands' cards kept (each one dealer evaluation a use)."""
        return self.t.n

    @property
    def nbytes(self):
        """Bytes the table holds."""
        return self.t.n * (NR + NOUT * sizeof(double))

    def unions_cards(self):
        """The unions' rank counts (both hands' cards, pair cards included), in table order."""
        return [tuple([self.t.cards[i * NR + r] for r in range(NR)]) for i in range(self.t.n)]

    def fits(self, const int[:] base, int pair, int up, params, const char[:] codes,
             second_params=None):
        """Whether :func:`split_moments` may use this table for these arguments."""
        cdef int r
        if codes is None or pair != self.pair or up != self.up or base is None \
                or base.shape[0] != NR:
            return False
        for r in range(NR):
            if base[r] - 2 * (r == pair - 1) > self.t.ref[r]:
                return False
        return params == self.params and (params if second_params is None
                                          else second_params) == self.second \
            and bytes(codes) == self.codes


cdef int read_split_round(const int[:] base, int pair, int up, params, second_params,
                          const char[:] codes, Params* P, Params* P2,
                          bint replace_ok=False) except -1:
    """Read and check the arguments of one split round's moments (:func:`split_moments`,
    :func:`split_moment_table`; ``replace_ok``: :func:`resplit_moment_rows`, which takes
    an infinite deck): 1 when the dealer cannot run out of cards whatever both hands draw
    (always, drawing with replacement), else 0 (no exact moments from the identities)."""
    cdef int r, n = 0, most = 0
    read_params(params, P)
    read_params(params if second_params is None else second_params, P2)
    if not replace_ok:
        finite_only(P, "a split round's moments")
    if P2.drule != P.drule or P2.mode != P.mode:
        raise ValueError("the two hands' parameters must share the game")
    if P.nsuit > 0 or P2.nsuit > 0:
        raise ValueError("split hands that know their suits: use split_distribution")
    check_pair(base, pair)
    check_up(up)
    check_codes(codes, "codes")
    for r in range(n_nodes):
        if node_ncards[r] > most:
            most = node_ncards[r]
    for r in range(NR):
        n += base[r]
    if P.replace:
        return 1
    return 1 if n - 2 * (most + 1) >= longest_hand[P.drule] else 0


def split_moment_table(const int[:] base, int pair, int up, params, const char[:] codes,
                       second_params=None):
    """The :class:`SplitMomentTable` of a split round whose hands play ``codes`` (fixed:
    the table is for every shoe), made on ``base`` (the shoe with both pair cards in it,
    up card gone; later shoes must have no more of any rank). The other arguments as
    :func:`split_moments`; None where it would return None (a shoe the dealer could run
    out of)."""
    cdef Params P, P2
    cdef SplitRound w
    cdef Ctx* ca
    cdef Ctx* cb
    cdef Ctx* cs
    cdef int r, i, k, na = 0, got = 0, p = pair - 1, cap = 20000, n1
    cdef bint symmetric
    cdef UnionSum acc
    cdef SplitMomentTable table
    cdef MomentTab* t
    cdef double fall_b[NR * (UMAX + 1)]
    cdef double inv_fall_n[UMAX + 1]
    cdef double f
    cdef int full[NR]
    if codes is None:
        raise ValueError("a split moment table is for fixed codes")
    if not read_split_round(base, pair, up, params, second_params, codes, &P, &P2):
        return None
    n1 = node_child[0][p]
    acc.keys = NULL
    acc.slot_of = NULL
    acc.cards = NULL
    acc.h = NULL
    try:
        split_round_open(&w, None, &base[0], p, up, &P, &P2, cap, cap)
        if usum_init(&acc) != 0:
            raise MemoryError()
        ca = &w.ca
        cb = &w.cb
        cs = &w.cs
        symmetric = same_hands(&P, &P2, ca, cb, &codes[0], &codes[0])
        with nogil:
            na = propagate(ca, n1, 1.0, &codes[0], True, P.double_ok, P.das,
                           P.aces_one_card, w.ta, cap, w.mass)
            if na >= 0:
                got = split_cross(ca, cb, cs, &base[0], n1, &P2, &codes[0], symmetric,
                                  w.ta, na, w.tb, cap, w.mass, &acc, NULL)
        check_cards(cs)
        if na < 0 or got == -1:
            raise MemoryError("too many terminal hands")
        if got != 0:
            raise MemoryError()
        table = SplitMomentTable()
        table.pair = pair
        table.up = up
        table.params = params
        table.second = params if second_params is None else second_params
        table.codes = bytes(codes)
        t = &table.t
        t.drule = P.drule
        t.nmax = 0
        for r in range(NR):
            t.ref[r] = base[r] - 2 * (r == p)
            t.kmax[r] = 0
        for i in range(acc.n):
            k = 0
            for r in range(NR):
                full[r] = acc.cards[i * NR + r] - 2 * (r == p)
                k += full[r]
                if full[r] > t.kmax[r]:
                    t.kmax[r] = full[r]
            if k > t.nmax:
                t.nmax = k
        if t.nmax > UMAX:  # (cannot happen: UMAX holds two longest hands)
            raise RuntimeError("two split hands hold more cards than the factor tables")
        falling_tables(&base[0], p, t.kmax, t.nmax, fall_b, inv_fall_n)
        for i in range(acc.n):  # to orders(t1) orders(t2) (r1 + 1)(r2 + 1): shoe-free
            f = drawn_chance(&acc.cards[i * NR], p, fall_b, inv_fall_n, &k)
            for r in range(NOUT):
                acc.h[i * NOUT + r] /= f
        t.n = acc.n
        t.cards = acc.cards
        t.h = acc.h
        acc.cards = NULL
        acc.h = NULL
    finally:
        split_round_close(&w)
        usum_free(&acc)
    return table


cdef int union_sums(const unsigned char* cards, int n, const int* start, const int* which,
                    const double* h, const int* kmax, int nmax, int p, const int* base,
                    int up, int drule, double* lanes, double* S) noexcept nogil:
    """``S[which[e]] +=`` chance(u) <D(u), h[e]> for every union u (``cards[i * NR ..]``,
    ``i < n``) and each of its entries e (``start[i] <= e < start[i + 1]``; ``start``
    NULL: entry i of table 0), D(u) the dealer's law (up card ``up``) from ``base`` (up
    card gone) less u, one evaluation per union the shoe can deal, LANES at a time.
    chance(u): P(u's cards but two of rank index ``p`` come first, in a given order) from
    ``base`` less those two (p -1: all of u's cards, from ``base``); ``kmax``, ``nmax``:
    the most cards of each rank and in all that it counts. ``lanes``: LANES *
    :func:`tree_scratch_size` doubles. Returns -1 if out of memory.

    The dealer's factors of a union's shoe (:func:`tree_eval_lanes`) depend on its count
    of each rank and its number of cards only, so they are made once per count (``ftab``)
    and per number (``dtab``) for all the unions."""
    cdef double fall_b[NR * (UMAX + 1)]
    cdef double inv_fall_n[UMAX + 1]
    cdef double rows[LANES * NOUT]
    cdef double fw[LANES]
    cdef int pick[LANES]
    cdef int shoes[LANES * NR]
    cdef const double* frows[LANES * NR]
    cdef const double* dtabs[LANES]
    cdef int i, r, o, e, k, l, c, total = 0, m = 0, kept = 0
    cdef double f, x
    cdef const unsigned char* u
    cdef const UTree* tree
    cdef double* ftab = NULL
    cdef double* dtab = NULL
    falling_tables(base, p, kmax, nmax, fall_b, inv_fall_n)
    for r in range(NR):
        total += base[r]
    # the fewest cards any of these shoes holds picks the tree (the caller has checked
    # that the dealer cannot run out of them)
    tree = up_tree_for(drule, total + 1 - (nmax + (2 if p >= 0 else 0)), up - 1)
    # (kmax and nmax leave out the two pair cards when p >= 0; a union holds them)
    ftab = <double*>malloc(NR * (UMAX + 3) * KMAX * sizeof(double))
    dtab = <double*>malloc((nmax + 3) * (KMAX + 1) * (KMAX + 1) * sizeof(double))
    if ftab == NULL or dtab == NULL:
        free(ftab)
        free(dtab)
        return -1
    for r in range(NR):  # ftab[(r, c)]: rank r's factors with c of them in the union
        for c in range(kmax[r] + 2 * (r == p) + 1):
            falling_row(base[r] + (r == up - 1) - c, tree.kmax[r],
                        &ftab[(r * (UMAX + 3) + c) * KMAX])
    for c in range(nmax + (2 if p >= 0 else 0) + 1):  # dtab[c]: with c cards in the union
        total_table(total + 1 - c, tree.ncards_max, &dtab[c * (KMAX + 1) * (KMAX + 1)])
    for i in range(n + 1):
        if i < n:
            u = &cards[i * NR]
            f = drawn_chance(u, p, fall_b, inv_fall_n, &k)
            if f == 0.0:
                continue
            c = 0
            for r in range(NR):
                shoes[m * NR + r] = base[r] - u[r] + (r == up - 1)
                frows[m * NR + r] = &ftab[(r * (UMAX + 3) + u[r]) * KMAX]
                c += u[r]
            dtabs[m] = &dtab[c * (KMAX + 1) * (KMAX + 1)]
            fw[m] = f
            pick[m] = i
            m += 1
            if m < LANES:
                continue
        if m == 0:
            break
        kept = m
        for l in range(m, LANES):  # a part-filled last batch: pad with its first shoe
            memcpy(&shoes[l * NR], shoes, NR * sizeof(int))
            memcpy(&frows[l * NR], frows, NR * sizeof(double*))
            dtabs[l] = dtabs[0]
        tree_eval_lanes(tree, shoes, up - 1, lanes, rows, frows, dtabs)
        for l in range(kept):
            for e in range(start[pick[l]] if start != NULL else pick[l],
                           start[pick[l] + 1] if start != NULL else pick[l] + 1):
                x = 0.0
                for o in range(NOUT):
                    x += rows[l * NOUT + o] * h[e * NOUT + o]
                S[which[e] if which != NULL else 0] += fw[l] * x
        m = 0
    free(ftab)
    free(dtab)
    return 0


cdef class SplitMomentGroup:
    """The tables of several split rounds against one up card with their unions merged
    (:func:`split_moment_group`): one dealer evaluation per distinct union serves every
    round that deals it (:func:`split_cross_sums`). Read-only once made."""
    cdef int n               # distinct unions
    cdef int m               # (table, union) entries
    cdef int ntab
    cdef int up
    cdef int drule
    cdef int kmax[NR]        # most cards of each rank in a union (pair cards included)
    cdef int nmax            # most cards in a union
    cdef unsigned char* cards  # n * NR
    cdef int* start          # n + 1: each union's entries
    cdef int* which          # m: the entry's table
    cdef double* h           # m * NOUT: the entry's sums (as its table keeps them)
    cdef int pair[GROUP_MAX]  # each table's pair rank (1..10), in the order of the sums
    cdef int ref[GROUP_MAX][NR]  # ... and its reference shoe less both pair cards

    def __cinit__(self):
        self.n = self.m = self.ntab = 0
        self.cards = NULL
        self.start = NULL
        self.which = NULL
        self.h = NULL

    def __dealloc__(self):
        free(self.cards)
        free(self.start)
        free(self.which)
        free(self.h)

    @property
    def unions(self):
        """Distinct unions over the tables (dealer evaluations a use)."""
        return self.n

    @property
    def pairs(self):
        """Each table's pair rank (1..10), in the order of :func:`split_cross_sums`."""
        return tuple([self.pair[k] for k in range(self.ntab)])

    @property
    def nbytes(self):
        """Bytes the group holds (it keeps no reference to its tables)."""
        return self.n * (NR + sizeof(int)) + self.m * (sizeof(int) + NOUT * sizeof(double))


def split_moment_group(tables):
    """A :class:`SplitMomentGroup` of ``tables`` (:class:`SplitMomentTable`, one up card
    and one soft-17 rule, at most one per pair and split hands' parameters). It copies
    what it needs: the tables may be dropped afterwards."""
    cdef SplitMomentGroup g = SplitMomentGroup()
    cdef SplitMomentTable t
    cdef KeyMap map
    cdef uint64_t key
    cdef long long slot
    cdef int i, k, r, e, total = 0, log2cap = 10, tot
    cdef int* fill = NULL
    cdef int* idx = NULL
    cdef int pos
    tables = tuple(tables)
    if not 0 < len(tables) <= GROUP_MAX:
        raise ValueError(f"a split moment group has 1 to {GROUP_MAX} tables")
    for x in tables:
        if not isinstance(x, SplitMomentTable):
            raise TypeError("a split moment group is made of SplitMomentTable objects")
        t = x
        if t.up != (<SplitMomentTable>tables[0]).up or t.t.drule != (<SplitMomentTable>tables[0]).t.drule:
            raise ValueError("the tables of a split moment group share the up card and the game")
        total += t.t.n
    t = tables[0]
    g.up = t.up
    g.drule = t.t.drule
    g.ntab = len(tables)
    for k, x in enumerate(tables):
        t = x
        g.pair[k] = t.pair
        memcpy(g.ref[k], t.t.ref, NR * sizeof(int))
    while (1 << log2cap) < 2 * total + 2:
        log2cap += 1
    if keymap_init(&map, log2cap, 1) != 0:
        keymap_free(&map)
        raise MemoryError()
    try:
        idx = <int*>malloc((total + 1) * sizeof(int))
        g.cards = <unsigned char*>malloc((total + 1) * NR)
        if idx == NULL or g.cards == NULL:
            raise MemoryError()
        # merged index of every (table, union), first seen first
        e = 0
        for x in tables:
            t = x
            for i in range(t.t.n):
                key = 1
                for r in range(NR):
                    key += (<uint64_t>t.t.cards[i * NR + r]) << (6 * r)
                slot = keymap_slot(&map, key)
                if map.out[slot] == 0:
                    g.n += 1
                    map.out[slot] = g.n
                    memcpy(&g.cards[(g.n - 1) * NR], &t.t.cards[i * NR], NR)
                idx[e] = map.out[slot] - 1
                e += 1
        g.m = e
        g.start = <int*>calloc(g.n + 1, sizeof(int))
        fill = <int*>malloc((g.n + 1) * sizeof(int))
        g.which = <int*>malloc((g.m + 1) * sizeof(int))
        g.h = <double*>malloc((g.m + 1) * NOUT * sizeof(double))
        if g.start == NULL or fill == NULL or g.which == NULL or g.h == NULL:
            raise MemoryError()
        for e in range(g.m):
            g.start[idx[e] + 1] += 1
        for i in range(g.n):
            g.start[i + 1] += g.start[i]
        memcpy(fill, g.start, g.n * sizeof(int))
        e = 0
        for k, x in enumerate(tables):
            t = x
            for i in range(t.t.n):
                pos = fill[idx[e]]
                fill[idx[e]] += 1
                g.which[pos] = k
                memcpy(&g.h[pos * NOUT], &t.t.h[i * NOUT], NOUT * sizeof(double))
                e += 1
        g.nmax = 0
        for r in range(NR):
            g.kmax[r] = 0
        for i in range(g.n):
            tot = 0
            for r in range(NR):
                tot += g.cards[i * NR + r]
                if g.cards[i * NR + r] > g.kmax[r]:
                    g.kmax[r] = g.cards[i * NR + r]
            if tot > g.nmax:
                g.nmax = tot
        if g.nmax > UMAX:  # (cannot happen: UMAX holds two longest hands)
            raise RuntimeError("two split hands hold more cards than the factor tables")
    finally:
        keymap_free(&map)
        free(idx)
        free(fill)
    return g


def split_cross_sums(SplitMomentGroup group, const int[:] base):
    """Each table's cross sum S (as :func:`split_moments` takes it, ``cross``) for the shoe
    ``base`` (up card gone; every table's pair cards in it, no more of any rank than its
    reference). With G(u) = P(the cards u come first, in a given order) from ``base``,
    F(u less the pair cards) from ``base`` less both pair cards is G(u) N (N - 1) /
    (n_p (n_p - 1)), N the cards of ``base`` and n_p its cards of the pair's rank: so one
    G and one dealer evaluation per union serve every table that holds it. None for a
    shoe so small that the dealer could run out of cards, or with more cards of some rank
    than a table was made for (then each round on its own: :func:`split_moments`)."""
    cdef int r, k, n = 0, p, up = group.up
    cdef int got = 0
    cdef double nb
    cdef double* S = NULL
    cdef double* lanes = NULL
    check_shoe(base)
    for k in range(group.ntab):
        p = group.pair[k] - 1
        for r in range(NR):
            if base[r] - 2 * (r == p) > group.ref[k][r] or (r == p and base[r] < 2):
                return None  # (a shoe with more of some rank than a table was made for)
    for r in range(NR):
        n += base[r]
    if n - (group.nmax - 1) < longest_hand[group.drule]:
        return None  # (the dealer could run out of cards: split_moments' None too)
    S = <double*>calloc(group.ntab, sizeof(double))
    lanes = <double*>malloc(LANES * tree_scratch_size() * sizeof(double))
    if S == NULL or lanes == NULL:
        free(S)
        free(lanes)
        raise MemoryError()
    try:
        with nogil:
            # G(u): the chance of all of u's cards (pair cards counted, p = -1)
            got = union_sums(group.cards, group.n, group.start, group.which, group.h,
                             group.kmax, group.nmax, -1, &base[0], up, group.drule, lanes, S)
        if got != 0:
            raise MemoryError()
        out = []
        for k in range(group.ntab):
            p = group.pair[k] - 1
            nb = <double>base[p]
            out.append(S[k] * (<double>n * (n - 1)) / (nb * (nb - 1.0)))
        return tuple(out)
    finally:
        free(S)
        free(lanes)


def split_moments(const int[:] base, int pair, int up, params, const char[:] codes,
                  DealerMemo memo=None, second_params=None, SplitMomentTable table=None,
                  cross=None):
    """``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a split round's net result X, raw
    (peek: only the outcomes with no dealer blackjack, as :func:`split_distribution`).

    The same round as :func:`split_distribution` (its arguments; split hands that know
    their suits are not taken), with far fewer dealer look-ups. X = X1 + X2, and:

    * E[X1^2] and E[X2^2] need each hand alone: whatever hand 2 does, the dealer's law
      given hand 1's end t1 is D(shoe - t1 - hand 2's pair card) (the hands' and the
      dealer's cards are blocks of one exchangeable deal; any order of them gives the
      same joint law), and likewise for hand 2 dealt as if first.
    * E[X1 X2]: write r1 r2 = (r1 + 1)(r2 + 1) - (r1 + 1) - (r2 + 1) + 1 against each
      dealer outcome. By the same exchangeability, summing D(t1 + t2) over hand 2's ends
      gives D(t1 + pair card 2), and over both hands' ends the dealer's whole law, so
      the last three terms add up to -(E[X1] + M) - (E[X2] + M) + M, M the outcomes'
      mass (1, or P(no blackjack) in peek), and E[X1 X2] = S - E[X1] - E[X2] - M with
      S = sum_t1,t2 P(t1, t2) <D(t1 + t2), (r1 + 1)(r2 + 1)>. A hand end that busts on its
      original bet (r = -1 against every dealer hand) adds nothing to S: hand 1's need
      no hand-2 pass, hand 2's no look-up. When the hands play and settle alike the
      joint law is symmetric, P(t1, t2) = P(t2, t1), and S is twice the pairs with
      t2 before t1 (in the order of ``cmp_term``) plus the pairs of equal ends.

    ``table`` (a :class:`SplitMomentTable` made for these arguments and a shoe with
    at least these cards): S from it, one dealer evaluation per union of the hands'
    cards instead of the pairs of ends; ``cross``: S itself, already summed for this shoe
    (:func:`split_cross_sums`; the caller vouches that it is this round's). Exact when the dealer cannot run out of cards;
    for a shoe so small that he could, None (use :func:`split_distribution`).
    """
    cdef Params P, P2
    cdef SplitRound w
    cdef Ctx* ca
    cdef Ctx* cb
    cdef Ctx* cs
    cdef int na = 0, nb = 0, p = pair - 1, cap = 20000, n1, got = 0, big
    cdef Term* ta
    cdef Term* tb
    cdef double* mass
    cdef const char* code_a
    cdef const char* code_b
    cdef const MomentTab* tab = NULL
    cdef double* lanes = NULL
    cdef bint given = False
    cdef double one[4]
    cdef double two[4]
    cdef double S = 0.0, x
    cdef bint symmetric = False
    big = read_split_round(base, pair, up, params, second_params, codes, &P, &P2)
    if table is not None and not table.fits(base, pair, up, params, codes, second_params):
        raise ValueError("the split moment table was made for another round or a shoe with"
                         " fewer cards")
    if table is not None:
        tab = &table.t
    if cross is not None:
        if table is not None or codes is None or not isfinite(cross):
            raise ValueError("cross is the finite S of a round with fixed codes, given"
                             " instead of its table")
        S = cross
        given = True
    if not big:
        return None
    n1 = node_child[0][p]
    one[0] = one[1] = one[2] = one[3] = 0.0
    two[0] = two[1] = two[2] = two[3] = 0.0
    try:
        split_round_open(&w, memo, &base[0], p, up, &P, &P2, cap, cap)
        ca = &w.ca
        cb = &w.cb
        cs = &w.cs
        # a caller's every-up-card memo: this up card's rows alone while that is cheaper
        # (dmemo_fill's rent-or-buy rule; the same doubles either way)
        ca.lazy = cb.lazy = cs.lazy = memo is not None
        ta = w.ta
        tb = w.tb
        mass = w.mass
        with nogil:
            if codes is None:
                freeze_own_play(ca, cb, p, &P, &P2, w.frozen_a, w.frozen_b)
                code_a = w.frozen_a
                code_b = w.frozen_b
            else:
                code_a = &codes[0]
                code_b = &codes[0]
            # hand 2 alone (dealt as if first: the same law): E[X2], E[X2^2], its blackjack part
            nb = propagate(cb, n1, 1.0, code_b, True, P2.double_ok, P2.das, P2.aces_one_card,
                           tb, cap, mass)
            if nb >= 0:
                one_hand_moments(cs, tb, nb, p, cb.bjl1, cb.bjl2, two)
            na = propagate(ca, n1, 1.0, code_a, True, P.double_ok, P.das, P.aces_one_card,
                           ta, cap, mass)
            if na >= 0 and nb >= 0:
                one_hand_moments(cs, ta, na, p, ca.bjl1, ca.bjl2, one)
            if given:
                pass
            elif tab != NULL:
                lanes = <double*>malloc(LANES * tree_scratch_size() * sizeof(double))
                if lanes == NULL:
                    cs.failed = True
                else:
                    if union_sums(tab.cards, tab.n, NULL, NULL, tab.h, tab.kmax, tab.nmax, p,
                                  &base[0], up, tab.drule, lanes, &S) != 0:
                        cs.failed = True
                    free(lanes)
            elif na >= 0 and nb >= 0:
                symmetric = same_hands(&P, &P2, ca, cb, code_a, code_b)
                got = split_cross(ca, cb, cs, &base[0], n1, &P2, code_b, symmetric, ta, na,
                                  tb, cap, mass, NULL, &S)
        check_cards(cs)
    finally:
        split_round_close(&w)
    if na < 0 or nb < 0 or got != 0:
        raise MemoryError("too many terminal hands")
    x = S - one[0] - two[0] - one[3]
    return one[0] + two[0], one[1] + two[1] + 2.0 * x, one[2] + two[2]


def split_play(const int[:] base, int pair, int up, params, DealerMemo memo=None,
               bint second_hand=False):
    """The decisions of one split hand that plays for its own cards, the pair and the up
    card (cdp1: as :func:`split_distribution` plays them without codes). ``second_hand``:
    the hand after the first, which takes the second hand's blackjack losses.

    ``base``: the shoe with both pair cards in it (up card gone). Returns ``(codes,
    suited)``: per node, bit 1 double (its first two cards), 2 hit, 4 stand, for every
    node the hand can reach; and for a split 6, 7 or 8 that knows its suits
    (``split_suits``), its two-card code when its second card is another of them:
    ``suited[8 * (second card - 6) + 2 * suit case + (0 if it has the pair card's suit
    else 1)]`` (0 where not reached).
    """
    cdef Params P
    cdef Ctx c
    cdef int b1[NR]
    cdef int r, p = pair - 1
    cdef char* frozen = NULL
    cdef DMemo local
    cdef DMemo* m
    cdef bint made = False
    read_params(params, &P)
    check_pair(base, pair)
    check_up(up)
    for r in range(NR):  # (with replacement no card is gone)
        b1[r] = base[r] - (0 if P.replace else (r == p))
    local.keys = NULL
    m = own_or_given(None if P.replace else memo, &local, &base[0], up, P.drule)
    try:
        frozen = <char*>calloc(n_nodes, sizeof(char))
        if frozen == NULL:
            raise MemoryError()
        ctx_init(&c, b1, up, &P, second_hand, m)
        made = True
        c.offset[p] = 1
        c.shift_rank = p
        c.shift_count = 1
        with nogil:
            split_hand(&c, p, P.double_ok, P.das, P.aces_one_card, NULL)
            record_codes(&c, p, P.double_ok, P.das, frozen)
        check_cards(&c)
        codes = bytes(frozen[:n_nodes])
        suited = bytes([c.suit_code[x][k][j] for x in range(3) for k in range(4)
                        for j in range(2)])
    finally:
        if made:
            ctx_free(&c)
        if m == &local:
            dmemo_free(&local)
        else:
            memo_release(m)
        free(frozen)
    return codes, suited


def split_postsplit(const int[:] base, int pair, int up, params, second_params=None):
    """Raw values ``(first, second)`` of a single split where the second hand sees the first.

    The first hand plays as in :func:`split_tables` (its own cards, the pair,
    the up card); the second hand plays the best composition-dependent
    strategy for everything seen by then: the pair, the up card and all the
    first hand's cards ("post-split composition-dependent"). Exact: the
    second hand is valued afresh for every way the first hand can end.
    ``base``: the shoe with both pair cards in (up card gone). Same scale as
    :func:`hand_values`. ``second_params``: the second hand's parameters where they
    differ (its pair card's suited 6-7-8 chance); default ``params``.
    """
    cdef Params P, P2
    cdef Ctx ca, cb
    cdef int b1[NR]
    cdef int r, i, j, na = 0, p = pair - 1, cap = 20000, n1
    cdef Term* ta = NULL
    cdef double* mass = NULL
    cdef char* frozen = NULL
    cdef double first = 0.0, second = 0.0, m
    cdef DMemo local
    cdef DMemo* dm
    cdef bint made_a = False, made_b = False
    read_params(params, &P)
    read_params(params if second_params is None else second_params, &P2)
    finite_only(&P, "the split where the second hand sees the first (postsplit)")
    if P2.drule != P.drule or P2.mode != P.mode:
        raise ValueError("the two hands' parameters must share the game")
    check_pair(base, pair)
    check_up(up)
    for r in range(NR):
        b1[r] = base[r] - (r == p)
    n1 = node_child[0][p]
    local.keys = NULL
    dm = own_or_given(None, &local, &base[0], up, P.drule)
    try:
        ta = <Term*>malloc(cap * sizeof(Term))
        mass = <double*>malloc(n_nodes * sizeof(double))
        frozen = <char*>calloc(n_nodes, sizeof(char))
        if ta == NULL or mass == NULL or frozen == NULL:
            raise MemoryError()
        ctx_init(&ca, b1, up, &P, False, dm)
        made_a = True
        ctx_init(&cb, b1, up, &P2, True, dm)
        made_b = True
        ca.suit_play = 2
        ca.offset[p] = 1
        ca.shift_rank = p
        ca.shift_count = 1
        cb.shift_count = -1
        with nogil:
            first = split_hand(&ca, p, P.double_ok, P.das, P.aces_one_card, NULL)
            record_codes(&ca, p, P.double_ok, P.das, frozen)
            na = propagate(&ca, n1, 1.0, frozen, True, P.double_ok, P.das, P.aces_one_card,
                           ta, cap, mass)
            for i in range(na if na > 0 else 0):
                m = ta[i].mass
                if m == 0.0:
                    continue
                # merge the later ends that leave the same cards (same second-hand value)
                for j in range(i + 1, na):
                    if ta[j].mass != 0.0 and ta[j].node == ta[i].node \
                            and ta[j].extra == ta[i].extra:
                        m += ta[j].mass
                        ta[j].mass = 0.0
                hand_two_after(&cb, &base[0], &ta[i])
                second += m * split_hand(&cb, p, P.double_ok, P.das, P.aces_one_card, NULL)
        check_cards(&ca)
        check_cards(&cb)
    finally:
        if made_a:
            ctx_free(&ca)
        if made_b:
            ctx_free(&cb)
        dmemo_free(&local)
        free(ta)
        free(mass)
        free(frozen)
    if na < 0:
        raise MemoryError("too many terminal hands")
    return first, second
