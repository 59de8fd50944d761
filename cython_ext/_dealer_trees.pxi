# Dealer trees: the prefix trees of final dealer multisets, their evaluation from a
# shoe (tree_eval, tree_eval_lanes: every up card from one walk), dealer_probs.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

# --------------------------------------------------------------- dealer trees
cdef struct TStep:  # (two ints: lanes.h reads the steps as such)
    int parent          # a tree node's parent ...
    int comb            # ... and the factor it multiplies in (an index into the tree's combs)

cdef struct UTree:
    int n               # nodes; node 0 is the empty multiset
    int* parent
    int* fidx           # rank * KMAX + k: the falling-count factor a node multiplies in
    int* didx           # (cards of the parent) * (KMAX + 1) + k: the falling-total factor
    int nfin            # final multisets kept
    int* fin_node
    int* fin_out
    int* fin_ncards
    int* fin_start      # nfin + 1 offsets into ent_up / ent_w
    int* ent_up         # rank index of an up card
    double* ent_w       # orders of the multiset that start with that up card
    int grp_start[ROWS + 1]  # the same entries grouped by (up card, outcome): offsets
    int* grp_fin        # ... the final of each grouped entry
    int* grp_node       # ... its tree node
    TStep* steps        # per node: parent and factor, read together by tree_eval
    TStep* lsteps       # ... the same times LANES: where they start in a four-lane walk's
                        # scratch (sc_lanes_nodes: no scaling left in its loop)
    int ncomb           # distinct (fidx, didx) factors of the tree ...
    int* comb_f         # ... their fidx
    int* comb_d         # ... and didx
    double* grp_w       # ... and its weight
    int kmax[NR]
    int ncards_max
    bint with_bust

cdef UTree trees[NDRULES][2]  # [dealer rule][with bust leaves]: every up card at once
cdef UTree up_trees[NDRULES][2][NR]  # [dealer rule][with bust leaves][up card]: one up card's
                                       # hands only
cdef int longest_hand[NDRULES]  # most cards in a final dealer hand (up card included), per
                                # dealer rule
cdef int* node_mask[NDRULES][2]  # per node of trees[drule][b]: bit u, a final under it starts with u
cdef UTree* set_trees[NDRULES][2][1 << NR]  # trees of several up cards, made on first use (set_tree)
cdef int n_set_trees = 0  # ... how many (at most SET_TREES_MAX, about 290 KB each)
cdef int tree_cost[NDRULES][2][NR + 1]  # [drule][with bust leaves][0: all up cards, u + 1: one]: the
                                  # steps and summed entries of one tree_eval (its work)


cdef inline int group_shift(int r) noexcept nogil:
    """Bit offset of rank ``r`` in a packed multiset (rank 0 most significant)."""
    return 5 * (NR - 1 - r)


cdef inline uint64_t pack5(const int* counts) noexcept nogil:
    cdef uint64_t key = 0
    cdef int r
    for r in range(NR):
        key = (key << 5) | <uint64_t>counts[r]
    return key


cdef inline uint64_t mix(uint64_t key) noexcept nogil:
    return (key * 0x9E3779B97F4A7C15ULL) >> 29


cdef struct KeyMap:
    uint64_t* keys      # 0 = empty slot (the empty multiset is never stored)
    int* out
    double* w           # NR per slot
    uint64_t mask


cdef int keymap_init(KeyMap* m, int log2cap, int values) noexcept nogil:
    """``values``: 0 keys only, 1 an int per key, 2 an int and NR doubles per key."""
    m.mask = (1ULL << log2cap) - 1
    m.keys = <uint64_t*>calloc(m.mask + 1, sizeof(uint64_t))
    m.out = NULL
    m.w = NULL
    if values >= 1:
        m.out = <int*>calloc(m.mask + 1, sizeof(int))
        if m.out == NULL:
            return -1
    if values >= 2:
        m.w = <double*>calloc((m.mask + 1) * NR, sizeof(double))
        if m.w == NULL:
            return -1
    return 0 if m.keys != NULL else -1


cdef void keymap_free(KeyMap* m) noexcept nogil:
    free(m.keys)
    free(m.out)
    free(m.w)


cdef long long keymap_slot(KeyMap* m, uint64_t key) noexcept nogil:
    """Slot of ``key`` (inserted if absent)."""
    cdef uint64_t slot = mix(key) & m.mask
    while m.keys[slot] != 0 and m.keys[slot] != key:
        slot = (slot + 1) & m.mask
    m.keys[slot] = key
    return <long long>slot


cdef long long keymap_find(KeyMap* m, uint64_t key) noexcept nogil:
    """Slot of ``key``, or -1."""
    cdef uint64_t slot = mix(key) & m.mask
    while m.keys[slot] != 0:
        if m.keys[slot] == key:
            return <long long>slot
        slot = (slot + 1) & m.mask
    return -1


cdef void dealer_sequences(int total, bint has_ace, int ncards, int* counts, int up, int drule,
                           KeyMap* finals) noexcept nogil:
    """Count every draw order from up card ``up`` into its final multiset in ``finals``
    (``total``: the hand's hard total; its outcome: :func:`dealer_outcome`)."""
    cdef int o = dealer_outcome(total, has_ace, ncards, drule)
    cdef long long slot
    cdef int r
    if o >= 0:
        slot = keymap_slot(finals, pack5(counts))
        finals.out[slot] = o
        finals.w[slot * NR + up] += 1.0
        return
    for r in range(NR):
        counts[r] += 1
        dealer_sequences(total + r + 1, has_ace or r == 0, ncards + 1, counts, up, drule,
                         finals)
        counts[r] -= 1


cdef int cmp_u64(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0]
    cdef uint64_t y = (<const uint64_t*>b)[0]
    return -1 if x < y else (1 if x > y else 0)


cdef int find_sorted(const uint64_t* keys, int n, uint64_t key) noexcept nogil:
    cdef int lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if keys[mid] == key:
            return mid
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef int build_tree(UTree* t, KeyMap* finals, bint with_bust) noexcept nogil:
    """The prefix tree of final dealer multisets, parents before children.

    ``finals``: every final multiset with its orders per up card (from
    :func:`dealer_sequences`); one up card's tree is cut out of this one by
    :func:`derive_up_tree`.

    A node is a multiset restricted to ranks <= its last rank ``L``; its parent
    drops every card of rank ``L``. Packed with rank 0 most significant, the
    numeric order of the keys is the lexicographic order of the count tuples,
    in which every parent precedes its children; :func:`order_by_depth` then
    renumbers them (parents still first). Returns -1 if out of memory.
    """
    cdef KeyMap prefixes
    cdef int up, r, i, j, e, n, last, k, nc
    cdef long long slot
    cdef uint64_t key, pkey, low
    cdef uint64_t* nodes = NULL
    cdef int fill[ROWS + 1]
    memset(t, 0, sizeof(UTree))
    t.with_bust = with_bust
    if keymap_init(&prefixes, 13, 0) != 0:
        keymap_free(&prefixes)
        return -1
    for slot in range(<long long>(finals.mask + 1)):
        key = finals.keys[slot]
        if key == 0 or (not with_bust and finals.out[slot] == OUT_BUST):
            continue
        for r in range(NR):
            if (key >> group_shift(r)) & 31:
                low = (1ULL << group_shift(r)) - 1
                keymap_slot(&prefixes, key & ~low)
    n = 1
    for slot in range(<long long>(prefixes.mask + 1)):
        if prefixes.keys[slot] != 0:
            n += 1
    nodes = <uint64_t*>malloc(n * sizeof(uint64_t))
    t.parent = <int*>malloc(n * sizeof(int))
    t.fidx = <int*>malloc(n * sizeof(int))
    t.didx = <int*>malloc(n * sizeof(int))
    t.fin_node = <int*>malloc(n * sizeof(int))
    t.fin_out = <int*>malloc(n * sizeof(int))
    t.fin_ncards = <int*>malloc(n * sizeof(int))
    t.fin_start = <int*>malloc((n + 1) * sizeof(int))
    t.ent_up = <int*>malloc(n * NR * sizeof(int))
    t.ent_w = <double*>malloc(n * NR * sizeof(double))
    if (nodes == NULL or t.parent == NULL or t.fidx == NULL or t.didx == NULL
            or t.fin_node == NULL
            or t.fin_out == NULL or t.fin_ncards == NULL or t.fin_start == NULL
            or t.ent_up == NULL or t.ent_w == NULL):
        free(nodes)
        keymap_free(&prefixes)
        return -1
    nodes[0] = 0
    i = 1
    for slot in range(<long long>(prefixes.mask + 1)):
        if prefixes.keys[slot] != 0:
            nodes[i] = prefixes.keys[slot]
            i += 1
    qsort(&nodes[1], n - 1, sizeof(uint64_t), cmp_u64)
    t.n = n
    t.parent[0] = 0
    t.fidx[0] = 0
    t.didx[0] = 0
    j = 0
    e = 0
    for i in range(1, n):
        key = nodes[i]
        last = 0
        nc = 0
        for r in range(NR):
            k = <int>((key >> group_shift(r)) & 31)
            nc += k
            if k:
                last = r
        k = <int>((key >> group_shift(last)) & 31)
        pkey = key & ~((<uint64_t>31) << group_shift(last))
        t.parent[i] = find_sorted(nodes, i, pkey)
        t.fidx[i] = last * KMAX + k
        t.didx[i] = (nc - k) * (KMAX + 1) + k
        if k > t.kmax[last]:
            t.kmax[last] = k
        slot = keymap_find(finals, key)
        if slot >= 0 and (with_bust or finals.out[slot] != OUT_BUST):
            t.fin_node[j] = i
            t.fin_out[j] = finals.out[slot]
            t.fin_ncards[j] = nc
            t.fin_start[j] = e
            for up in range(NR):
                if finals.w[slot * NR + up] != 0.0:
                    t.ent_up[e] = up
                    t.ent_w[e] = finals.w[slot * NR + up]
                    e += 1
            if nc > t.ncards_max:
                t.ncards_max = nc
            j += 1
    t.nfin = j
    t.fin_start[j] = e
    # group the entries by (up card, outcome) so each output is one independent sum
    t.grp_fin = <int*>malloc((e + 1) * sizeof(int))
    t.grp_node = <int*>malloc((e + 1) * sizeof(int))
    t.grp_w = <double*>malloc((e + 1) * sizeof(double))
    if t.grp_fin == NULL or t.grp_node == NULL or t.grp_w == NULL:
        free(nodes)
        keymap_free(&prefixes)
        return -1
    memset(t.grp_start, 0, sizeof(t.grp_start))
    for j in range(t.nfin):
        for k in range(t.fin_start[j], t.fin_start[j + 1]):
            t.grp_start[t.ent_up[k] * NOUT + t.fin_out[j] + 1] += 1
    for k in range(ROWS):
        t.grp_start[k + 1] += t.grp_start[k]
    memcpy(fill, t.grp_start, sizeof(fill))
    for j in range(t.nfin):
        for k in range(t.fin_start[j], t.fin_start[j + 1]):
            last = t.ent_up[k] * NOUT + t.fin_out[j]
            t.grp_fin[fill[last]] = j
            t.grp_node[fill[last]] = t.fin_node[j]
            t.grp_w[fill[last]] = t.ent_w[k]
            fill[last] += 1
    free(nodes)
    keymap_free(&prefixes)
    if order_by_depth(t) != 0:
        return -1
    return tree_steps(t)


cdef int order_by_depth(UTree* t) noexcept nogil:
    """Renumber the nodes by depth (ranks present), keeping the key order within a depth.

    Parents still precede children, and no node's parent is the node just before it:
    :func:`tree_eval` then never waits on the product it has just stored. Returns -1
    if out of memory.
    """
    cdef int* depth = <int*>malloc(t.n * sizeof(int))
    cdef int* perm = <int*>malloc(t.n * sizeof(int))
    cdef int* tmp = <int*>malloc(t.n * sizeof(int))
    cdef int start[NR + 2]
    cdef int i, j
    if depth == NULL or perm == NULL or tmp == NULL:
        free(depth)
        free(perm)
        free(tmp)
        return -1
    memset(start, 0, sizeof(start))
    depth[0] = 0
    for i in range(1, t.n):
        depth[i] = depth[t.parent[i]] + 1
    for i in range(t.n):
        start[depth[i] + 1] += 1
    for j in range(NR + 1):
        start[j + 1] += start[j]
    for i in range(t.n):
        perm[i] = start[depth[i]]
        start[depth[i]] += 1
    for i in range(t.n):
        tmp[perm[i]] = perm[t.parent[i]]
    memcpy(t.parent, tmp, t.n * sizeof(int))
    for i in range(t.n):
        tmp[perm[i]] = t.fidx[i]
    memcpy(t.fidx, tmp, t.n * sizeof(int))
    for i in range(t.n):
        tmp[perm[i]] = t.didx[i]
    memcpy(t.didx, tmp, t.n * sizeof(int))
    for j in range(t.nfin):
        t.fin_node[j] = perm[t.fin_node[j]]
    for j in range(t.grp_start[ROWS]):
        t.grp_node[j] = perm[t.grp_node[j]]
    free(depth)
    free(perm)
    free(tmp)
    return 0


cdef int tree_steps(UTree* t) noexcept nogil:
    """Fill ``t.steps`` and the distinct factors. Returns -1 if out of memory."""
    cdef int* seen = <int*>malloc(NR * KMAX * (KMAX + 1) * (KMAX + 1) * sizeof(int))
    cdef int i, key
    t.steps = <TStep*>malloc(t.n * sizeof(TStep))
    t.lsteps = <TStep*>malloc(t.n * sizeof(TStep))
    t.comb_f = <int*>malloc(t.n * sizeof(int))
    t.comb_d = <int*>malloc(t.n * sizeof(int))
    if seen == NULL or t.steps == NULL or t.comb_f == NULL or t.comb_d == NULL \
            or t.lsteps == NULL:
        free(seen)
        return -1
    for i in range(NR * KMAX * (KMAX + 1) * (KMAX + 1)):
        seen[i] = -1
    t.ncomb = 0
    for i in range(t.n):
        key = t.fidx[i] * (KMAX + 1) * (KMAX + 1) + t.didx[i]
        if seen[key] < 0:
            seen[key] = t.ncomb
            t.comb_f[t.ncomb] = t.fidx[i]
            t.comb_d[t.ncomb] = t.didx[i]
            t.ncomb += 1
        t.steps[i].parent = t.parent[i]
        t.steps[i].comb = seen[key]
        t.lsteps[i].parent = LANES * t.parent[i]
        t.lsteps[i].comb = LANES * seen[key]
    free(seen)
    return 0


cdef int derive_up_tree(const UTree* t, const int* mask, int bits, UTree* out) noexcept nogil:
    """The part of the all-up-cards tree ``t`` that the up cards ``bits`` (bit ``u``: up
    card ``u``) reach, in the same order: their groups keep the same entries in the same
    order, so :func:`tree_eval` gives their rows bit for bit as ``t`` does.

    ``mask[i]``: bit ``r`` set when some final under node ``i`` starts with up
    card ``r``. Parents still precede children, so no sorting is needed.
    Returns -1 if out of memory.
    """
    cdef int ne = t.fin_start[t.nfin]
    cdef int* idx = <int*>malloc(t.n * sizeof(int))
    cdef int* fin_map = <int*>malloc((t.nfin + 1) * sizeof(int))
    cdef int i, j, k, g, r, n = 0, nf = 0, e = 0, ent = 0
    cdef bint kept
    memset(out, 0, sizeof(UTree))
    out.with_bust = t.with_bust
    if idx == NULL or fin_map == NULL:
        free(idx)
        free(fin_map)
        return -1
    for i in range(t.n):
        idx[i] = n if (i == 0 or mask[i] & bits) else -1
        if idx[i] >= 0:
            n += 1
    out.n = n
    out.parent = <int*>malloc(n * sizeof(int))
    out.fidx = <int*>malloc(n * sizeof(int))
    out.didx = <int*>malloc(n * sizeof(int))
    out.fin_node = <int*>malloc((t.nfin + 1) * sizeof(int))
    out.fin_out = <int*>malloc((t.nfin + 1) * sizeof(int))
    out.fin_ncards = <int*>malloc((t.nfin + 1) * sizeof(int))
    out.fin_start = <int*>malloc((t.nfin + 2) * sizeof(int))
    out.ent_up = <int*>malloc((ne + 1) * sizeof(int))
    out.ent_w = <double*>malloc((ne + 1) * sizeof(double))
    out.grp_fin = <int*>malloc((ne + 1) * sizeof(int))
    out.grp_node = <int*>malloc((ne + 1) * sizeof(int))
    out.grp_w = <double*>malloc((ne + 1) * sizeof(double))
    if (out.parent == NULL or out.fidx == NULL or out.didx == NULL or out.fin_node == NULL
            or out.grp_node == NULL or out.fin_out == NULL
            or out.fin_ncards == NULL or out.fin_start == NULL or out.ent_up == NULL
            or out.ent_w == NULL or out.grp_fin == NULL or out.grp_w == NULL):
        free(idx)
        free(fin_map)
        return -1
    for i in range(t.n):
        if idx[i] >= 0:
            out.parent[idx[i]] = idx[t.parent[i]]
            out.fidx[idx[i]] = t.fidx[i]
            out.didx[idx[i]] = t.didx[i]
    for r in range(NR):
        out.kmax[r] = t.kmax[r]
    # finals that start with one of the up cards, with those entries
    for j in range(t.nfin):
        fin_map[j] = -1
        kept = False
        for k in range(t.fin_start[j], t.fin_start[j + 1]):
            if not (bits & (1 << t.ent_up[k])):
                continue
            if not kept:
                kept = True
                fin_map[j] = nf
                out.fin_node[nf] = idx[t.fin_node[j]]
                out.fin_out[nf] = t.fin_out[j]
                out.fin_ncards[nf] = t.fin_ncards[j]
                out.fin_start[nf] = ent
                if t.fin_ncards[j] > out.ncards_max:
                    out.ncards_max = t.fin_ncards[j]
                nf += 1
            out.ent_up[ent] = t.ent_up[k]
            out.ent_w[ent] = t.ent_w[k]
            ent += 1
    out.nfin = nf
    out.fin_start[nf] = ent
    # the grouped sums: only the groups of these up cards, the rest empty
    for g in range(ROWS + 1):
        out.grp_start[g] = 0
    for g in range(ROWS):
        out.grp_start[g] = e
        if bits & (1 << (g // NOUT)):
            for k in range(t.grp_start[g], t.grp_start[g + 1]):
                out.grp_fin[e] = fin_map[t.grp_fin[k]]
                out.grp_node[e] = idx[t.grp_node[k]]
                out.grp_w[e] = t.grp_w[k]
                e += 1
    out.grp_start[ROWS] = e
    free(idx)
    free(fin_map)
    return tree_steps(out)


cdef bint trees_made[NDRULES]  # the dealer rule's trees are built (ensure_trees)


cdef int ensure_trees(int drule) except -1:
    """Build the dealer trees of one dealer rule (``drule``: DEALER_H17 when he hits soft 17,
    DEALER_22 when he ends on 22 as an outcome of its own, :func:`dealer_outcome`) on first
    use: at most once, with the GIL held (so one thread at a time), and before any section
    without the GIL can read them. Every way into those sections reads its rule here first:
    the parameters (:func:`read_params`), a :class:`DealerMemo` and :func:`dealer_probs`. A
    process that never meets an H17 game never builds its trees (half the tables' build at
    import)."""
    if drule < 0 or drule >= NDRULES:
        raise ValueError("the dealer rule is 0..3 (DEALER_H17 | DEALER_22)")
    if not trees_made[drule]:
        build_trees(drule)
        trees_made[drule] = True
    return 0


cdef int build_trees(int h) except -1:
    """Every dealer tree of dealer rule ``h`` (:func:`ensure_trees`), from one enumeration
    of draw orders."""
    cdef KeyMap finals
    cdef int counts[NR]
    cdef int b, up, i, j, k
    cdef int* mask
    cdef const UTree* t
    if keymap_init(&finals, 13, 2) != 0:
        keymap_free(&finals)
        raise MemoryError("building the dealer tables")
    for up in range(NR):
        memset(counts, 0, sizeof(counts))
        counts[up] = 1
        dealer_sequences(up + 1, up == 0, 1, counts, up, h, &finals)
    try:
        for b in range(2):
            if build_tree(&trees[h][b], &finals, b) != 0:
                raise MemoryError("building the dealer tables")
    finally:
        keymap_free(&finals)
    for b in range(2):
        t = &trees[h][b]
        mask = <int*>calloc(t.n, sizeof(int))
        if mask == NULL:
            raise MemoryError("building the dealer tables")
        for j in range(t.nfin):
            for k in range(t.fin_start[j], t.fin_start[j + 1]):
                mask[t.fin_node[j]] |= 1 << t.ent_up[k]
        for i in range(t.n - 1, 0, -1):
            mask[t.parent[i]] |= mask[i]
        for up in range(NR):
            if derive_up_tree(t, mask, 1 << up, &up_trees[h][b][up]) != 0:
                free(mask)
                raise MemoryError("building the dealer tables")
        node_mask[h][b] = mask  # kept for set_tree
    longest_hand[h] = trees[h][1].ncards_max
    for b in range(2):
        tree_cost[h][b][0] = trees[h][b].n + trees[h][b].grp_start[ROWS]
        for up in range(NR):
            t = &up_trees[h][b][up]
            tree_cost[h][b][up + 1] = t.n + t.grp_start[ROWS]
    if longest_hand[h] > KMAX:
        raise RuntimeError("a dealer hand is longer than the factor tables (KMAX)")
    return 0


cdef inline const UTree* made_set_tree(int drule, int b, int bits) noexcept nogil:
    """:func:`set_tree` once it has been made (for sections without the GIL)."""
    cdef int u
    if bits == ALL_UPS:
        return &trees[drule][b]
    if bits & (bits - 1) == 0:
        for u in range(NR):
            if bits == 1 << u:
                return &up_trees[drule][b][u]
    return set_trees[drule][b][bits]


cdef const UTree* set_tree(int drule, int b, int bits) except NULL:
    """The tree of the up cards ``bits`` (bit ``u``: up card ``u``; ``b``: with bust leaves):
    :func:`derive_up_tree`'s, made on first use and kept. Called with the GIL held, which
    makes the first use one at a time; a tree is published only once made, and never
    changes after, so sections without the GIL read it freely."""
    global n_set_trees
    cdef UTree* t
    if bits == ALL_UPS or bits & (bits - 1) == 0:
        return made_set_tree(drule, b, bits)
    if set_trees[drule][b][bits] == NULL:
        t = <UTree*>calloc(1, sizeof(UTree))
        if t == NULL or derive_up_tree(&trees[drule][b], node_mask[drule][b], bits, t) != 0:
            raise MemoryError("building a dealer tree")
        set_trees[drule][b][bits] = t
        n_set_trees += 1
    return set_trees[drule][b][bits]


cdef inline const UTree* tree_for(int drule, int n_cards) noexcept nogil:
    """The tree without bust leaves when the dealer cannot run out of cards, else the full one."""
    return &trees[drule][0] if n_cards >= longest_hand[drule] else &trees[drule][1]


cdef inline const UTree* up_tree_for(int drule, int n_cards, int up_index) noexcept nogil:
    """:func:`tree_for` restricted to one up card (smaller: 372..2,452 nodes S17, with busts)."""
    return &up_trees[drule][0][up_index] if n_cards >= longest_hand[drule] \
        else &up_trees[drule][1][up_index]


cdef inline void falling_row(int count, int kmax, double* row) noexcept nogil:
    """``row[k]`` = count (count - 1) ... (count - k + 1), k <= ``kmax``, 0 once a factor is
    not positive: :func:`tree_eval`'s per-rank factors, by the same products."""
    cdef int k
    row[0] = 1.0
    for k in range(1, kmax + 1):
        row[k] = row[k - 1] * (count - k + 1) if count - k + 1 > 0 else 0.0


cdef inline void total_table(int N, int top, double* d) noexcept nogil:
    """``d[a * (KMAX + 1) + k]`` = 1 / ((N - a) (N - a - 1) ... (N - a - k + 1)), a < ``top``,
    k <= top - a: :func:`tree_eval`'s falling-total factors, by the same products."""
    cdef double inv[KMAX + 1]
    cdef int a, k
    for k in range(top):
        inv[k] = 1.0 / (N - k) if N - k > 0 else 0.0
    for a in range(top):
        d[a * (KMAX + 1)] = 1.0
        for k in range(1, top - a + 1):
            d[a * (KMAX + 1) + k] = d[a * (KMAX + 1) + k - 1] * inv[a + k - 1]


cdef inline void finish_row(const UTree* t, double scale, double* row) noexcept nogil:
    """Turn one up card's sums of a walk into its dealer distribution: conditioned on the
    up card (times ``scale``, N / the shoe's cards of it), and P(bust) made 1 - the rest
    when the tree has no bust leaves."""
    cdef int o
    cdef double rest = 0.0
    for o in range(NOUT):
        row[o] *= scale
        if o != OUT_BUST:
            rest += row[o]
    if not t.with_bust:
        row[OUT_BUST] = 1.0 - rest


cdef inline void finish_rows(const UTree* t, const int* shoe, int N, double* rows) noexcept nogil:
    """Turn a walk's sums into :func:`tree_eval`'s rows (:func:`finish_row`), each up card
    ``r`` the shoe (of ``N`` cards) holds; rows of ranks the shoe lacks stay as summed (0)."""
    cdef int r
    for r in range(NR):
        if shoe[r] > 0:
            finish_row(t, <double>N / shoe[r], &rows[r * NOUT])


cdef inline bint dealer_lost_mass(const double* d) noexcept nogil:
    """Whether the dealer distribution ``d`` sums to less than 1: from its shoe the dealer
    could run out of cards (no exact answer)."""
    cdef double mass = 0.0
    cdef int o
    for o in range(NOUT):
        mass += d[o]
    return mass < 1.0 - 1e-9


cdef void tree_eval(const UTree* t, const int* shoe, double* buf, double* rows) noexcept nogil:
    """``rows[u * NOUT + o]``: P(dealer outcome o | up card u) from ``shoe`` (up card still in it).

    Outcomes 0..4 are 17..21, 5 bust, 6 blackjack (unconditioned). Rows of
    ranks the shoe lacks are 0. ``buf``: caller-owned scratch of ``t.n + t.ncomb`` doubles
    (:func:`tree_scratch_size`).

    A node's value is P(its cards are the first ones drawn, in a given order): each
    tree step multiplies in the falling count of its rank, ``f``, over the falling
    count of the cards left, ``d`` (the latter by the cards its parent holds).
    """
    cdef double f[NR * KMAX]
    cdef double d[(KMAX + 1) * (KMAX + 1)]
    cdef int r, k, i, j, e, n, N = 0, top = t.ncards_max
    cdef const TStep* steps
    cdef const int* comb_f
    cdef const int* comb_d
    cdef double* cf
    cdef const int* grp_node
    cdef const double* grp_w
    cdef double s0, s1, s2, s3
    for r in range(NR):
        N += shoe[r]
        falling_row(shoe[r], t.kmax[r], &f[r * KMAX])
    total_table(N, top, d)
    # locals: extensions build with -fno-strict-aliasing, so stores to buf/rows would
    # otherwise force the table pointers to be reloaded every iteration
    n = t.n
    cf = buf + n
    comb_f = t.comb_f
    comb_d = t.comb_d
    for i in range(t.ncomb):
        cf[i] = f[comb_f[i]] * d[comb_d[i]]
    steps = t.steps
    buf[0] = 1.0
    for i in range(1, n):
        buf[i] = buf[steps[i].parent] * cf[steps[i].comb]
    # one sum of the finals' probabilities per (up card, outcome)
    grp_node = t.grp_node
    grp_w = t.grp_w
    for j in range(ROWS):
        s0 = 0.0
        s1 = 0.0
        s2 = 0.0
        s3 = 0.0
        e = t.grp_start[j]
        k = t.grp_start[j + 1]
        while e + 3 < k:
            s0 += grp_w[e] * buf[grp_node[e]]
            s1 += grp_w[e + 1] * buf[grp_node[e + 1]]
            s2 += grp_w[e + 2] * buf[grp_node[e + 2]]
            s3 += grp_w[e + 3] * buf[grp_node[e + 3]]
            e += 4
        while e < k:
            s0 += grp_w[e] * buf[grp_node[e]]
            e += 1
        rows[j] = (s0 + s1) + (s2 + s3)
    finish_rows(t, shoe, N, rows)


cdef void lanes_walk(const UTree* t, const double* const* f, const double* const* d,
                     const int* shoes, const int* Ns, double* buf,
                     double* const* rows) noexcept nogil:
    """:func:`tree_eval_all_lanes`' walk, each lane's factors made: ``f[l][r * KMAX + k]``
    the falling count of rank ``r`` in shoe ``l`` (k <= ``t.kmax[r]``: :func:`falling_row`),
    ``d[l]`` its falling-total table (:func:`total_table`, a + k <= ``t.ncards_max``),
    ``Ns[l]`` its cards. A longer row or table holds the same doubles in its first
    entries (each entry is made from the ones before it alone), so a caller may keep them
    (:func:`dmemo_frow`, :func:`dmemo_dtab`)."""
    cdef int l, n = t.n
    for l in range(LANES):
        buf[l] = 1.0
    sc_lanes_combs_apart(t.comb_f, t.comb_d, t.ncomb, f, d, buf + LANES * n)
    sc_lanes_nodes(<const int*>t.lsteps, n, buf + LANES * n, buf)
    sc_lanes_groups(t.grp_node, t.grp_w, t.grp_start, ROWS, buf, rows)
    for l in range(LANES):
        finish_rows(t, &shoes[l * NR], Ns[l], rows[l])


cdef void tree_eval_all_lanes(const UTree* t, const int* shoes, double* buf,
                              double* const* rows) noexcept nogil:
    """:func:`tree_eval` of LANES shoes at once, every row: ``rows[l]`` gets what
    ``tree_eval(t, &shoes[l * NR], ...)`` writes, the same doubles (the same products and
    sums in the same order; the walk's index loads are made once for the four shoes and
    each node's four products are independent: lanes.h). ``buf``: caller-owned scratch of
    LANES * :func:`tree_scratch_size` doubles."""
    cdef double f[LANES][NR * KMAX]
    cdef double d[LANES][(KMAX + 1) * (KMAX + 1)]
    cdef const double* fp[LANES]
    cdef const double* dp[LANES]
    cdef int l, r, N
    cdef int Ns[LANES]
    cdef const int* shoe
    for l in range(LANES):
        shoe = &shoes[l * NR]
        N = 0
        for r in range(NR):
            N += shoe[r]
            falling_row(shoe[r], t.kmax[r], &f[l][r * KMAX])
        Ns[l] = N
        total_table(N, t.ncards_max, d[l])
        fp[l] = f[l]
        dp[l] = d[l]
    lanes_walk(t, fp, dp, shoes, Ns, buf, rows)


cdef void tree_eval_lanes(const UTree* t, const int* shoes, int u, double* buf,
                          double* out, const double* const* frows,
                          const double* const* dtabs) noexcept nogil:
    """:func:`tree_eval` of up card ``u``'s row for LANES shoes at once (its sums, in its
    order): ``shoes[l * NR + r]`` (up card still in each), ``out[l * NOUT + o]`` P(dealer
    outcome o | up card u) from shoe ``l`` (``t``: a tree with that up card's hands). The shoes
    share the tree's walk, so its index loads are made once for all of them, and the
    products of one node are independent. ``buf``: caller-owned scratch of LANES *
    (``t.n`` + ``t.ncomb``) doubles. The factors :func:`tree_eval` makes from each shoe
    come made (:func:`union_sums`, by :func:`falling_row` and :func:`total_table`, the same
    products): ``frows[l * NR + r][k]`` the
    falling count of rank ``r`` in shoe ``l`` (k <= ``t.kmax[r]``), ``dtabs[l]`` its
    falling-total table.
    """
    cdef double f[LANES][NR * KMAX]
    cdef const double* fp[LANES]
    cdef double* rows[LANES]
    cdef int l, r, j, o, n, N
    cdef double* cf
    cdef const int* shoe
    for l in range(LANES):
        for r in range(NR):
            memcpy(&f[l][r * KMAX], frows[l * NR + r], (t.kmax[r] + 1) * sizeof(double))
        fp[l] = f[l]
        rows[l] = &out[l * NOUT]
        buf[l] = 1.0
    n = t.n
    cf = buf + LANES * n
    sc_lanes_combs_apart(t.comb_f, t.comb_d, t.ncomb, fp, dtabs, cf)
    # each node's product, four lanes at once (lanes.h: the loop is the one tree_eval
    # makes per shoe; four loads, then four stores, so nothing to re-read)
    sc_lanes_nodes(<const int*>t.lsteps, n, cf, buf)
    # per shoe, the sums of tree_eval in its order (bit for bit the same rows): accumulator
    # q takes the entries e = q mod 4 of the group, the rest go to the first
    sc_lanes_groups(t.grp_node, t.grp_w, &t.grp_start[u * NOUT], NOUT, buf, rows)
    for l in range(LANES):
        shoe = &shoes[l * NR]
        N = 0
        for r in range(NR):
            N += shoe[r]
        j = l * NOUT
        if shoe[u] > 0:
            finish_row(t, <double>N / shoe[u], &out[j])
        else:  # (no up card u in the shoe: no row)
            for o in range(NOUT):
                out[j + o] = 0.0


cdef int tree_scratch_size() noexcept nogil:
    """Doubles of scratch :func:`tree_eval` needs for any tree (an up card's is a part of
    the all-up-cards tree's, its factors too)."""
    cdef int h, b, n = 0
    for h in range(NDRULES):
        for b in range(2):
            if trees[h][b].n + trees[h][b].ncomb > n:
                n = trees[h][b].n + trees[h][b].ncomb
    return n


cdef void replacement_rows(const int* shoe, int drule, double* rows) noexcept nogil:
    """``rows[u * NOUT + o]``: P(dealer outcome o | up card u) when every card he draws comes
    from ``shoe`` with replacement (an infinite deck: each draw is rank r with chance
    shoe[r] / N, whatever was dealt before), under dealer rule ``drule``. Unconditioned,
    a blackjack included; the dealer never runs out. One pass over his (hard total, ace)
    states from the highest down: a state's outcome is its own where he stands, else the
    mean of its children's (each a higher hard total)."""
    cdef double f[32][2][NOUT]  # hard 2..31 (a drawing hand of 16 takes a ten: 26)
    cdef double p[NR]
    cdef int r, o, hard, a, u, N = 0, out
    for r in range(NR):
        N += shoe[r]
    for r in range(NR):
        p[r] = <double>shoe[r] / N if N > 0 else 0.0
    memset(f, 0, sizeof(f))
    for hard in range(31, 1, -1):
        for a in range(2):
            out = dealer_outcome(hard, a, 3, drule)  # (3 cards: no blackjack here)
            if out >= 0:
                f[hard][a][out] = 1.0
                continue
            for r in range(NR):
                for o in range(NOUT):
                    f[hard][a][o] += p[r] * f[hard + r + 1][a | (r == 0)][o]
    memset(rows, 0, ROWS * sizeof(double))
    for u in range(NR):
        for r in range(NR):
            hard = u + r + 2
            a = (u == 0) | (r == 0)
            out = dealer_outcome(hard, a, 2, drule)
            if out == OUT_BJ:
                rows[u * NOUT + OUT_BJ] += p[r]
                continue
            for o in range(NOUT):
                rows[u * NOUT + o] += p[r] * f[hard][a][o]


def dealer_probs(const int[:] shoe, int up, int drule, bint replace=False):
    """Dealer outcome probabilities ``(p17, p18, p19, p20, p21, bust, blackjack, 22)``
    under dealer rule ``drule`` (DEALER_H17 | DEALER_22: without DEALER_22 a 22 is a bust
    and its entry is 0).

    ``shoe``: the 10 rank counts left after removing the up card (1..10) and any
    known cards; the hole card is drawn from it. Unconditioned. If the dealer
    could run out of cards the probabilities sum to less than 1. ``replace``: an
    infinite deck, every card drawn with replacement in ``shoe``'s proportions
    (:func:`replacement_rows`).
    """
    cdef double rows[ROWS]
    cdef int s[NR]
    cdef int r, n = 0
    cdef double* buf
    check_shoe(shoe)
    check_up(up)
    if replace:
        with nogil:
            replacement_rows(&shoe[0], drule, rows)
        return tuple([rows[(up - 1) * NOUT + i] for i in range(NOUT)])
    ensure_trees(drule)
    for r in range(NR):
        s[r] = shoe[r] + (r == up - 1)
        n += s[r]
    buf = <double*>malloc(tree_scratch_size() * sizeof(double))
    if buf == NULL:
        raise MemoryError()
    with nogil:
        tree_eval(up_tree_for(drule, n, up - 1), s, buf, rows)
    free(buf)
    return tuple([rows[(up - 1) * NOUT + i] for i in range(NOUT)])


def dealer_table_sizes():
    """``{(h17, with_bust, up): (nodes, finals)}`` of the dealer prefix trees (up 0: all ten)."""
    ensure_trees(False)
    ensure_trees(True)
    sizes = {(h, b, 0): (trees[h][b].n, trees[h][b].nfin) for h in range(2) for b in range(2)}
    for h in range(2):
        for b in range(2):
            for u in range(NR):
                sizes[(h, b, u + 1)] = (up_trees[h][b][u].n, up_trees[h][b][u].nfin)
    return sizes


cdef int check_shoe(const int[:] shoe) except -1:
    cdef int r
    if shoe is None or shoe.shape[0] != NR:
        raise ValueError("a shoe has 10 rank counts")
    for r in range(NR):
        if shoe[r] < 0 or shoe[r] > 100000:
            raise _InputError("a rank count must be between 0 and 100000")
    return 0


cdef int check_up(int up) except -1:
    if up < 1 or up > 10:
        raise ValueError("the up card is a rank 1..10")
    return 0
