# The dealer memo: dealer distributions kept by the cards removed from one origin
# shoe (DMemo, the caller-owned DealerMemo), so a pass evaluates each once.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

# ------------------------------------------------------------- dealer memo
cdef struct EntryRows:  # a DMemo entry's rows, as bits (bit u: up card u)
    unsigned short have   # computed (ALL_UPS: every row)
    unsigned short want   # asked for while deferring (DealerMemo.node_wants)
    unsigned short rent   # computed one up card at a time (dmemo_fill)


cdef struct DMemo:
    int origin[NR]      # the shoe the removals are counted from (up card(s) in it)
    int drule
    int up              # -1: rows for every up card; else the rank index kept
    int stride          # doubles per entry (ROWS or NOUT)
    uint64_t* keys      # slots: packed removal + 1; 0 = empty
    int* entry          # slot -> entry index
    uint64_t mask
    long long used
    double* vals        # entries * stride
    EntryRows* rows_of  # per entry: which of its rows are computed, wanted, rented
    bint deferring      # rows asked for are noted, not computed (a placeholder is copied)
    long long walks[3]  # tree walks made: of every up card, of one, of several (hints)
    const unsigned short* hint  # per player node: the up cards its rows are wanted against
    long long cap
    double* buf         # tree scratch
    double* lbuf        # ... of LANES shoes (dmemo_batch), made on first use
    double rows[ROWS]   # ... and its output (single-up memos)
    int* node_entry     # entry of each player node's removal, -1 until computed
    bint busy
    int n_origin        # the origin's cards
    double* fc          # falling rows kept (dmemo_frow): [r * FC_KEPT + origin[r] - count]
    unsigned char* fc_made
    double* dc          # falling-total tables kept (dmemo_dtab): [n_origin - N]
    unsigned char* dc_made


cdef enum:
    FC_KEPT = 32        # counts of each rank below the origin's whose falling rows are kept
    DC_KEPT = 32        # shoe sizes below the origin's whose falling-total tables are kept
    DC_SIZE = (KMAX + 1) * (KMAX + 1)


cdef double* cache_lines(size_t n) noexcept nogil:
    """``n`` doubles starting on a 64-byte boundary (free them with ``free``), or NULL: a
    dealer row (NOUT doubles, 64 bytes) of a memo then lies in one cache line, not two."""
    cdef void* p = NULL
    if posix_memalign(&p, 64, n * sizeof(double) if n > 0 else 64) != 0:
        return NULL
    return <double*>p


cdef int dmemo_init(DMemo* m, const int* origin, int drule, int up,
                    int reserve=0) noexcept nogil:
    """``up``: 0 keeps every up card's row, 1..10 only that one; ``reserve``: entries to make
    room for at once (their rows are not copied as the memo grows; untouched pages cost
    nothing). Returns -1 if out of memory."""
    cdef int r, log2slots = 12
    for r in range(NR):
        m.origin[r] = origin[r]
    m.drule = drule
    m.up = up - 1
    m.stride = ROWS if up == 0 else NOUT
    while (1 << log2slots) < 2 * reserve + 2 and log2slots < 30:
        log2slots += 1
    m.mask = (1ULL << log2slots) - 1
    m.used = 0
    m.cap = reserve if reserve > 1024 else 1024
    m.busy = False
    m.keys = <uint64_t*>calloc(m.mask + 1, sizeof(uint64_t))
    m.entry = <int*>malloc((m.mask + 1) * sizeof(int))
    m.vals = cache_lines(m.cap * m.stride)
    m.rows_of = <EntryRows*>malloc(m.cap * sizeof(EntryRows))
    m.deferring = False
    m.walks[0] = m.walks[1] = m.walks[2] = 0
    m.hint = NULL
    m.buf = <double*>malloc(tree_scratch_size() * sizeof(double))
    m.lbuf = NULL
    m.node_entry = <int*>malloc(n_nodes * sizeof(int))
    m.n_origin = 0
    for r in range(NR):
        m.n_origin += origin[r]
    m.fc = NULL
    m.fc_made = NULL
    m.dc = NULL
    m.dc_made = NULL
    if m.keys == NULL or m.entry == NULL or m.vals == NULL or m.buf == NULL \
            or m.node_entry == NULL or m.rows_of == NULL:
        return -1
    for r in range(n_nodes):
        m.node_entry[r] = -1
    return 0


cdef void dmemo_free(DMemo* m) noexcept nogil:
    free(m.keys)
    free(m.entry)
    free(m.vals)
    free(m.rows_of)
    free(m.buf)
    free(m.lbuf)
    free(m.node_entry)
    free(m.fc)
    free(m.fc_made)
    free(m.dc)
    free(m.dc_made)
    m.fc = NULL
    m.fc_made = NULL
    m.dc = NULL
    m.dc_made = NULL
    m.keys = NULL
    m.entry = NULL
    m.vals = NULL
    m.rows_of = NULL
    m.buf = NULL
    m.lbuf = NULL
    m.node_entry = NULL


cdef int rehash_double(uint64_t** keys, int** kept, uint64_t* mask) noexcept nogil:
    """Double an open-addressing table of packed keys (0: empty slot) and the int kept
    per slot, in place. Returns -1 if out of memory (the table is left as it was)."""
    cdef uint64_t newmask = (mask[0] << 1) | 1, slot, i
    cdef uint64_t* new_keys = <uint64_t*>calloc(newmask + 1, sizeof(uint64_t))
    cdef int* new_kept = <int*>malloc((newmask + 1) * sizeof(int))
    if new_keys == NULL or new_kept == NULL:
        free(new_keys)
        free(new_kept)
        return -1
    for i in range(mask[0] + 1):
        if keys[0][i] != 0:
            slot = mix(keys[0][i]) & newmask
            while new_keys[slot] != 0:
                slot = (slot + 1) & newmask
            new_keys[slot] = keys[0][i]
            new_kept[slot] = kept[0][i]
    free(keys[0])
    free(kept[0])
    keys[0] = new_keys
    kept[0] = new_kept
    mask[0] = newmask
    return 0


cdef int dmemo_grow(DMemo* m) noexcept nogil:
    """Double the slot table (rehash). Returns -1 if out of memory."""
    return rehash_double(&m.keys, &m.entry, &m.mask)


cdef inline void dmemo_walk(DMemo* m, long long idx, const int* shoe, const UTree* t,
                            int bits) noexcept nogil:
    """Walk ``t`` (a tree of the up cards ``bits`` or more) and keep entry ``idx``'s rows of
    the up cards ``bits``."""
    cdef int u
    tree_eval(t, shoe, m.buf, m.rows)
    for u in range(NR):
        if bits & (1 << u):
            memcpy(&m.vals[idx * ROWS + u * NOUT], &m.rows[u * NOUT], NOUT * sizeof(double))
    m.rows_of[idx].have |= bits
    m.walks[1 if bits & (bits - 1) == 0 else 2] += 1


cdef void dmemo_fill(DMemo* m, long long idx, const int* removed, int up_index,
                     bint lazy, int node) noexcept nogil:
    """Compute up card ``up_index``'s row of entry ``idx`` (an every-up-card memo).

    ``node``: the player node whose cards ``removed`` are, or -1. With a hint
    (:meth:`DealerMemo.hint`) that wants this node against this up card and others,
    one walk of the tree of the hinted up cards (:func:`set_tree`) gives all their rows.
    Else eager: every row at once (one walk of the all-up-cards tree). ``lazy``: that
    up card's tree alone while the single-card walks spent on the entry, this one
    included, cost no more than the all-up-cards walk, then every row: a rent-or-buy rule
    that never spends more than twice the cheaper of the two (a split hand's
    cards are often wanted against one or two up cards; an up-card pass's
    against five or ten). Both walks give the same doubles: an up card's tree
    is the all-up-cards tree's nodes and sums for that card, in the same order.
    """
    cdef int r, u, n = 0, b, bits
    cdef int shoe[NR]
    cdef int spent = 0
    cdef const UTree* t
    for r in range(NR):
        shoe[r] = m.origin[r] - removed[r]
        n += shoe[r]
    b = 0 if n >= longest_hand[m.drule] else 1
    if node >= 0 and m.hint != NULL:
        bits = m.hint[node] & ALL_UPS
        if bits & (1 << up_index) and bits != ALL_UPS:
            t = made_set_tree(m.drule, b, bits)
            if t != NULL:  # (made by DealerMemo.hint)
                dmemo_walk(m, idx, shoe, t, bits)
                return
        lazy = lazy and not bits & (1 << up_index)  # (hinted every up card: walk them all)
    if lazy:
        for u in range(NR):
            if m.rows_of[idx].rent & (1 << u):
                spent += tree_cost[m.drule][b][u + 1]
        if spent + tree_cost[m.drule][b][up_index + 1] <= tree_cost[m.drule][b][0]:
            dmemo_walk(m, idx, shoe, &up_trees[m.drule][b][up_index], 1 << up_index)
            m.rows_of[idx].rent |= 1 << up_index
            return
    tree_eval(&trees[m.drule][b], shoe, m.buf, &m.vals[idx * ROWS])
    m.walks[0] += 1
    m.rows_of[idx].have = ALL_UPS


cdef inline void dmemo_need(DMemo* m, long long idx, const int* removed, int up_index,
                            bint lazy, int node) noexcept nogil:
    """Make up card ``up_index``'s row of entry ``idx`` readable (an every-up-card memo):
    computed (:func:`dmemo_fill`), or while deferring noted and left a placeholder."""
    if m.rows_of[idx].have & (1 << up_index):
        return
    if m.deferring:
        m.rows_of[idx].want |= 1 << up_index
    else:
        dmemo_fill(m, idx, removed, up_index, lazy, node)


cdef long long dmemo_lookup(DMemo* m, const int* removed, bint* created) noexcept nogil:
    """Entry of the removal ``removed``, made if new (``created``: no row computed yet, or
    a placeholder row while deferring).

    Returns -1 if out of memory, -2 if ``removed`` cannot be packed (a rank
    count above 63; never for player hands).
    """
    cdef uint64_t key = 1, slot
    cdef int r
    cdef double* grown
    cdef EntryRows* grown_rows
    cdef long long idx
    created[0] = False
    for r in range(NR):
        if removed[r] > 63:
            return -2
        key += (<uint64_t>removed[r]) << (6 * r)
    slot = mix(key) & m.mask
    while m.keys[slot] != 0:
        if m.keys[slot] == key:
            return m.entry[slot]
        slot = (slot + 1) & m.mask
    if (m.used + 1) * 2 > <long long>m.mask:  # grow first: a failure leaves no half entry
        if dmemo_grow(m) != 0:
            return -1
        slot = mix(key) & m.mask
        while m.keys[slot] != 0:
            slot = (slot + 1) & m.mask
    if m.used == m.cap:
        grown = cache_lines(2 * m.cap * m.stride)  # (no aligned realloc: copied)
        if grown == NULL:
            return -1
        memcpy(grown, m.vals, m.used * m.stride * sizeof(double))
        free(m.vals)
        m.vals = grown
        grown_rows = <EntryRows*>realloc(m.rows_of, 2 * m.cap * sizeof(EntryRows))
        if grown_rows == NULL:
            return -1
        m.rows_of = grown_rows
        m.cap *= 2
    idx = m.used
    m.rows_of[idx].have = 0
    m.rows_of[idx].want = 0
    m.rows_of[idx].rent = 0
    if m.up < 0 and m.deferring:  # a placeholder (the dealer always busts), never marked computed
        memset(&m.vals[idx * ROWS], 0, ROWS * sizeof(double))
        for r in range(NR):
            m.vals[idx * ROWS + r * NOUT + OUT_BUST] = 1.0
    m.keys[slot] = key
    m.entry[slot] = <int>idx
    m.used += 1
    created[0] = True
    return idx


cdef long long dmemo_index(DMemo* m, const int* removed, int up_index,
                           bint lazy, int node) noexcept nogil:
    """Entry of the dealer distributions from ``origin - removed``, with up card
    ``up_index``'s row computed on first use (every row, unless ``lazy``: :func:`dmemo_fill`).

    Returns -1 if out of memory, -2 if ``removed`` cannot be packed (a rank
    count above 63; never for player hands).
    """
    cdef int r, n = 0
    cdef int shoe[NR]
    cdef bint created
    cdef long long idx = dmemo_lookup(m, removed, &created)
    if idx < 0:
        return idx
    if m.up < 0:
        dmemo_need(m, idx, removed, up_index, lazy, node)
    elif created:
        for r in range(NR):
            shoe[r] = m.origin[r] - removed[r]
            n += shoe[r]
        tree_eval(up_tree_for(m.drule, n, m.up), shoe, m.buf, m.rows)
        memcpy(&m.vals[idx * NOUT], &m.rows[m.up * NOUT], NOUT * sizeof(double))
        m.walks[1] += 1
    return idx


cdef inline bint dmemo_batches(const DMemo* m) noexcept nogil:
    """Whether :func:`dmemo_batch` computes ahead: an every-up-card memo that neither defers
    nor takes hints (whose walks are chosen per entry: :func:`dmemo_fill`)."""
    return m.up < 0 and not m.deferring and m.hint == NULL


cdef void dmemo_flush(DMemo* m, int b, const long long* idx, const int* shoes) noexcept nogil:
    """Every row of the LANES entries ``idx`` (shoes ``shoes``) by one walk of the tree
    ``trees[drule][b]``, four shoes at a time (:func:`tree_eval_all_lanes`)."""
    cdef double* rows[LANES]
    cdef int l
    for l in range(LANES):
        rows[l] = &m.vals[idx[l] * ROWS]
    tree_eval_all_lanes(&trees[m.drule][b], shoes, m.lbuf, rows)
    m.walks[0] += LANES


cdef int dmemo_batch(DMemo* m, const int* removed, const int* nodes, int count,
                     long long* entries) noexcept nogil:
    """Compute now every row of the removals ``removed[k * NR:(k + 1) * NR]`` (``k`` <
    ``count``) that the memo lacks, LANES at a time: for a caller about to ask for each
    of them (against any up card) from a memo that walks every up card's tree at once
    (:func:`dmemo_batches`; otherwise nothing is done). The rows are those
    :func:`dmemo_fill`'s walk would make, the same doubles (:func:`tree_eval_all_lanes`);
    only fewer instructions are spent on them. ``nodes[k]``: the player node whose
    cards removal ``k`` is (its entry is kept as :func:`dmemo_row_node` keeps it), or -1.
    ``entries[k]``: removal ``k``'s entry, or -2 if it cannot be packed (:func:`dmemo_lookup`).
    Returns -1 if out of memory.
    """
    cdef long long pend[2][LANES]
    cdef int shoes[2][LANES * NR]
    cdef int npend[2]
    cdef int k, r, b, n, l
    cdef long long idx
    cdef bint created
    for k in range(count):
        entries[k] = -2
    if not dmemo_batches(m):
        return 0
    if m.lbuf == NULL:
        m.lbuf = <double*>malloc(LANES * tree_scratch_size() * sizeof(double))
        if m.lbuf == NULL:
            return -1
    npend[0] = npend[1] = 0
    for k in range(count):
        idx = m.node_entry[nodes[k]] if nodes[k] >= 0 else -1
        if idx < 0:
            idx = dmemo_lookup(m, &removed[k * NR], &created)
            if idx == -1:  # out of memory: the entries marked below are not computed
                for b in range(2):
                    for l in range(npend[b]):
                        m.rows_of[pend[b][l]].have = 0
                return -1
            if idx == -2:
                continue
            if nodes[k] >= 0:
                m.node_entry[nodes[k]] = <int>idx
        entries[k] = idx
        if m.rows_of[idx].have != 0:
            continue
        m.rows_of[idx].have = ALL_UPS  # (computed below, before returning)
        n = 0
        for r in range(NR):
            n += m.origin[r] - removed[k * NR + r]
        b = 0 if n >= longest_hand[m.drule] else 1
        for r in range(NR):
            shoes[b][npend[b] * NR + r] = m.origin[r] - removed[k * NR + r]
        pend[b][npend[b]] = idx
        npend[b] += 1
        if npend[b] == LANES:
            dmemo_flush(m, b, pend[b], shoes[b])
            npend[b] = 0
    for b in range(2):
        for l in range(npend[b]):
            tree_eval(&trees[m.drule][b], &shoes[b][l * NR], m.buf, &m.vals[pend[b][l] * ROWS])
            m.walks[0] += 1
    return 0


cdef inline const double* dmemo_frow(DMemo* m, int r, int count, double* spare) noexcept nogil:
    """The falling row of ``count`` cards of rank ``r`` (:func:`falling_row` to KMAX - 1),
    kept by the memo for counts a little below its origin's (else made in ``spare``)."""
    cdef int j = m.origin[r] - count
    cdef double* row
    if j < 0 or j >= FC_KEPT or m.fc == NULL:
        falling_row(count, KMAX - 1, spare)
        return spare
    row = &m.fc[(r * FC_KEPT + j) * KMAX]
    if not m.fc_made[r * FC_KEPT + j]:
        falling_row(count, KMAX - 1, row)
        m.fc_made[r * FC_KEPT + j] = 1
    return row


cdef inline const double* dmemo_dtab(DMemo* m, int N, double* spare) noexcept nogil:
    """The falling-total table of a shoe of ``N`` cards (:func:`total_table` to KMAX), kept
    by the memo for sizes a little below its origin's (else made in ``spare``)."""
    cdef int j = m.n_origin - N
    cdef double* tab
    if j < 0 or j >= DC_KEPT or m.dc == NULL:
        total_table(N, KMAX, spare)
        return spare
    tab = &m.dc[j * DC_SIZE]
    if not m.dc_made[j]:
        total_table(N, KMAX, tab)
        m.dc_made[j] = 1
    return tab


cdef void dmemo_ahead_flush(DMemo* m, const UTree* t, int bits, int npend,
                            const long long* pend, const int* shoes) noexcept nogil:
    """The rows ``bits`` of the ``npend`` entries ``pend`` (shoes ``shoes``) by one walk of
    ``t`` (the tree of those up cards), LANES shoes at once (:func:`lanes_walk`, the lanes
    beyond ``npend`` repeating the first shoe), or by :func:`tree_eval` for one; the same
    doubles either way. The walk's factors are the memo's (:func:`dmemo_frow`,
    :func:`dmemo_dtab`), made once per round. Only the rows ``bits`` are kept (the tree's
    other rows are not the dealer's)."""
    cdef double out[LANES][ROWS]
    cdef double* rows[LANES]
    cdef double f[LANES][NR * KMAX]
    cdef double spare_d[LANES][DC_SIZE]
    cdef double spare_f[KMAX]
    cdef const double* fp[LANES]
    cdef const double* dp[LANES]
    cdef const double* row
    cdef int all_shoes[LANES * NR]
    cdef int Ns[LANES]
    cdef int l, u, r, src, N
    for l in range(LANES):
        rows[l] = &m.vals[pend[l] * ROWS] if bits == ALL_UPS and l < npend else out[l]
    if npend == 1:
        tree_eval(t, shoes, m.buf, rows[0])
    else:
        for l in range(LANES):
            src = l if l < npend else 0
            N = 0
            for r in range(NR):
                all_shoes[l * NR + r] = shoes[src * NR + r]
                N += shoes[src * NR + r]
                row = dmemo_frow(m, r, shoes[src * NR + r], spare_f)
                memcpy(&f[l][r * KMAX], row, (t.kmax[r] + 1) * sizeof(double))
            Ns[l] = N
            fp[l] = f[l]
            dp[l] = dmemo_dtab(m, N, spare_d[l])
        lanes_walk(t, fp, dp, all_shoes, Ns, m.lbuf, rows)
    for l in range(npend):
        if bits != ALL_UPS:
            for u in range(NR):
                if bits & (1 << u):
                    memcpy(&m.vals[pend[l] * ROWS + u * NOUT], &out[l][u * NOUT],
                           NOUT * sizeof(double))
        m.rows_of[pend[l]].have |= bits
        if bits & (bits - 1) == 0:  # (one up card's tree: as dmemo_fill rents it)
            m.rows_of[pend[l]].rent |= bits
    m.walks[0 if bits == ALL_UPS else (1 if bits & (bits - 1) == 0 else 2)] += npend


cdef int dmemo_ahead(DMemo* m, const int* removed, const int* nodes,
                     const unsigned short* bits, int count) noexcept nogil:
    """Compute now the rows ``bits[k]`` (bit ``u``: up card ``u``) of the removals
    ``removed[k * NR:(k + 1) * NR]`` (``k`` < ``count``) that the memo lacks: LANES
    removals a walk of the tree of those up cards (:func:`made_set_tree`) while consecutive
    removals want the same up cards (the caller orders them so), the rest one at a time.
    For a caller about to ask for most of them (an every-up-card memo: a counted round's
    passes and splits, whose wants a dry run noted). Every tree and both walks give the
    same doubles (:func:`derive_up_tree`, :func:`tree_eval_all_lanes`): only the time
    depends on what is computed ahead. ``nodes[k]``: the player node whose cards removal
    ``k`` is, or -1 (kept as :func:`dmemo_row_node` keeps it). Removals the origin cannot
    hold, up cards without a tree made (:func:`set_tree`) and rows already computed are
    skipped. Returns -1 if out of memory."""
    cdef long long pend[LANES]
    cdef int shoes[LANES * NR]
    cdef int shoe[NR]
    cdef int k, r, n, b, want, npend = 0, cur_bits = 0
    cdef long long idx
    cdef bint created, fits
    cdef const UTree* t
    cdef const UTree* cur = NULL
    if m.up >= 0 or m.deferring:
        return 0
    if m.lbuf == NULL:
        m.lbuf = <double*>malloc(LANES * tree_scratch_size() * sizeof(double))
        if m.lbuf == NULL:
            return -1
    if m.fc == NULL:
        m.fc = <double*>malloc(NR * FC_KEPT * KMAX * sizeof(double))
        m.fc_made = <unsigned char*>calloc(NR * FC_KEPT, 1)
        m.dc = <double*>malloc(DC_KEPT * DC_SIZE * sizeof(double))
        m.dc_made = <unsigned char*>calloc(DC_KEPT, 1)
        if m.fc == NULL or m.fc_made == NULL or m.dc == NULL or m.dc_made == NULL:
            free(m.fc)
            free(m.fc_made)
            free(m.dc)
            free(m.dc_made)
            m.fc = NULL
            m.fc_made = NULL
            m.dc = NULL
            m.dc_made = NULL
            return -1
    for k in range(count):
        want = bits[k] & ALL_UPS
        if want == 0:
            continue
        n = 0
        fits = True
        for r in range(NR):
            shoe[r] = m.origin[r] - removed[k * NR + r]
            n += shoe[r]
            if shoe[r] < 0:
                fits = False
        if not fits:
            continue
        b = 0 if n >= longest_hand[m.drule] else 1
        t = made_set_tree(m.drule, b, want)
        if t == NULL:
            continue
        idx = m.node_entry[nodes[k]] if nodes[k] >= 0 else -1
        if idx < 0:
            idx = dmemo_lookup(m, &removed[k * NR], &created)
            if idx == -1:
                return -1
            if idx == -2:
                continue
            if nodes[k] >= 0:
                m.node_entry[nodes[k]] = <int>idx
        if m.rows_of[idx].have & want == want:
            continue
        if t != cur and npend > 0:
            dmemo_ahead_flush(m, cur, cur_bits, npend, pend, shoes)
            npend = 0
        cur = t
        cur_bits = want
        memcpy(&shoes[npend * NR], shoe, NR * sizeof(int))
        pend[npend] = idx
        npend += 1
        if npend == LANES:
            dmemo_ahead_flush(m, cur, cur_bits, npend, pend, shoes)
            npend = 0
    if npend > 0:
        dmemo_ahead_flush(m, cur, cur_bits, npend, pend, shoes)
    return 0


cdef inline void dmemo_copy(DMemo* m, long long idx, int up_index, double* d) noexcept nogil:
    if m.up < 0:
        memcpy(d, &m.vals[idx * ROWS + up_index * NOUT], NOUT * sizeof(double))
    else:
        memcpy(d, &m.vals[idx * NOUT], NOUT * sizeof(double))


cdef int dmemo_row(DMemo* m, const int* removed, int up_index, bint lazy,
                   double* d) noexcept nogil:
    """Copy into ``d`` the dealer distribution for up card ``up_index`` from ``origin - removed``.

    Computed once per removal (every up card at once when the memo keeps all
    rows, unless ``lazy``: :func:`dmemo_fill`). Returns -1 if out of memory.
    """
    cdef int r, n = 0
    cdef int shoe[NR]
    cdef long long idx = dmemo_index(m, removed, up_index, lazy, -1)
    if idx >= 0:
        dmemo_copy(m, idx, up_index, d)
        return 0
    if idx == -1:
        return -1
    for r in range(NR):  # not packable: compute, do not keep
        shoe[r] = m.origin[r] - removed[r]
        n += shoe[r]
    tree_eval(up_tree_for(m.drule, n, up_index), shoe, m.buf, m.rows)
    memcpy(d, &m.rows[up_index * NOUT], NOUT * sizeof(double))
    return 0


cdef int dmemo_row_node(DMemo* m, int node, const int* removed, int up_index, bint lazy,
                        double* d) noexcept nogil:
    """:func:`dmemo_row` for a removal that is the player node ``node`` (no hashing)."""
    cdef long long idx = m.node_entry[node]
    if idx < 0:
        idx = dmemo_index(m, removed, up_index, lazy, node)
        if idx < 0:
            return -1
        m.node_entry[node] = <int>idx
    elif m.up < 0:
        dmemo_need(m, idx, removed, up_index, lazy, node)
    dmemo_copy(m, idx, up_index, d)
    return 0


cdef class DealerMemo:
    """Dealer distributions kept by the cards removed from one origin shoe (caller-owned).

    ``origin``: the 10 rank counts of the shoe *with the up card in it*
    (e.g. the full shoe of a whole-game pass); ``up``: 0 keeps every up card
    (one evaluation serves all ten), 1..10 only that one. Pass it to the
    engine calls whose ``base`` plus up card equals ``origin``; a memo serves
    one call at a time (a second concurrent call raises ``RuntimeError``).
    ``reserve``: removals to make room for at once (a whole-game pass: about 7,300 at 8
    decks), so that the rows are not copied as the memo grows; a speed-up only.
    """
    cdef DMemo m
    cdef object _hints  # keeps the buffer m.hint points into

    def __cinit__(self, const int[:] origin, int drule, int up=0, int reserve=0):
        cdef int o[NR]
        cdef int r
        check_shoe(origin)
        ensure_trees(drule)
        if up < 0 or up > 10:
            raise ValueError("up is 0 (every up card) or a rank 1..10")
        for r in range(NR):
            o[r] = origin[r]
        if reserve < 0 or reserve > 1 << 24:
            raise ValueError("reserve is 0 .. 2**24 entries")
        if dmemo_init(&self.m, o, drule, up, reserve) != 0:
            dmemo_free(&self.m)
            raise MemoryError()

    def __dealloc__(self):
        dmemo_free(&self.m)

    @property
    def entries(self):
        """Dealer evaluations stored (distinct removals seen)."""
        return self.m.used

    @property
    def walks(self):
        """Dealer-tree walks made so far: ``(every up card, one up card, several)``."""
        return self.m.walks[0], self.m.walks[1], self.m.walks[2]

    def defer(self):
        """Note the dealer distributions calls ask for, without computing them, until
        :meth:`node_wants`. Meanwhile the values calls return are meaningless (a
        placeholder dealer who always busts): a dry run that finds which up cards each
        removal is wanted against. (A fixed-policy up-card pass, or a split played by
        fixed codes, asks the same whatever the values.)"""
        if self.m.up >= 0:
            raise ValueError("only a memo of every up card defers")
        if self.m.busy:
            raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
        self.m.deferring = True

    def node_wants(self):
        """Stop deferring; per player node (``array('H')``), the up cards (bit ``u``: up
        card ``u``) its removal was asked for against since :meth:`defer`: the hints
        (:meth:`hint`) of memos for shoes like this one. Rows asked for stay uncomputed:
        the memo computes them when next asked."""
        cdef int node
        cdef long long idx
        if self.m.busy:
            raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
        out = array.array("H", bytes(2 * n_nodes))
        for node in range(n_nodes):
            idx = self.m.node_entry[node]
            if idx >= 0:
                out[node] = self.m.rows_of[idx].want
        self.m.deferring = False
        return out

    def hint(self, const unsigned short[::1] wants):
        """Walk a player node's removal, on first use, in the tree of the up cards
        ``wants[node]`` (bits as :meth:`node_wants`) when it is asked for against one of
        them: one walk for the rows the calls will want (e.g. a shoe's up-card passes and
        splits, noted in a dry run on a like shoe). Only the time depends on the hints: a
        row they leave out is computed when asked for, and every tree gives the same
        doubles. ``wants`` is kept (not copied). The trees are kept for the process, at
        most SET_TREES_MAX (192) of them: a set of up cards without one is walked as
        without hints."""
        cdef int node, bits
        if wants.shape[0] != n_nodes:
            raise ValueError(f"wants needs one entry per player node ({n_nodes})")
        if self.m.up >= 0:
            raise ValueError("only a memo of every up card takes hints")
        if self.m.busy:
            raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
        for node in range(n_nodes):  # the trees, made with the GIL held
            bits = wants[node] & ALL_UPS
            if bits & (bits - 1) and bits != ALL_UPS and (
                    set_trees[self.m.drule][1][bits] != NULL or n_set_trees + 2 <= SET_TREES_MAX):
                set_tree(self.m.drule, 0, bits)
                set_tree(self.m.drule, 1, bits)
        self._hints = wants
        self.m.hint = &wants[0]

    def entry_wants(self):
        """While deferring (:meth:`defer`), every removal asked for so far with the up cards
        it was asked for against: ``(removed, nodes, wants)``, ``removed`` the removals'
        rank counts (``array('i')``, ten a removal), ``nodes`` the player node each is
        (``array('i')``, -1: a removal keyed by its cards, such as a split hand's with the
        other pair card), ``wants`` the up cards (``array('H')``, bits as
        :meth:`node_wants`), in the memo's order. What :meth:`walk_ahead` takes (grouped by
        ``wants``) for memos of shoes like this one."""
        cdef int node, r
        cdef long long slot, idx
        cdef uint64_t key
        if not self.m.deferring:
            raise ValueError("entry_wants is read while deferring (DealerMemo.defer)")
        node_of = array.array("i", [-1]) * self.m.used
        for node in range(n_nodes):
            idx = self.m.node_entry[node]
            if idx >= 0:
                node_of[idx] = node
        removed = array.array("i", bytes(4 * NR * self.m.used))
        wants = array.array("H", bytes(2 * self.m.used))
        for slot in range(<long long>(self.m.mask + 1)):
            key = self.m.keys[slot]
            if key == 0:
                continue
            idx = self.m.entry[slot]
            key -= 1
            for r in range(NR):
                removed[idx * NR + r] = <int>((key >> (6 * r)) & 63)
            wants[idx] = self.m.rows_of[idx].want
        return removed, node_of, wants

    def walk_ahead(self, const int[::1] removed, const int[::1] nodes,
                   const unsigned short[::1] wants):
        """Compute now the rows ``wants[k]`` (bits as :meth:`node_wants`) of removal ``k``
        (``removed[10 k:10 k + 10]``, the player node ``nodes[k]`` or -1; as
        :meth:`entry_wants` gives them), four removals a dealer walk while consecutive ones
        want the same up cards: for a caller about to ask for most of them (a counted
        round's passes and splits). A speed-up only: every walk gives the same doubles.
        Removals the origin cannot hold are skipped; a set of up cards without a tree and
        no room for one (SET_TREES_MAX) is left to be computed when asked for."""
        cdef int k, count = nodes.shape[0], bits, b, rc
        if removed.shape[0] != NR * count or wants.shape[0] != count:
            raise ValueError("walk_ahead takes ten counts and one want per node")
        if self.m.up >= 0:
            raise ValueError("only a memo of every up card walks ahead")
        if self.m.busy:
            raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
        for k in range(count):
            if nodes[k] < -1 or nodes[k] >= n_nodes:
                raise ValueError("a node is -1 or a player node")
            if k and wants[k] == wants[k - 1]:
                continue
            bits = wants[k] & ALL_UPS
            for b in range(2):  # the trees, made with the GIL held
                if bits & (bits - 1) and bits != ALL_UPS and (
                        set_trees[self.m.drule][b][bits] != NULL or n_set_trees + 1 <= SET_TREES_MAX):
                    set_tree(self.m.drule, b, bits)
        self.m.busy = True
        with nogil:
            rc = dmemo_ahead(&self.m, &removed[0] if count else NULL, &nodes[0] if count else NULL,
                             &wants[0] if count else NULL, count)
        self.m.busy = False
        if rc != 0:
            raise MemoryError()

    @property
    def origin(self):
        """The origin shoe's rank counts."""
        return tuple([self.m.origin[r] for r in range(NR)])


cdef DMemo* memo_acquire(DealerMemo memo, const int* base, int up, int drule) except? NULL:
    """Check ``memo`` fits a call on ``base`` (up card gone) and mark it in use."""
    cdef int r
    if memo is None:
        return NULL
    if memo.m.busy:
        raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
    if memo.m.drule != drule:
        raise ValueError("the DealerMemo was made for another dealer rule (soft 17, 22)")
    if memo.m.up >= 0 and memo.m.up != up - 1:
        raise ValueError("the DealerMemo keeps another up card")
    for r in range(NR):
        if base[r] + (r == up - 1) != memo.m.origin[r]:
            raise ValueError("the shoe plus the up card is not the DealerMemo's origin")
    memo.m.busy = True
    return &memo.m


cdef void memo_release(DMemo* m) noexcept nogil:
    if m != NULL:
        m.busy = False
