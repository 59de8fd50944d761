# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled engine of strategy_calc (private: use :mod:`strategy_calc.engine`).

Blackjack
---------
Ranks are indexed 0..9 (ace .. ten-valued). A *shoe* is an array of 10 card
counts. Everything is exact enumeration over the actual remaining cards.

*Dealer.* Every final dealer hand is a multiset ``M`` of cards, the up card
included; which multisets are final does not depend on the order the cards
came in, only how many valid orders there are: ``w_u(M)`` orders start with
up card ``u`` and stop exactly at the last card. From a shoe ``s`` (``N``
cards) *that still holds the up card*, ``P(up = u and the dealer ends with M)
= w_u(M) prod_r s_r!/(s_r-m_r)! / (N!/(N-|M|)!)``, so dividing by ``s_u/N``
gives ``P(M | up = u)`` for all ten up cards from one pass over one prefix
tree of multisets (4,048 nodes S17). Busts are never enumerated: P(bust) is
one minus the rest, which is exact whenever the shoe holds at least as many
cards as the longest dealer hand (13 with the up card); smaller shoes use a
tree with the bust leaves and report lost mass (the dealer could run out).

A player hand ``H`` against up card ``u`` from the shoe ``S`` (up card gone)
sees the dealer draw from ``S - H``, i.e. from ``(S + u) - H`` given up card
``u``: one evaluation of ``(S + u) - H`` serves every up card. A
:class:`DealerMemo` keeps them by the cards removed from one *origin* shoe
(the shoe with the up card in), so a whole-game pass (every hand, every
split hand, every up card) evaluates each removed multiset once.

*Player.* Every multiset of player cards with hard total <= 21 is a node of a
static table (3,083 nodes, children by rank). For a query, a node's shoe is
``base - counts(node)``; values are memoized per node within the query.

*Conditioning* (``Params.mode``): 0 = no hole card checked (ENHC): plain
expectation, a dealer blackjack beats a standing hand (loss ``bjl1``, doubled
``bjl2``); 1 = peek, exact: the values are E[payoff * 1{no dealer
blackjack}], the hole card drawn last (exchangeable with the player's draws),
so a bust is worth ``-P(no blackjack | shoe then)``; the caller divides by
P(no blackjack) at the root; 2 = peek, the common shortcut: the player draws
as if no hole card were dealt and standing uses the dealer distribution
renormalised to no blackjack.

Reentrancy: the tables are built once at import; every call owns its
scratch (or a caller-owned :class:`DealerMemo`, one call at a time) and runs
without the GIL, so calls from many threads do not interfere.
"""

from libc.stdlib cimport malloc, free, calloc, realloc, qsort
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint64_t
from libc.math cimport isfinite

cdef extern from "lanes.h" nogil:  # tree_eval_lanes' hot loops, built for AVX2 too
    void sc_lanes_nodes(const int* steps, int n, const double* cf, double* buf)
    void sc_lanes_group(const int* node, const double* w, int e, int k, const double* buf,
                        double* out)

import array

include "_baccarat.pxi"

cdef enum:
    NR = 10
    NOUT = 7
    OUT_BUST = 5
    OUT_BJ = 6
    MAXN = 4096
    KMAX = 24
    NCLASS = 64
    NTOTALS = 22
    ROWS = 70   # NR * NOUT: a dealer distribution for every up card

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
    int ncomb           # distinct (fidx, didx) factors of the tree ...
    int* comb_f         # ... their fidx
    int* comb_d         # ... and didx
    double* grp_w       # ... and its weight
    int kmax[NR]
    int ncards_max
    bint with_bust

cdef UTree trees[2][2]  # [h17][with bust leaves]: every up card at once
cdef UTree up_trees[2][2][NR]  # [h17][with bust leaves][up card]: one up card's hands only
cdef int longest_hand[2]  # most cards in a final dealer hand (up card included), S17 / H17
cdef enum:
    ALL_UPS = (1 << NR) - 1   # every up card, as bits (EntryRows, set_tree)
    SET_TREES_MAX = 192       # set trees kept (a chart's hints use 15-25 sets, two trees each)

cdef int* node_mask[2][2]  # per node of trees[h17][b]: bit u, a final under it starts with u
cdef UTree* set_trees[2][2][1 << NR]  # trees of several up cards, made on first use (set_tree)
cdef int n_set_trees = 0  # ... how many (at most SET_TREES_MAX, about 290 KB each)
cdef int tree_cost[2][2][NR + 1]  # [h17][with bust leaves][0: all up cards, u + 1: one]: the
                                  # steps and summed entries of one tree_eval (its work)


cdef inline int final_outcome(int total, bint soft, int ncards, bint h17) noexcept nogil:
    """Outcome index if the dealer stops here (0..4 = 17..21, 5 bust, 6 blackjack), else -1."""
    cdef int best = total + 10 if soft and total + 10 <= 21 else total
    if ncards == 2 and best == 21:
        return OUT_BJ
    if total > 21:
        return OUT_BUST
    if best >= 17:
        if h17 and best == 17 and soft and total + 10 == 17:
            return -1
        return best - 17
    return -1


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


# ---------------------------------------------------------------- player nodes
cdef int n_nodes = 0
cdef int node_counts[MAXN][NR]
cdef int node_child[MAXN][NR]
cdef int node_best[MAXN]
cdef int node_ncards[MAXN]
cdef int node_class[MAXN]     # best total + 32 if soft: the key of a total-dependent policy
cdef double node_orders[MAXN]  # distinct orderings of the node's cards (multinomial)
cdef int id_777 = -1
cdef int id_678 = -1


cdef long long multinomial(const int* counts) noexcept nogil:
    """Distinct orders of a multiset (exact: a product of binomials)."""
    cdef long long m = 1, c
    cdef int n = 0, r, i
    for r in range(NR):
        c = 1
        for i in range(counts[r]):
            c = c * (n + i + 1) // (i + 1)
        n += counts[r]
        m *= c
    return m


cdef int build_player_table() except -1:
    """Every multiset of ranks with hard total <= 21, children linked by rank.

    Breadth first, children numbered as first reached (rank order within a
    node), so a node's id exceeds its parents' and the nodes come by card count.
    """
    global n_nodes, id_777, id_678
    cdef KeyMap index
    cdef int i, r, s, t, n = 1, child
    cdef int counts[NR]
    cdef long long slot
    if keymap_init(&index, 13, 1) != 0:
        keymap_free(&index)
        raise MemoryError("building the player table")
    memset(node_counts[0], 0, sizeof(node_counts[0]))
    i = 0
    while i < n:
        t = 0
        for r in range(NR):
            t += (r + 1) * node_counts[i][r]
        for r in range(NR):
            if t + r + 1 > 21:
                node_child[i][r] = -1
                continue
            for s in range(NR):
                counts[s] = node_counts[i][s] + (s == r)
            slot = keymap_find(&index, pack5(counts))
            if slot >= 0:
                child = index.out[slot]
            else:
                if n >= MAXN:
                    keymap_free(&index)
                    raise MemoryError("player table overflow")
                child = n
                n += 1
                memcpy(node_counts[child], counts, sizeof(counts))
                index.out[keymap_slot(&index, pack5(counts))] = child
            node_child[i][r] = child
        node_best[i] = t + 10 if node_counts[i][0] > 0 and t + 10 <= 21 else t
        node_ncards[i] = 0
        for r in range(NR):
            node_ncards[i] += node_counts[i][r]
        node_class[i] = node_best[i] + (32 if node_best[i] != t else 0)
        node_orders[i] = <double>multinomial(node_counts[i])
        if node_ncards[i] == 3 and node_counts[i][6] == 3:
            id_777 = i
        if node_ncards[i] == 3 and node_counts[i][5] == 1 and node_counts[i][6] == 1 \
                and node_counts[i][7] == 1:
            id_678 = i
        i += 1
    n_nodes = n
    keymap_free(&index)
    return 0


build_player_table()


cdef int node_of(const int* counts) noexcept nogil:
    """Node id of a multiset of player cards (-1 if its hard total exceeds 21)."""
    cdef int node = 0, r, k
    for r in range(NR):
        for k in range(counts[r]):
            node = node_child[node][r]
            if node < 0:
                return -1
    return node


cdef void dealer_sequences(int total, bint soft, int ncards, int* counts, int up, bint h17,
                           KeyMap* finals) noexcept nogil:
    """Count every draw order from up card ``up`` into its final multiset in ``finals``."""
    cdef int o = final_outcome(total, soft, ncards, h17)
    cdef long long slot
    cdef int r
    if o >= 0:
        slot = keymap_slot(finals, pack5(counts))
        finals.out[slot] = o
        finals.w[slot * NR + up] += 1.0
        return
    for r in range(NR):
        counts[r] += 1
        dealer_sequences(total + r + 1, soft or r == 0, ncards + 1, counts, up, h17, finals)
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
    t.comb_f = <int*>malloc(t.n * sizeof(int))
    t.comb_d = <int*>malloc(t.n * sizeof(int))
    if seen == NULL or t.steps == NULL or t.comb_f == NULL or t.comb_d == NULL:
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


cdef int build_trees() except -1:
    """Every dealer tree, from one enumeration of draw orders per soft-17 rule."""
    cdef KeyMap finals
    cdef int counts[NR]
    cdef int h, b, up, i, j, k
    cdef int* mask
    cdef const UTree* t
    for h in range(2):
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


build_trees()


cdef inline const UTree* made_set_tree(bint h17, int b, int bits) noexcept nogil:
    """:func:`set_tree` once it has been made (for sections without the GIL)."""
    cdef int u
    if bits == ALL_UPS:
        return &trees[h17][b]
    if bits & (bits - 1) == 0:
        for u in range(NR):
            if bits == 1 << u:
                return &up_trees[h17][b][u]
    return set_trees[h17][b][bits]


cdef const UTree* set_tree(bint h17, int b, int bits) except NULL:
    """The tree of the up cards ``bits`` (bit ``u``: up card ``u``; ``b``: with bust leaves):
    :func:`derive_up_tree`'s, made on first use and kept. Called with the GIL held, which
    makes the first use one at a time; a tree is published only once made, and never
    changes after, so sections without the GIL read it freely."""
    global n_set_trees
    cdef UTree* t
    if bits == ALL_UPS or bits & (bits - 1) == 0:
        return made_set_tree(h17, b, bits)
    if set_trees[h17][b][bits] == NULL:
        t = <UTree*>calloc(1, sizeof(UTree))
        if t == NULL or derive_up_tree(&trees[h17][b], node_mask[h17][b], bits, t) != 0:
            raise MemoryError("building a dealer tree")
        set_trees[h17][b][bits] = t
        n_set_trees += 1
    return set_trees[h17][b][bits]


cdef inline const UTree* tree_for(bint h17, int n_cards) noexcept nogil:
    """The tree without bust leaves when the dealer cannot run out of cards, else the full one."""
    return &trees[h17][0] if n_cards >= longest_hand[h17] else &trees[h17][1]


cdef inline const UTree* up_tree_for(bint h17, int n_cards, int up_index) noexcept nogil:
    """:func:`tree_for` restricted to one up card (smaller: 372..2,452 nodes S17, with busts)."""
    return &up_trees[h17][0][up_index] if n_cards >= longest_hand[h17] \
        else &up_trees[h17][1][up_index]


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


cdef void tree_eval(const UTree* t, const int* shoe, double* buf, double* rows) noexcept nogil:
    """``rows[u * 7 + o]``: P(dealer outcome o | up card u) from ``shoe`` (up card still in it).

    Outcomes 0..4 are 17..21, 5 bust, 6 blackjack (unconditioned). Rows of
    ranks the shoe lacks are 0. ``buf``: caller-owned scratch of ``t.n + t.ncomb`` doubles
    (:func:`tree_scratch_size`).

    A node's value is P(its cards are the first ones drawn, in a given order): each
    tree step multiplies in the falling count of its rank, ``f``, over the falling
    count of the cards left, ``d`` (the latter by the cards its parent holds).
    """
    cdef double f[NR * KMAX]
    cdef double d[(KMAX + 1) * (KMAX + 1)]
    cdef double scale, rest
    cdef int r, k, i, j, e, o, n, N = 0, top = t.ncards_max
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
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        scale = <double>N / shoe[r]
        rest = 0.0
        for o in range(NOUT):
            rows[r * NOUT + o] *= scale
            if o != OUT_BUST:
                rest += rows[r * NOUT + o]
        if not t.with_bust:
            rows[r * NOUT + OUT_BUST] = 1.0 - rest


cdef enum:
    LANES = 4   # shoes :func:`tree_eval_lanes` evaluates at once (lanes.h is written for 4)


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
    cdef const double* d[LANES]
    cdef double rest, scale
    cdef double lane_sum[LANES]
    cdef int l, r, i, j, o, n, N, g
    cdef const TStep* steps = t.steps
    cdef const int* comb_f = t.comb_f
    cdef const int* comb_d = t.comb_d
    cdef const int* grp_node = t.grp_node
    cdef const double* grp_w = t.grp_w
    cdef double* cf
    cdef const int* shoe
    for l in range(LANES):
        for r in range(NR):
            memcpy(&f[l][r * KMAX], frows[l * NR + r], (t.kmax[r] + 1) * sizeof(double))
        d[l] = dtabs[l]
    n = t.n
    cf = buf + LANES * n
    for i in range(t.ncomb):
        for l in range(LANES):
            cf[i * LANES + l] = f[l][comb_f[i]] * d[l][comb_d[i]]
    for l in range(LANES):
        buf[l] = 1.0
    # each node's product, four lanes at once (lanes.h: the loop is the one tree_eval
    # makes per shoe; four loads, then four stores, so nothing to re-read)
    sc_lanes_nodes(<const int*>steps, n, cf, buf)
    for j in range(NOUT):
        g = u * NOUT + j
        # per shoe, the sums of tree_eval in its order (bit for bit the same rows):
        # accumulator q takes the entries e = q mod 4 of the group, the rest go to the first
        sc_lanes_group(grp_node, grp_w, t.grp_start[g], t.grp_start[g + 1], buf, lane_sum)
        for l in range(LANES):
            out[l * NOUT + j] = lane_sum[l]
    for l in range(LANES):
        shoe = &shoes[l * NR]
        N = 0
        for r in range(NR):
            N += shoe[r]
        j = l * NOUT
        scale = <double>N / shoe[u] if shoe[u] > 0 else 0.0
        rest = 0.0
        for o in range(NOUT):
            out[j + o] *= scale
            if o != OUT_BUST:
                rest += out[j + o]
        if not t.with_bust:
            out[j + OUT_BUST] = 1.0 - rest if scale != 0.0 else 0.0


cdef int tree_scratch_size() noexcept nogil:
    """Doubles of scratch :func:`tree_eval` needs for any tree (an up card's is a part of
    the all-up-cards tree's, its factors too)."""
    cdef int h, b, n = 0
    for h in range(2):
        for b in range(2):
            if trees[h][b].n + trees[h][b].ncomb > n:
                n = trees[h][b].n + trees[h][b].ncomb
    return n


def dealer_probs(const int[:] shoe, int up, bint h17):
    """Dealer outcome probabilities ``(p17, p18, p19, p20, p21, bust, blackjack)``.

    ``shoe``: the 10 rank counts left after removing the up card (1..10) and any
    known cards; the hole card is drawn from it. Unconditioned. If the dealer
    could run out of cards the probabilities sum to less than 1.
    """
    cdef double rows[ROWS]
    cdef int s[NR]
    cdef int r, n = 0
    cdef double* buf
    check_shoe(shoe)
    check_up(up)
    for r in range(NR):
        s[r] = shoe[r] + (r == up - 1)
        n += s[r]
    buf = <double*>malloc(tree_scratch_size() * sizeof(double))
    if buf == NULL:
        raise MemoryError()
    with nogil:
        tree_eval(up_tree_for(h17, n, up - 1), s, buf, rows)
    free(buf)
    return tuple([rows[(up - 1) * NOUT + i] for i in range(NOUT)])


def dealer_table_sizes():
    """``{(h17, with_bust, up): (nodes, finals)}`` of the dealer prefix trees (up 0: all ten)."""
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
            raise ValueError("a rank count must be between 0 and 100000")
    return 0


cdef int check_up(int up) except -1:
    if up < 1 or up > 10:
        raise ValueError("the up card is a rank 1..10")
    return 0


# ------------------------------------------------------------- dealer memo
cdef struct EntryRows:  # a DMemo entry's rows, as bits (bit u: up card u)
    unsigned short have   # computed (ALL_UPS: every row)
    unsigned short want   # asked for while deferring (DealerMemo.node_wants)
    unsigned short rent   # computed one up card at a time (dmemo_fill)


cdef struct DMemo:
    int origin[NR]      # the shoe the removals are counted from (up card(s) in it)
    bint h17
    int up              # -1: rows for every up card; else the rank index kept
    int stride          # doubles per entry (70 or 7)
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
    double rows[ROWS]   # ... and its output (single-up memos)
    int* node_entry     # entry of each player node's removal, -1 until computed
    bint busy


cdef int dmemo_init(DMemo* m, const int* origin, bint h17, int up) noexcept nogil:
    """``up``: 0 keeps every up card's row, 1..10 only that one. Returns -1 if out of memory."""
    cdef int r
    for r in range(NR):
        m.origin[r] = origin[r]
    m.h17 = h17
    m.up = up - 1
    m.stride = ROWS if up == 0 else NOUT
    m.mask = (1ULL << 12) - 1
    m.used = 0
    m.cap = 1024
    m.busy = False
    m.keys = <uint64_t*>calloc(m.mask + 1, sizeof(uint64_t))
    m.entry = <int*>malloc((m.mask + 1) * sizeof(int))
    m.vals = <double*>malloc(m.cap * m.stride * sizeof(double))
    m.rows_of = <EntryRows*>malloc(m.cap * sizeof(EntryRows))
    m.deferring = False
    m.walks[0] = m.walks[1] = m.walks[2] = 0
    m.hint = NULL
    m.buf = <double*>malloc(tree_scratch_size() * sizeof(double))
    m.node_entry = <int*>malloc(n_nodes * sizeof(int))
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
    free(m.node_entry)
    m.keys = NULL
    m.entry = NULL
    m.vals = NULL
    m.rows_of = NULL
    m.buf = NULL
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
    b = 0 if n >= longest_hand[m.h17] else 1
    if node >= 0 and m.hint != NULL:
        bits = m.hint[node] & ALL_UPS
        if bits & (1 << up_index) and bits != ALL_UPS:
            t = made_set_tree(m.h17, b, bits)
            if t != NULL:  # (made by DealerMemo.hint)
                dmemo_walk(m, idx, shoe, t, bits)
                return
        lazy = lazy and not bits & (1 << up_index)  # (hinted every up card: walk them all)
    if lazy:
        for u in range(NR):
            if m.rows_of[idx].rent & (1 << u):
                spent += tree_cost[m.h17][b][u + 1]
        if spent + tree_cost[m.h17][b][up_index + 1] <= tree_cost[m.h17][b][0]:
            dmemo_walk(m, idx, shoe, &up_trees[m.h17][b][up_index], 1 << up_index)
            m.rows_of[idx].rent |= 1 << up_index
            return
    tree_eval(&trees[m.h17][b], shoe, m.buf, &m.vals[idx * ROWS])
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


cdef long long dmemo_index(DMemo* m, const int* removed, int up_index,
                           bint lazy, int node) noexcept nogil:
    """Entry of the dealer distributions from ``origin - removed``, with up card
    ``up_index``'s row computed on first use (every row, unless ``lazy``: :func:`dmemo_fill`).

    Returns -1 if out of memory, -2 if ``removed`` cannot be packed (a rank
    count above 63; never for player hands).
    """
    cdef uint64_t key = 1, slot
    cdef int r, n = 0
    cdef int shoe[NR]
    cdef double* grown
    cdef EntryRows* grown_rows
    cdef long long idx
    for r in range(NR):
        if removed[r] > 63:
            return -2
        key += (<uint64_t>removed[r]) << (6 * r)
    slot = mix(key) & m.mask
    while m.keys[slot] != 0:
        if m.keys[slot] == key:
            idx = m.entry[slot]
            if m.up < 0:
                dmemo_need(m, idx, removed, up_index, lazy, node)
            return idx
        slot = (slot + 1) & m.mask
    if m.used == m.cap:
        grown = <double*>realloc(m.vals, 2 * m.cap * m.stride * sizeof(double))
        if grown == NULL:
            return -1
        m.vals = grown
        grown_rows = <EntryRows*>realloc(m.rows_of, 2 * m.cap * sizeof(EntryRows))
        if grown_rows == NULL:
            return -1
        m.rows_of = grown_rows
        m.cap *= 2
    idx = m.used
    if m.up < 0:
        m.rows_of[idx].have = 0
        m.rows_of[idx].want = 0
        m.rows_of[idx].rent = 0
        if m.deferring:  # a placeholder (the dealer always busts), never marked computed
            memset(&m.vals[idx * ROWS], 0, ROWS * sizeof(double))
            for r in range(NR):
                m.vals[idx * ROWS + r * NOUT + OUT_BUST] = 1.0
        dmemo_need(m, idx, removed, up_index, lazy, node)
    else:
        for r in range(NR):
            shoe[r] = m.origin[r] - removed[r]
            n += shoe[r]
        tree_eval(up_tree_for(m.h17, n, m.up), shoe, m.buf, m.rows)
        memcpy(&m.vals[idx * NOUT], &m.rows[m.up * NOUT], NOUT * sizeof(double))
        m.walks[1] += 1
    m.keys[slot] = key
    m.entry[slot] = <int>idx
    m.used += 1
    if m.used * 2 > <long long>m.mask and dmemo_grow(m) != 0:
        return -1
    return idx


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
    tree_eval(up_tree_for(m.h17, n, up_index), shoe, m.buf, m.rows)
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
    """
    cdef DMemo m
    cdef object _hints  # keeps the buffer m.hint points into

    def __cinit__(self, const int[:] origin, bint h17, int up=0):
        cdef int o[NR]
        cdef int r
        check_shoe(origin)
        if up < 0 or up > 10:
            raise ValueError("up is 0 (every up card) or a rank 1..10")
        for r in range(NR):
            o[r] = origin[r]
        if dmemo_init(&self.m, o, h17, up) != 0:
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
                    set_trees[self.m.h17][1][bits] != NULL or n_set_trees + 2 <= SET_TREES_MAX):
                set_tree(self.m.h17, 0, bits)
                set_tree(self.m.h17, 1, bits)
        self._hints = wants
        self.m.hint = &wants[0]

    @property
    def origin(self):
        """The origin shoe's rank counts."""
        return tuple([self.m.origin[r] for r in range(NR)])


cdef DMemo* memo_acquire(DealerMemo memo, const int* base, int up, bint h17) except? NULL:
    """Check ``memo`` fits a call on ``base`` (up card gone) and mark it in use."""
    cdef int r
    if memo is None:
        return NULL
    if memo.m.busy:
        raise RuntimeError("this DealerMemo is in use by another call (use one per thread)")
    if memo.m.h17 != h17:
        raise ValueError("the DealerMemo was made for the other soft-17 rule")
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


# -------------------------------------------------------------- parameters
cdef struct Params:
    int mode             # conditioning: 0 ENHC, 1 peek exact, 2 peek shortcut
    bint h17
    double bjl1          # an ENHC dealer blackjack takes this from a standing hand (bet 1)
    double bjl2          # ... from a doubled one
    double bjl1_second   # the same for split hands after the first
    double bjl2_second
    double b777
    double b678
    double q678          # chance a 6-7-8 made by this hand would be suited
    bint das             # double after split (for this pair)
    bint aces_one_card   # split aces take one card each
    int double_ok[NTOTALS]
    int nsuit            # split 6/7/8 hands that know their suits: cases of the pair card's suit
    double suit_w[4]     # ... each case's probability
    double suit_u[4][3]  # ... and the chance that a 6, 7, 8 drawn has that suit


cdef int read_params(object p, Params* out) except -1:
    """Fill ``out`` from an :class:`strategy_calc.engine.EngineParams` (read by field name)."""
    cdef int t, r
    out.mode = int(p.conditioning)
    if out.mode < 0 or out.mode > 2:
        raise ValueError("conditioning is 0, 1 or 2")
    out.h17 = bool(p.dealer_hits_soft_17)
    out.bjl1 = p.blackjack_loss
    out.bjl2 = p.blackjack_loss_doubled
    out.bjl1_second = p.second_hand_blackjack_loss
    out.bjl2_second = p.second_hand_blackjack_loss_doubled
    out.b777 = p.bonus_777
    out.b678 = p.bonus_suited_678
    out.q678 = p.suited_678_chance
    for x in (out.bjl1, out.bjl2, out.bjl1_second, out.bjl2_second, out.b777, out.b678):
        if not isfinite(x):
            raise ValueError("engine parameters must be finite")
    if not (0.0 <= out.q678 <= 1.0):
        raise ValueError("suited_678_chance is a probability")
    out.das = bool(p.double_after_split)
    out.aces_one_card = bool(p.split_aces_one_card)
    totals = p.double_totals
    if len(totals) != NTOTALS:
        raise ValueError("double_totals has 22 flags")
    for t in range(NTOTALS):
        out.double_ok[t] = 1 if totals[t] else 0
    cases = p.split_suits
    if len(cases) > 4:
        raise ValueError("split_suits has at most 4 cases (one a suit)")
    out.nsuit = len(cases)
    for t, case in enumerate(cases):
        if len(case) != 4 or not all(0.0 <= x <= 1.0 for x in case):
            raise ValueError("a split_suits case is (probability, chance 6, chance 7, chance 8)")
        out.suit_w[t] = case[0]
        for r in range(3):
            out.suit_u[t][r] = case[1 + r]
    return 0


# ---------------------------------------------------------------- player play
cdef struct Ctx:
    int base[NR]        # the shoe the player draws from (up card and known cards gone)
    int up
    int mode
    double bjl1
    double bjl2
    double b777
    double b678
    double q678
    int nsuit           # the split hand's suit cases (see Params), 0: decide with q678
    double suit_w[4]
    double suit_u[4][3]
    bint h17
    DMemo* memo         # if set: dealer distributions by ``node + offset`` removed from its origin
    bint lazy           # ... filled one up card at a time first (dmemo_fill; split hands)
    int offset[NR]      # cards gone from the memo's origin besides the up card and the node
    int shift_rank      # offset = shift_count cards of shift_rank (-1 count: not of that form)
    int shift_count
    double* tbuf        # dealer-tree scratch (without a memo)
    char* has_s         # stand values computed (they do not depend on bjl or policy)
    char* has_v         # optimal (composition-dependent) value computed
    char* has_t         # fixed-policy value computed
    double* sn          # sum over non-blackjack dealer outcomes of P * payoff of standing
    double* pbj         # P(dealer blackjack) with the node's cards gone
    double* val         # optimal stand/hit value
    double* valt        # value under ``policy``
    const char* policy  # per node class: 1 = hit, 0 = stand (total-dependent play)
    const char* codes   # per node, overrides ``policy`` when set: bit 2 = hit, else stand
    int suit_play       # propagate at a split 6/7/8's two-card nodes: 0 by the codes, 1 its
                        # suit-aware best for this shoe, 2 the ones suited_value recorded
    char suit_code[3][4][2]  # suited_value's codes: [second card - 6][suit case][unsuited]
                             # (0: not recorded)
    double* mom         # if set, :func:`propagate` tracks per node 3 moments of the hand's
                        # cards of ranks mom_r with the other split hand's suit (mass times
                        # E[k_a], E[k_b], E[k_a k_b]; see split_suited_rounds)
    int mom_r[2]        # ... those ranks (the two a split 6, 7 or 8 needs)
    double mom_t[2]     # ... cards of known suit among them in the hand's first shoe
    double mom_s2[2]    # ... of which have the other hand's suit
    bint mom_same       # the two hands' pair cards share one suit
    bint exhausted      # some dealer hand could run out of cards (no exact answer)
    bint failed         # out of memory inside a nogil section


cdef int ctx_init(Ctx* c, const int* base, int up, const Params* p, bint second_hand,
                  DMemo* memo) except -1:
    """A context for hands drawn from ``base`` against ``up`` (losses of a second split
    hand when ``second_hand``). ``memo``: dealer distributions to share (offset 0)."""
    cdef int r
    for r in range(NR):
        c.base[r] = base[r]
        c.offset[r] = 0
    c.shift_rank = 0
    c.shift_count = 0
    c.up = up
    c.mode = p.mode
    c.bjl1 = p.bjl1_second if second_hand else p.bjl1
    c.bjl2 = p.bjl2_second if second_hand else p.bjl2
    c.b777 = p.b777
    c.b678 = p.b678
    c.q678 = p.q678
    c.nsuit = p.nsuit
    for r in range(p.nsuit):
        c.suit_w[r] = p.suit_w[r]
        c.suit_u[r][0] = p.suit_u[r][0]
        c.suit_u[r][1] = p.suit_u[r][1]
        c.suit_u[r][2] = p.suit_u[r][2]
    c.h17 = p.h17
    c.memo = memo
    c.lazy = False
    c.policy = NULL
    c.codes = NULL
    c.suit_play = 0
    memset(c.suit_code, 0, sizeof(c.suit_code))
    c.mom = NULL
    c.mom_r[0] = -1
    c.mom_r[1] = -1
    c.exhausted = False
    c.failed = False
    c.has_s = <char*>calloc(3 * n_nodes, sizeof(char))
    c.sn = <double*>malloc(4 * n_nodes * sizeof(double))
    c.tbuf = <double*>malloc(tree_scratch_size() * sizeof(double))
    if c.has_s == NULL or c.sn == NULL or c.tbuf == NULL:
        ctx_free(c)
        raise MemoryError()
    c.has_v = c.has_s + n_nodes
    c.has_t = c.has_s + 2 * n_nodes
    c.pbj = c.sn + n_nodes
    c.val = c.sn + 2 * n_nodes
    c.valt = c.sn + 3 * n_nodes
    return 0


cdef void ctx_forget(Ctx* c) noexcept nogil:
    """Forget every value (the shoe changed)."""
    memset(c.has_s, 0, 3 * n_nodes * sizeof(char))


cdef void dealer_for(Ctx* c, int node, const int* gone, double* d) noexcept nogil:
    """The dealer distribution (unconditioned) when the cards ``gone`` leave ``c.base``.

    ``node``: the player node whose cards ``gone`` are, or -1 (any removal).
    """
    cdef int removed[NR]
    cdef int shoe[NR]
    cdef double rows[ROWS]
    cdef int r, k, n = 0, wide = node
    if c.memo != NULL:
        for r in range(NR):
            removed[r] = gone[r] + c.offset[r]
        if node >= 0 and c.shift_count >= 0:
            for k in range(c.shift_count):
                if wide >= 0:
                    wide = node_child[wide][c.shift_rank]
        else:
            wide = -1
        if wide >= 0:
            if dmemo_row_node(c.memo, wide, removed, c.up - 1, c.lazy, d) != 0:
                c.failed = True
        elif dmemo_row(c.memo, removed, c.up - 1, c.lazy, d) != 0:
            c.failed = True
        return
    for r in range(NR):
        shoe[r] = c.base[r] - gone[r] + (r == c.up - 1)
        n += shoe[r]
    tree_eval(up_tree_for(c.h17, n, c.up - 1), shoe, c.tbuf, rows)
    memcpy(d, &rows[(c.up - 1) * NOUT], NOUT * sizeof(double))


cdef int check_cards(Ctx* c) except -1:
    """Raise if a dealer hand in this computation could have run out of cards."""
    if c.failed:
        raise MemoryError()
    if c.exhausted:
        raise ValueError("too few cards left for an exact answer: the dealer could run out"
                         " of cards")
    return 0


cdef void ctx_reset_values(Ctx* c) noexcept nogil:
    """Forget the play values (keep the stand values: they depend on the shoe only)."""
    memset(c.has_v, 0, 2 * n_nodes * sizeof(char))


cdef void ctx_free(Ctx* c) noexcept nogil:
    free(c.has_s)
    free(c.sn)
    free(c.tbuf)
    c.has_s = NULL
    c.sn = NULL
    c.tbuf = NULL


cdef inline int node_shoe(Ctx* c, int node, int* shoe) noexcept nogil:
    """Fill ``shoe`` with the cards left when the player holds ``node``; return their number."""
    cdef int r, N = 0
    for r in range(NR):
        shoe[r] = c.base[r] - node_counts[node][r]
        N += shoe[r]
    return N


cdef inline bint node_possible(Ctx* c, int node) noexcept nogil:
    """True when the shoe holds the node's cards and at least one more for the dealer."""
    cdef int r, N = 0
    for r in range(NR):
        if node_counts[node][r] > c.base[r]:
            return False
        N += c.base[r] - node_counts[node][r]
    return N > 0


cdef inline double no_bj(int up, const int* shoe, int N) noexcept nogil:
    """P(dealer has no blackjack | up card, ``shoe`` with ``N`` cards left)."""
    if N <= 0:
        return 1.0
    if up == 1:
        return 1.0 - <double>shoe[NR - 1] / N
    if up == 10:
        return 1.0 - <double>shoe[0] / N
    return 1.0


cdef void ensure_stand(Ctx* c, int node) noexcept nogil:
    cdef double d[NOUT]
    cdef int t, o, x
    cdef double sn
    if c.has_s[node]:
        return
    dealer_for(c, node, node_counts[node], d)
    sn = 0.0
    for o in range(NOUT):
        sn += d[o]
    if sn < 1.0 - 1e-9:
        c.exhausted = True
    t = node_best[node]
    sn = d[OUT_BUST]
    for o in range(5):
        x = 17 + o
        if t > x:
            sn += d[o]
        elif t < x:
            sn -= d[o]
    c.sn[node] = sn
    c.pbj[node] = d[OUT_BJ]
    c.has_s[node] = 1


cdef inline double stand_value(Ctx* c, int node, double bet) noexcept nogil:
    """Value of standing with ``node`` on a bet of ``bet`` (1, or 2 when doubled)."""
    ensure_stand(c, node)
    if c.mode == 0:
        return bet * c.sn[node] - (c.bjl2 if bet > 1.0 else c.bjl1) * c.pbj[node]
    if c.mode == 1:
        return bet * c.sn[node]
    return bet * c.sn[node] / (1.0 - c.pbj[node])


cdef inline double bust_value(Ctx* c, const int* shoe, int N, int r, double bet) noexcept nogil:
    """Value of busting with card ``r`` drawn from ``shoe`` (``N`` cards)."""
    cdef double nb
    if c.mode != 1 or (c.up != 1 and c.up != 10):
        return -bet
    if c.up == 1:
        nb = 1.0 - <double>(shoe[NR - 1] - (r == NR - 1)) / (N - 1) if N > 1 else 1.0
    else:
        nb = 1.0 - <double>(shoe[0] - (r == 0)) / (N - 1) if N > 1 else 1.0
    return -bet * nb


cdef inline double settle_factor(Ctx* c, int node) noexcept nogil:
    """Weight of a payment made at once (a bonus): P(no blackjack) in mode 1, else 1."""
    cdef int shoe[NR]
    cdef int N
    if c.mode != 1:
        return 1.0
    N = node_shoe(c, node, shoe)
    return no_bj(c.up, shoe, N)


cdef double hit_value(Ctx* c, int node, bint by_policy) noexcept nogil:
    """Value of drawing one card, then playing on (optimally, or by ``c.policy``)."""
    cdef int shoe[NR]
    cdef int r, ch
    cdef int N = node_shoe(c, node, shoe)
    cdef double h = 0.0, p
    if N <= 0:
        return -1e300
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        p = <double>shoe[r] / N
        ch = node_child[node][r]
        if ch < 0:
            h += p * bust_value(c, shoe, N, r, 1.0)
        elif by_policy:
            h += p * policy_value(c, ch)
        else:
            h += p * play_value(c, ch)
    return h


cdef inline bint bonus_777(Ctx* c, int node) noexcept nogil:
    return node == id_777 and c.b777 > 0


cdef inline double with_678(Ctx* c, int node, double v) noexcept nogil:
    """``v`` with the suited 6-7-8 bonus mixed in (chance ``q678``) at that node."""
    if node == id_678 and c.b678 > 0 and c.q678 > 0:
        return c.q678 * c.b678 * settle_factor(c, node) + (1.0 - c.q678) * v
    return v


cdef double play_value(Ctx* c, int node) noexcept nogil:
    """Value of holding ``node`` and playing optimally by standing or hitting (bonus included)."""
    cdef double s, h, v
    if c.has_v[node]:
        return c.val[node]
    if bonus_777(c, node):
        v = c.b777 * settle_factor(c, node)
    else:
        s = stand_value(c, node, 1.0)
        h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
        v = with_678(c, node, s if s >= h else h)
    c.has_v[node] = 1
    c.val[node] = v
    return v


cdef double policy_value(Ctx* c, int node) noexcept nogil:
    """Value of holding ``node`` and hitting or standing as ``c.policy`` says for its total."""
    cdef double v
    if c.has_t[node]:
        return c.valt[node]
    if bonus_777(c, node):
        v = c.b777 * settle_factor(c, node)
    elif node_best[node] < 21 and (
            (c.codes[node] & 2) if c.codes != NULL else c.policy[node_class[node]]):
        v = with_678(c, node, hit_value(c, node, True))
    else:
        v = with_678(c, node, stand_value(c, node, 1.0))
    c.has_t[node] = 1
    c.valt[node] = v
    return v


cdef double double_value(Ctx* c, int node, double bet=2.0) noexcept nogil:
    """Value of doubling: bet 2, exactly one card, then stand (no bonus).

    With ``bet`` 1: one card then stand on the original bet (a bet-behind
    follower who does not follow the seat's double).
    """
    cdef int shoe[NR]
    cdef int r, ch
    cdef int N = node_shoe(c, node, shoe)
    cdef double d = 0.0, p
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        p = <double>shoe[r] / N
        ch = node_child[node][r]
        if ch < 0:
            d += p * bust_value(c, shoe, N, r, bet)
        else:
            d += p * stand_value(c, ch, bet)
    return d


cdef inline bint suited_start(Ctx* c, int pair, int r) noexcept nogil:
    """A split 6, 7 or 8 whose second card ``r`` is another of them, suits known."""
    return c.nsuit > 0 and c.b678 > 0 and 5 <= pair <= 7 and 5 <= r <= 7 and r != pair


cdef inline void forget_678(Ctx* c, int node) noexcept nogil:
    c.has_v[node] = 0
    c.has_v[id_678] = 0


cdef double suited_variant(Ctx* c, int node, bint may_double, double q, double d,
                           int* code) noexcept nogil:
    """Best value (and engine code) at the two-card ``node`` when a 6-7-8 it makes
    next is suited with chance ``q``; ``d``: its double value (no bonus)."""
    cdef double s, h, v
    c.q678 = q
    forget_678(c, node)
    s = stand_value(c, node, 1.0)
    h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
    v = play_value(c, node)
    code[0] = 2 if h > s else 4
    if may_double and d > v:
        v = d
        code[0] |= 1
    return v


cdef double suited_value(Ctx* c, int pair, int r, int node, bint may_double) noexcept nogil:
    """A split 6, 7 or 8 that drew ``r``, another of them (``node``): played knowing
    whether ``r`` has the pair card's suit.

    Suit case k (probability ``w_k``) gives the pair card a suit; ``r`` shares it
    with chance ``u_k(r)``, and then the third rank completes a suited 6-7-8 with
    chance ``u_k(t)`` (removing other ranks does not change a rank's suit mix);
    otherwise no 6-7-8 it makes is suited. The hand decides in each case: the value
    is sum_k w_k (u_k(r) V(u_k(t)) + (1 - u_k(r)) V(0)) with V(q) its best play
    when the next 6-7-8 is suited with chance q (only the 6-7-8 node depends on q).
    """
    cdef int k, code, t = 18 - pair - r
    cdef double saved = c.q678, acc = 0.0, u, d = -1e300
    if may_double:
        d = double_value(c, node)
    for k in range(c.nsuit):
        u = c.suit_u[k][r - 5]
        if u > 0.0:
            acc += c.suit_w[k] * u * suited_variant(c, node, may_double, c.suit_u[k][t - 5],
                                                     d, &code)
            c.suit_code[r - 5][k][0] = <char>code
        if u < 1.0:
            acc += c.suit_w[k] * (1.0 - u) * suited_variant(c, node, may_double, 0.0, d, &code)
            c.suit_code[r - 5][k][1] = <char>code
    c.q678 = saved
    forget_678(c, node)
    return acc


cdef double split_hand(Ctx* c, int pair, const int* double_ok, bint das, bint aces_one_card,
                       const char* chart_two, double* pair_term=NULL) noexcept nogil:
    """Value of one split hand started from one card of rank index ``pair``.

    The context's ``base`` must hold the shoe minus the *other* pair card, so
    the node {pair} sees the shoe minus both. Each hand plays for its own cards
    only (it ignores the other's): optimally when ``chart_two`` is NULL, else
    by the chart: ``chart_two[node]`` for its first two cards (bit 1: double
    if allowed, bit 2: else hit, bit 4: else stand, 0: the hit/stand policy),
    then hit/stand by ``c.policy``.
    """
    cdef int shoe[NR]
    cdef int r, ch, code, n1 = node_child[0][pair]
    cdef int N = node_shoe(c, n1, shoe)
    cdef double w = 0.0, v, d, p
    cdef bint may_double
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        p = <double>shoe[r] / N
        ch = node_child[n1][r]
        may_double = das and double_ok[node_best[ch]]
        if pair == 0 and aces_one_card:
            v = stand_value(c, ch, 1.0)
        elif chart_two == NULL:
            if suited_start(c, pair, r):
                v = suited_value(c, pair, r, ch, may_double)
            else:
                v = play_value(c, ch)
                if may_double:
                    d = double_value(c, ch)
                    if d > v:
                        v = d
        else:
            code = chart_two[ch]
            if may_double and code & 1:
                v = double_value(c, ch)
            elif code & 2 and node_best[ch] < 21 and not bonus_777(c, ch):
                v = with_678(c, ch, hit_value(c, ch, True))
            elif code & 4:
                v = with_678(c, ch, stand_value(c, ch, 1.0))
            else:
                v = policy_value(c, ch)
        if r == pair and pair_term != NULL:
            pair_term[0] = v
        w += p * v
    return w


cdef void record_codes(Ctx* c, int pair, const int* double_ok, bint das,
                       char* codes) noexcept nogil:
    """Freeze the optimal split-hand play found in ``c`` as per-node codes.

    ``codes[node]``: bit 1 double (first two cards), bit 2 hit, bit 4 stand,
    for every node the optimal play of a split hand reached in ``c``.
    """
    cdef int node, n1 = node_child[0][pair]
    cdef double s, h, d
    for node in range(n_nodes):
        if not c.has_v[node] or node_counts[node][pair] < node_counts[n1][pair]:
            continue
        s = stand_value(c, node, 1.0)
        h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
        codes[node] = 2 if h > s else 4
        if node_ncards[node] == 2 and das and double_ok[node_best[node]]:
            d = double_value(c, node, 2.0)
            if d > (h if h > s else s):
                codes[node] |= 1


cdef int check_hand(const int[:] hand, const int[:] base) except -1:
    cdef int r
    if hand is None or hand.shape[0] != NR:
        raise ValueError("a hand has 10 rank counts")
    for r in range(NR):
        if hand[r] < 0 or hand[r] > base[r]:
            raise ValueError("the hand holds cards the shoe does not")
    return 0


cdef int check_codes(const char[:] codes, str name) except -1:
    if codes is not None and codes.shape[0] < n_nodes:
        raise ValueError(f"{name} needs one code per player node ({n_nodes})")
    return 0


def hand_values(const int[:] base, const int[:] hand, int up, params,
                const char[:] policy=None):
    """Raw values of one player hand: ``(stand, hit, double, no_blackjack, one_card, policy)``.

    ``base``: the shoe with the hand's own cards still in it (the up card and
    other known cards removed); ``hand``: the hand's rank counts; ``up``: 1..10;
    ``params``: an :class:`~strategy_calc.engine.EngineParams`. Values are per
    unit bet in the conditioning's scale (see the module docstring): for peek
    exact divide by ``no_blackjack`` (P(no dealer blackjack) at the root) to get
    EVs given the dealer has no blackjack. A natural is not special here (the
    caller pays it). ``hit`` is -inf for a hand of 21. ``one_card``: one card
    then stand, bet unchanged; ``policy``: hit/stand by ``policy`` (per node
    class, 1 = hit) from here on (NaN without one).
    """
    cdef Params P
    cdef Ctx c
    cdef int shoe[NR]
    cdef int node, N
    cdef double st, hi, db, nb, one, pol = float("nan")
    read_params(params, &P)
    check_shoe(base)
    check_up(up)
    check_hand(hand, base)
    if policy is not None and policy.shape[0] < NCLASS:
        raise ValueError("policy needs 64 classes")
    node = node_of(&hand[0])
    if node < 0:
        raise ValueError("the hand is bust")
    ctx_init(&c, &base[0], up, &P, False, NULL)
    try:
        N = node_shoe(&c, node, shoe)
        if N < 1:
            raise ValueError("no cards left for the dealer")
        if policy is not None:
            c.policy = &policy[0]
        with nogil:
            st = stand_value(&c, node, 1.0)
            hi = hit_value(&c, node, False) if node_best[node] < 21 else -1e300
            db = double_value(&c, node, 2.0)
            one = double_value(&c, node, 1.0)
            nb = no_bj(up, shoe, N)
            if c.policy != NULL:
                pol = policy_value(&c, node)
        check_cards(&c)
    finally:
        ctx_free(&c)
    return st, (hi if hi > -1e299 else float("-inf")), db, nb, one, pol


cdef int check_pair(const int[:] base, int pair) except -1:
    check_shoe(base)
    if pair < 1 or pair > 10:
        raise ValueError("the pair is a rank 1..10")
    if base[pair - 1] < 2:
        raise ValueError("the shoe does not hold the pair")
    return 0


cdef int split_rows(Ctx* c, const int* base, int p, const Params* P, int max_extra,
                    const char* chart, char* frozen, double* res, int columns,
                    int frozen_at) except -1:
    """Fill ``res`` (6 per row, rows 0..max_extra) for one loss setting; see split_tables.

    ``columns``: bit 1 the optimal pair, bit 2 the chart pair, bit 4 the chart without
    double after split (the others stay NaN). The optimal rows play the decisions that
    are best with ``frozen_at`` extra pair cards gone (rows below it stay NaN)."""
    cdef int r, a
    cdef int b2[NR]
    for a in range(max_extra + 1):
        for r in range(6):
            res[a * 6 + r] = float("nan")
        for r in range(NR):
            b2[r] = base[r] - (r == p) * (1 + a)
            c.base[r] = b2[r]
            c.offset[r] = (r == p) * (1 + a)
        c.shift_rank = p
        c.shift_count = 1 + a
        if b2[p] < 1:
            break
        ctx_forget(c)
        c.codes = NULL
        with nogil:
            if a == frozen_at and columns & 1:  # (the chart's rows need no optimal play)
                res[a * 6] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card, NULL,
                                        &res[a * 6 + 1])
                if max_extra > 0:
                    record_codes(c, p, P.double_ok, P.das, frozen)
            elif a > frozen_at and columns & 1:
                c.codes = frozen
                res[a * 6] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card, frozen,
                                        &res[a * 6 + 1])
            if chart != NULL and columns & 6:
                ctx_reset_values(c)
                c.codes = chart
                if columns & 2:
                    res[a * 6 + 2] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card,
                                                chart, &res[a * 6 + 3])
                if columns & 4:
                    res[a * 6 + 4] = split_hand(c, p, P.double_ok, False, P.aces_one_card,
                                                chart, &res[a * 6 + 5])
        check_cards(c)
    return 0


def split_tables(const int[:] base, int pair, int up, params, int max_extra,
                 const char[:] chart_codes=None, DealerMemo memo=None, int columns=7,
                 int frozen_at=0, bint lazy=False):
    """Split-hand values with 0..``max_extra`` further pair cards gone (for resplitting).

    ``base``: the shoe with both pair cards still in (up card and known cards
    removed); ``params``: the pair's :class:`~strategy_calc.engine.EngineParams`
    (its double-after-split and one-card-aces flags apply). Returns
    ``(first, others)``: rows for the first split hand and for the hands after
    it (they differ only in what an ENHC dealer blackjack takes; the same list
    when they cannot differ). For ``a`` extra pair cards removed, row ``a``
    holds ``(X, P, X_chart, P_chart, X_chart_nodas, P_chart_nodas)``: ``X`` the
    value of one split hand drawing its second card from the shoe less both
    pair cards and ``a`` more (a pair card is played, not resplit), ``P`` the
    value of that hand when its second card is a pair card. The optimal rows
    play the split hands' best composition-dependent strategy *for a = 0*
    (each hand knows its own cards, the up card and the original pair), frozen
    so that the removal identities of the resplit sum hold; the chart rows play
    ``chart_codes`` (per node: bit 1 double, 2 hit, 4 stand). NaN where not
    computed. Same scale as :func:`hand_values`. ``memo``: dealer distributions
    shared with other calls on the same origin (``base`` plus the up card).
    ``columns``: which pairs of columns to compute (bit 1 ``X, P``, bit 2 the
    chart's, bit 4 the chart's without DAS); the rest are NaN. ``frozen_at``:
    the optimal rows play the decisions best with that many extra pair cards
    gone (0: cdp1; each resplit count its own: cdp), frozen for the rows above
    it; the optimal rows below it are NaN. ``lazy``: the pair is split against a few up
    cards only (a chart's round), so ``memo`` fills the hands' dealer rows one up card
    at a time first (:func:`dmemo_fill`); a speed-up only.
    """
    cdef Params P
    cdef Ctx c
    cdef int r, a, p = pair - 1, hands
    cdef int b[NR]
    cdef double* res = NULL
    cdef char* frozen = NULL
    cdef const char* chart = NULL
    cdef DMemo* m = NULL
    read_params(params, &P)
    check_pair(base, pair)
    check_up(up)
    check_codes(chart_codes, "chart_codes")
    if max_extra < 0 or max_extra > 4:
        raise ValueError("max_extra is 0..4 (up to four hands)")
    if frozen_at < 0 or frozen_at > max_extra:
        raise ValueError("frozen_at is 0..max_extra")
    if chart_codes is not None:
        chart = &chart_codes[0]
    for r in range(NR):
        b[r] = base[r]
    hands = 2 if P.mode == 0 and (P.bjl1 != P.bjl1_second or P.bjl2 != P.bjl2_second) else 1
    m = memo_acquire(memo, b, up, P.h17)
    tables = []
    try:
        res = <double*>malloc(6 * (max_extra + 1) * sizeof(double))
        frozen = <char*>calloc(n_nodes, sizeof(char))
        if res == NULL or frozen == NULL:
            raise MemoryError()
        for hand in range(hands):
            ctx_init(&c, b, up, &P, hand == 1, m)
            c.lazy = lazy
            try:
                memset(frozen, 0, n_nodes)
                split_rows(&c, b, p, &P, max_extra, chart, frozen, res, columns, frozen_at)
            finally:
                ctx_free(&c)
            rows = []
            for a in range(max_extra + 1):
                if b[p] - (1 + a) < 1:
                    break
                rows.append(tuple([res[a * 6 + r] for r in range(6)]))
            tables.append(rows)
    finally:
        memo_release(m)
        free(res)
        free(frozen)
    return tables[0], tables[len(tables) - 1]


# ------------------------------------------------------ whole-game pass (charts)
cdef int class_order[NCLASS]
cdef int n_class_order = 0


cdef void build_class_order() noexcept nogil:
    """Hit/stand classes in an order where every child class comes first.

    Hard 21..12 (children: harder totals), soft 21..12 (children: soft higher
    or hard >= 12), then hard 11..2 (children: any of the above).
    """
    global n_class_order
    cdef int t, i = 0
    for t in range(21, 11, -1):
        class_order[i] = t
        i += 1
    for t in range(21, 11, -1):
        class_order[i] = 32 + t
        i += 1
    for t in range(11, 1, -1):
        class_order[i] = t
        i += 1
    n_class_order = i


cdef int class_start[NCLASS + 1]  # nodes of two or more cards by class: offsets ...
cdef int class_nodes[MAXN]         # ... into this list (ascending node ids)


cdef void build_class_nodes() noexcept nogil:
    cdef int node, k, n = 0
    for k in range(NCLASS):
        class_start[k] = n
        for node in range(n_nodes):
            if node_class[node] == k and node_ncards[node] >= 2:
                class_nodes[n] = node
                n += 1
    class_start[NCLASS] = n


build_class_order()
build_class_nodes()


def node_table():
    """The static player-node table: ``(counts, best_total, class, ncards, children)`` lists."""
    return ([[node_counts[i][r] for r in range(NR)] for i in range(n_nodes)],
            [node_best[i] for i in range(n_nodes)],
            [node_class[i] for i in range(n_nodes)],
            [node_ncards[i] for i in range(n_nodes)],
            [[node_child[i][r] for r in range(NR)] for i in range(n_nodes)])


cdef enum:   # up_card_pass's ``wanted`` flags
    ROW_ALL = 1
    ROW_STAND = 2
    ROW_POLICY_HIT = 4
    ROW_DOUBLE = 8


cdef inline int row_columns(const char* want, bint fixed_policy, int node) noexcept nogil:
    """The columns :func:`up_card_pass` fills for ``node``: ROW_ALL unless a fixed policy's
    ``wanted`` flag names some (the caller has checked that the row is wanted)."""
    if want == NULL or not fixed_policy or want[node] & ROW_ALL:
        return ROW_ALL
    return want[node]


def up_card_pass(const int[:] base, int up, params, double[:, ::1] out, char[:] policy,
                 bint fixed_policy=False, DealerMemo memo=None, const char[:] wanted=None,
                 bint optimal=True):
    """Every player hand against one up card, in one pass.

    ``base``: the shoe minus the up card (and known cards). For every node with
    at least two cards that the shoe can hold, ``out[node]`` gets the columns
    of :data:`strategy_calc.engine.PASS_COLUMNS`: ``(stand, optimal, double,
    policy, weight, no_blackjack, hit, policy_hit)``: stand value, optimal
    stand/hit value, double value, value under the total-dependent hit/stand
    policy, the node's probability as a draw from ``base`` (all orders),
    P(no blackjack) with its cards gone, the optimal value of hitting, and the
    value of hitting then following the policy (the stand value at 21); rows
    of impossible nodes are NaN. Bonus nodes (7-7-7, suited 6-7-8 with chance
    ``q678``) are settled at once. ``policy[class]`` is set to 1 where hitting
    beats standing summed over every composition of that total, weighted by
    ``weight`` (the total-dependent strategy); with ``fixed_policy`` the given
    ``policy`` is used as it is (e.g. auto-play). ``memo``: dealer
    distributions shared with other calls on the same origin.

    ``wanted`` (per node, nonzero = fill its row): only those rows are filled, the
    others stay NaN; with ``fixed_policy`` only what they need is computed (a node the
    policy never reaches from them costs nothing, not even its dealer distribution).
    A flag of 1 (any odd flag) fills the whole row; else, with ``fixed_policy``, its bits
    name the columns: 2 ``stand``, 4 ``policy_hit``, 8 ``double`` (``weight`` and
    ``no_blackjack`` always; ``policy``, ``optimal`` and ``hit`` only in whole rows): a
    chart's round values the chart's play of each start only, and a play it does not
    take costs nothing.
    ``optimal`` False: the columns ``optimal`` and ``hit`` are left NaN (the
    composition-dependent play, which needs every node's stand value, is not computed).
    """
    cdef Params P
    cdef Ctx c
    cdef int i, j, k, q, node, r, N
    cdef const char* want = NULL
    cdef int shoe[NR]
    cdef double w, fall, sum_s, sum_h, s, h
    cdef double nan = float("nan")
    cdef char* pol
    cdef int cols
    cdef DMemo* m = NULL
    read_params(params, &P)
    check_shoe(base)
    check_up(up)
    if out.shape[0] != n_nodes or out.shape[1] != 8:
        raise ValueError(f"out needs {n_nodes} x 8")
    if policy.shape[0] != NCLASS:
        raise ValueError("policy needs 64 entries")
    if wanted is not None:
        if wanted.shape[0] != n_nodes:
            raise ValueError(f"wanted needs one flag per player node ({n_nodes})")
        want = &wanted[0]
    pol = &policy[0]
    m = memo_acquire(memo, &base[0], up, P.h17)
    try:
        ctx_init(&c, &base[0], up, &P, False, m)
        c.policy = pol
        try:
            with nogil:
                if not fixed_policy:
                    memset(pol, 0, NCLASS)
                for node in range(n_nodes):
                    for j in range(8):
                        out[node, j] = nan
                for i in range(n_class_order):
                    k = class_order[i]
                    sum_s = 0.0
                    sum_h = 0.0
                    for q in range(class_start[k], class_start[k + 1]):
                        node = class_nodes[q]
                        if fixed_policy and want != NULL and not want[node]:
                            continue
                        if not node_possible(&c, node):
                            continue
                        N = node_shoe(&c, node, shoe)
                        w = node_orders[node]
                        fall = 1.0
                        for r in range(NR):
                            for j in range(node_counts[node][r]):
                                w *= c.base[r] - j
                        for j in range(node_ncards[node]):
                            fall *= (N + node_ncards[node]) - j
                        w /= fall
                        cols = row_columns(want, fixed_policy, node)
                        s = h = nan
                        if cols & (ROW_ALL | ROW_STAND) or (
                                cols & ROW_POLICY_HIT and node_best[node] >= 21):
                            s = stand_value(&c, node, 1.0)
                        if cols & (ROW_ALL | ROW_POLICY_HIT):
                            h = hit_value(&c, node, True) if node_best[node] < 21 else s
                        sum_s += w * s
                        sum_h += w * h
                        if want != NULL and not want[node]:
                            continue
                        if cols & (ROW_ALL | ROW_STAND):  # (else a 21's stand, only for h)
                            out[node, 0] = s
                        out[node, 7] = h
                        out[node, 4] = w
                        out[node, 5] = no_bj(up, shoe, N)
                    if not fixed_policy:
                        pol[k] = 1 if sum_h > sum_s else 0
                    for q in range(class_start[k], class_start[k + 1]):
                        node = class_nodes[q]
                        if out[node, 4] == out[node, 4] and \
                                row_columns(want, fixed_policy, node) & ROW_ALL:
                            out[node, 3] = policy_value(&c, node)
                for node in range(n_nodes):
                    if out[node, 4] != out[node, 4]:
                        continue
                    cols = row_columns(want, fixed_policy, node)
                    if cols & (ROW_ALL | ROW_DOUBLE):
                        out[node, 2] = double_value(&c, node)
                    if optimal and cols & ROW_ALL:
                        out[node, 1] = play_value(&c, node)
                        out[node, 6] = hit_value(&c, node, False) \
                            if node_best[node] < 21 else -1e300
            check_cards(&c)
        finally:
            ctx_free(&c)
    finally:
        memo_release(m)


# ------------------------------------------------------- outcome distributions
cdef enum:
    HIST_OFFSET = 500   # histogram bin of a net result x (units of the bet): round(100 x) + 500
    HIST_SIZE = 2600
    T_STAND = 0
    T_BUST = 1
    T_BONUS = 2

cdef struct Term:
    int node       # the hand's cards (for a bust: before the busting card)
    int extra      # rank index of the busting card, or -1
    int kind       # T_STAND, T_BUST, T_BONUS
    double bet     # 1, or 2 when doubled
    double value   # a bonus's payout
    double mass    # probability of ending here (given the start)
    double ka      # with moments tracked (Ctx.mom): mass times E[k_a], E[k_b], E[k_a k_b]
    double kb      # (k_x: the hand's cards of rank Ctx.mom_r[x] with the other hand's
    double kab     # suit); split_suited_rounds then keeps hand 2's suit weights here


cdef inline int add_term(Term* out, int n, int cap, int node, int extra, int kind, double bet,
                         double value, double mass) noexcept nogil:
    """Append one terminal to ``out``: the new count, or -1 once ``cap`` is reached."""
    if n < 0 or n >= cap:
        return -1
    out[n].node = node
    out[n].extra = extra
    out[n].kind = kind
    out[n].bet = bet
    out[n].value = value
    out[n].mass = mass
    out[n].ka = 0.0
    out[n].kb = 0.0
    out[n].kab = 0.0
    return n + 1


cdef inline int add_last_card(Term* out, int n, int cap, int node, int r, double bet,
                              double mass) noexcept nogil:
    """The hand at ``node`` takes its last card ``r`` (it doubled, or ``r`` busts it)."""
    cdef int ch = node_child[node][r]
    if ch < 0:
        return add_term(out, n, cap, node, r, T_BUST, bet, 0.0, mass)
    return add_term(out, n, cap, ch, -1, T_STAND, bet, 0.0, mass)


cdef inline int hist_bin(double x) noexcept nogil:
    cdef int b = <int>(x * 100.0 + (0.5 if x >= 0 else -0.5)) + HIST_OFFSET
    if b < 0:
        return 0
    if b >= HIST_SIZE:
        return HIST_SIZE - 1
    return b


cdef bint wants_hit(Ctx* c, int node, const char* codes) noexcept nogil:
    """The fixed policy (``codes``) or, without one, the optimal stand/hit choice at ``node``."""
    if node_best[node] >= 21:
        return False
    if codes != NULL:
        return (codes[node] & 2) != 0
    return hit_value(c, node, False) > stand_value(c, node, 1.0)


cdef inline int second_rank(int start, int node) noexcept nogil:
    """The rank index ``node`` has one more of than ``start``."""
    cdef int r
    for r in range(NR):
        if node_counts[node][r] != node_counts[start][r]:
            return r
    return -1


cdef inline void draw_moments(Ctx* c, int node, int x, double f, double m, const double* M,
                              double* out) noexcept nogil:
    """The moments (see ``Ctx.mom``) after the hand at ``node`` (mass ``m``, moments ``M``)
    draws a card of rank ``x``, times ``f`` (the draw's probability).

    A card of a tracked rank comes uniformly from that rank's cards of known suit not in
    the hand: R = mom_t - (the hand's cards of the rank), of which mom_s2 - k have the
    other hand's suit (cards taken out without a suit are, by exchangeability, cards
    not yet seen: they leave the law of the suits the hands see as it was). So E[k'] = E[k] (1 - 1/R) + mom_s2 / R, and E[k' k_o] for the other
    tracked rank's count k_o is E[k k_o] (1 - 1/R) + E[k_o] mom_s2 / R: linear in the
    moments, exact whatever earlier conditioning made k and k_o depend on each other.
    """
    cdef int i
    cdef double R, s
    out[0] = f * M[0]
    out[1] = f * M[1]
    out[2] = f * M[2]
    for i in range(2):
        if x == c.mom_r[i]:
            R = c.mom_t[i] - node_counts[node][x]
            if R > 0.0:
                s = c.mom_s2[i] / R
                out[i] = f * (M[i] * (1.0 - 1.0 / R) + m * s)
                out[2] = f * (M[2] * (1.0 - 1.0 / R) + M[1 - i] * s)


cdef inline void add_moments(double* dst, const double* src) noexcept nogil:
    dst[0] += src[0]
    dst[1] += src[1]
    dst[2] += src[2]


cdef inline void term_moments(Ctx* c, Term* out, int n, const double* M) noexcept nogil:
    """Give the term just written (``out[n - 1]``) the moments ``M`` (if tracked)."""
    if c.mom != NULL and n > 0:
        out[n - 1].ka = M[0]
        out[n - 1].kb = M[1]
        out[n - 1].kab = M[2]


cdef inline void bonus_moments(Ctx* c, Term* out, int n, double mass, double* rest) noexcept nogil:
    """The suited 6-7-8 just written (``out[n - 1]``, probability ``mass``) takes its
    share of the moments ``rest`` (what reaches the 6-7-8 node): its 6, 7, 8 have the
    pair card's suit, so the other hand's exactly when the two share one."""
    cdef double b = mass if c.mom_same else 0.0
    cdef double bm[3]
    bm[0] = b
    bm[1] = b
    bm[2] = b
    term_moments(c, out, n, bm)
    rest[0] -= b
    rest[1] -= b
    rest[2] -= b


cdef int suited_terms(Ctx* c, int node, double m, int pair, int r, bint may_double,
                      Term* out, int n, int cap, double* mass) noexcept nogil:
    """:func:`propagate` at a split 6/7/8's two-card ``node`` that knows its suits.

    Each suit case plays its own best decision (as :func:`suited_value` values it);
    a hit that makes a suited 6-7-8 settles here (the 6-7-8 node then gets only the
    unsuited mass). Returns the new number of terms, -1 if more than ``cap`` (a count
    of -1 stays -1 through :func:`add_term`).

    Moments (``c.mom``, one suit case): ``r`` is the hand's first card of its rank, so
    its share of the node's moment splits by whether it has the pair card's suit: with
    it, it has the other hand's suit exactly when the two share one. A suited 6-7-8
    (third card ``t`` of the pair card's suit) carries moments 1 each when they do.
    """
    cdef int shoe[NR]
    cdef int k, j, x, ch, code, N, ir, t = 18 - pair - r
    cdef double saved = c.q678, d = -1e300, u, q, w, p, b
    cdef double Mb[3]
    cdef double tmp[3]
    cdef double* M = NULL
    if may_double:
        d = double_value(c, node)
    N = node_shoe(c, node, shoe)
    if c.mom != NULL:
        M = &c.mom[3 * node]
    ir = 0 if r == c.mom_r[0] else 1
    for k in range(c.nsuit):
        u = c.suit_u[k][r - 5]
        for j in range(2):
            w = m * c.suit_w[k] * (u if j == 0 else 1.0 - u)
            if w == 0.0:
                continue
            q = c.suit_u[k][t - 5] if j == 0 else 0.0
            if M != NULL:
                Mb[0] = M[0] if j == 1 else 0.0
                Mb[1] = M[1] if j == 1 else 0.0
                Mb[2] = M[2] if j == 1 else 0.0
                b = m * c.suit_w[k] * u if c.mom_same else 0.0
                Mb[ir] = b if j == 0 else M[ir] - b
            if c.suit_play == 2:
                code = c.suit_code[r - 5][k][j]
            else:
                suited_variant(c, node, may_double, q, d, &code)
            if code == 4:  # (a two-card 6-7, 6-8 or 7-8 is never 21)
                n = add_term(out, n, cap, node, -1, T_STAND, 1.0, 0.0, w)
                term_moments(c, out, n, Mb)
                continue
            for x in range(NR):
                if shoe[x] <= 0:
                    continue
                p = w * shoe[x] / N
                ch = node_child[node][x]
                if M != NULL:
                    draw_moments(c, node, x, <double>shoe[x] / N, w, Mb, tmp)
                if code & 1 or ch < 0:
                    n = add_last_card(out, n, cap, node, x, 2.0 if code & 1 else 1.0, p)
                    term_moments(c, out, n, tmp)
                elif ch == id_678 and q > 0.0:
                    n = add_term(out, n, cap, ch, -1, T_BONUS, 1.0, c.b678, p * q)
                    mass[ch] += p * (1.0 - q)
                    if M != NULL:
                        bonus_moments(c, out, n, p * q, tmp)
                        add_moments(&c.mom[3 * ch], tmp)
                else:
                    mass[ch] += p
                    if M != NULL:
                        add_moments(&c.mom[3 * ch], tmp)
    c.q678 = saved
    forget_678(c, node)
    return n


cdef int propagate(Ctx* c, int start, double m0, const char* codes, bint first_two,
                   const int* double_ok, bint das, bint aces_one_card, Term* out,
                   int cap, double* mass) noexcept nogil:
    """Where a hand ends, by probability: every terminal state after hitting ``start``.

    ``start`` (mass ``m0``) takes a card; from then on the hand hits or stands
    by ``codes`` (per node, bit 2 = hit) or, with no codes, optimally. Draw
    probabilities come from ``c.base`` less the node's cards. With
    ``first_two`` (``start`` is a one-card split hand) the two-card decision
    follows ``codes`` (bit 1 double, 2 hit, 4 stand) or the optimal choice.
    Returns the number of terminals written (-1 if more than ``cap``).
    With ``c.mom`` set, each terminal also gets its moments (see ``Ctx.mom``).
    """
    cdef int shoe[NR]
    cdef int node, r, ch, N, n = 0, code
    cdef double m, p, d, s, h, v, q
    cdef bint doubled
    cdef int pair = -1
    cdef bint suited = False
    cdef double* M = NULL
    cdef double tmp[3]
    if first_two and node_ncards[start] == 1:
        for r in range(NR):
            if node_counts[start][r]:
                pair = r
        suited = c.suit_play != 0 and suited_start(c, pair, 5 if pair != 5 else 6)
    for node in range(start, n_nodes):
        mass[node] = 0.0
    if c.mom != NULL:
        memset(&c.mom[3 * start], 0, 3 * (n_nodes - start) * sizeof(double))
    mass[start] = m0
    for node in range(start, n_nodes):
        m = mass[node]
        if m == 0.0:
            continue
        if c.mom != NULL:
            M = &c.mom[3 * node]
        if suited and node_ncards[node] == 2 and node_child[start][second_rank(start, node)] \
                == node and suited_start(c, pair, second_rank(start, node)):
            n = suited_terms(c, node, m, pair, second_rank(start, node),
                             das and double_ok[node_best[node]], out, n, cap, mass)
            if n < 0:
                return -1
            continue
        # the bonuses settle a three-card hand at once
        if node_ncards[node] == 3 and bonus_777(c, node):
            n = add_term(out, n, cap, node, -1, T_BONUS, 1.0, c.b777, m)
            if n < 0:
                return -1
            term_moments(c, out, n, M)
            continue
        if node == id_678 and c.b678 > 0 and c.q678 > 0 and not suited:  # (suited: settled)
            n = add_term(out, n, cap, node, -1, T_BONUS, 1.0, c.b678, m * c.q678)
            if n < 0:
                return -1
            if M != NULL:
                bonus_moments(c, out, n, m * c.q678, M)
            m *= 1.0 - c.q678
        doubled = False
        if first_two and node_ncards[node] == 2 and node_ncards[start] == 1:
            if start == node_child[0][0] and aces_one_card:
                code = 4
            elif codes != NULL:
                code = codes[node]
            else:
                s = stand_value(c, node, 1.0)
                h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
                v = s if s >= h else h
                code = 2 if h > s else 4
                if das and double_ok[node_best[node]] and double_value(c, node, 2.0) > v:
                    code |= 1
            doubled = das and double_ok[node_best[node]] and (code & 1) != 0
            if not doubled and not (code & 2 and node_best[node] < 21):
                code = 4
        elif node == start:
            code = 2  # the hand was hit (or is a split hand taking its second card)
        else:
            code = 2 if wants_hit(c, node, codes) else 4
        if code == 4 and not doubled:
            n = add_term(out, n, cap, node, -1, T_STAND, 1.0, 0.0, m)
            if n < 0:
                return -1
            term_moments(c, out, n, M)
            continue
        N = node_shoe(c, node, shoe)
        for r in range(NR):
            if shoe[r] <= 0:
                continue
            p = m * shoe[r] / N
            ch = node_child[node][r]
            if M != NULL:
                draw_moments(c, node, r, <double>shoe[r] / N, m, M, tmp)
            if doubled or ch < 0:
                n = add_last_card(out, n, cap, node, r, 2.0 if doubled else 1.0, p)
                term_moments(c, out, n, tmp)
            else:
                mass[ch] += p
                if M != NULL:
                    add_moments(&c.mom[3 * ch], tmp)
        if n < 0:
            return -1
    return n


cdef inline double term_result(const Term* t, int outcome, double bjl1, double bjl2) noexcept nogil:
    """Net result of a terminal hand against dealer outcome 0..4 (17..21), 5 bust, 6 blackjack."""
    cdef int total = node_best[t.node]
    if t.kind == T_BUST:
        return -t.bet
    if t.kind == T_BONUS:
        return t.value
    if outcome == OUT_BJ:
        return -(bjl2 if t.bet > 1.0 else bjl1)
    if outcome == OUT_BUST or total > 17 + outcome:
        return t.bet
    if total == 17 + outcome:
        return 0.0
    return -t.bet


cdef void settle(Ctx* c, const Term* ta, const Term* tb, double w, double bja1, double bja2,
                 double bjb1, double bjb2, double* hist, double* bj_hist=NULL) noexcept nogil:
    """Add ``w`` times the distribution of the round's net result to ``hist``.

    ``ta`` (and ``tb``, a second split hand, or NULL) are terminal hands whose
    cards are gone from ``c.base``. Mode 1: only outcomes with no dealer
    blackjack (the caller adds the rest). Mode 0 with ``bj_hist``: the outcomes
    in which the dealer has blackjack go there instead. The dealer distribution
    comes from the context's memo, and is not needed at all when no hand stands.
    """
    cdef int shoe[NR]
    cdef int removed[NR]
    cdef double d[NOUT]
    cdef int r, o, N = 0
    cdef double x, nb
    for r in range(NR):
        removed[r] = node_counts[ta.node][r] + (ta.extra == r)
        if tb != NULL:
            removed[r] += node_counts[tb.node][r] + (tb.extra == r)
        shoe[r] = c.base[r] - removed[r]
        N += shoe[r]
    if ta.kind != T_STAND and (tb == NULL or tb.kind != T_STAND):
        x = term_result(ta, 0, bja1, bja2)
        if tb != NULL:
            x += term_result(tb, 0, bjb1, bjb2)
        if c.mode == 0 and bj_hist == NULL:
            hist[hist_bin(x)] += w
            return
        nb = no_bj(c.up, shoe, N)
        hist[hist_bin(x)] += w * nb
        if c.mode == 0:
            bj_hist[hist_bin(x)] += w * (1.0 - nb)
        return
    dealer_for(c, -1, removed, d)
    x = 0.0
    for o in range(NOUT):
        x += d[o]
    if x < 1.0 - 1e-9:
        c.exhausted = True
    for o in range(NOUT):
        if d[o] == 0.0 or (o == OUT_BJ and c.mode != 0):
            continue
        x = term_result(ta, o, bja1, bja2)
        if tb != NULL:
            x += term_result(tb, o, bjb1, bjb2)
        if o == OUT_BJ and bj_hist != NULL:
            bj_hist[hist_bin(x)] += w * d[o]
        else:
            hist[hist_bin(x)] += w * d[o]


cdef inline void hand_two_after(Ctx* cb, const int* base, const Term* t) noexcept nogil:
    """Set ``cb`` (the second split hand's context) to draw from ``base`` (the shoe with
    both pair cards) less the first hand's end ``t``; its values are forgotten."""
    cdef int r
    for r in range(NR):
        cb.base[r] = base[r] - node_counts[t.node][r] - (t.extra == r)
        cb.offset[r] = node_counts[t.node][r] + (t.extra == r)
    cb.shift_count = -1
    ctx_forget(cb)


cdef int split_contexts(Ctx* ca, Ctx* cb, Ctx* cs, const int* base, int p, int up,
                        const Params* P, const Params* P2, DMemo* m) except -1:
    """The contexts of a split round: ``ca`` and ``cb`` for the two hands (each from the
    shoe less the other pair card, its own pair card counted as its node's), ``cs`` (if
    not NULL) to settle from ``base``. Either all are made (free them with ctx_free) or
    none is, and the error is raised."""
    cdef int r
    cdef int b1[NR]
    for r in range(NR):
        b1[r] = base[r] - (r == p)
    ctx_init(ca, b1, up, P, False, m)
    try:
        ctx_init(cb, b1, up, P2, True, m)
    except BaseException:
        ctx_free(ca)
        raise
    if cs != NULL:
        try:
            ctx_init(cs, base, up, P, False, m)
        except BaseException:
            ctx_free(ca)
            ctx_free(cb)
            raise
    ca.offset[p] = 1
    cb.offset[p] = 1
    ca.shift_rank = p
    ca.shift_count = 1
    cb.shift_rank = p
    cb.shift_count = 1
    return 0


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
    w.m = own_or_given(memo, &w.local, base, up, P.h17)
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
    """Order terms by what settles them: node, busting card, kind, bet."""
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

    Hand 2 (pair card suit s2) makes a suited 6-7-8 from the two other ranks a, b:
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
                if 0.0 < u2a < 1.0 and 0.0 < u2b < 1.0 and na_left > 0.0 and nb_left > 0.0:
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
                         bint h17) except? NULL:
    """The caller's memo (checked and marked in use) or ``local``, made for this call."""
    cdef int origin[NR]
    cdef int r
    if memo is not None:
        return memo_acquire(memo, base, up, h17)
    for r in range(NR):
        origin[r] = base[r] + (r == up - 1)
    if dmemo_init(local, origin, h17, up) != 0:
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
    check_hand(hand, base)
    check_hist(hist)
    bjh = blackjack_hist(bj_hist, &P)
    check_codes(codes, "codes")
    if action < 0 or action > 2:
        raise ValueError("action is 0 (stand), 1 (hit) or 2 (double)")
    node = node_of(&hand[0])
    if node < 0:
        raise ValueError("the hand is bust")
    if codes is not None:
        cd = &codes[0]
    local.keys = NULL
    m = own_or_given(memo, &local, &base[0], up, P.h17)
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
    if P2.h17 != P.h17 or P2.mode != P.mode:
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


cdef inline double dealer_dot(Ctx* c, const int* removed, const Term* t, double bjl1,
                              double bjl2, double shift, double* vec) noexcept nogil:
    """Fill ``vec`` with the dealer distribution when ``removed`` leaves ``c.base`` (peek:
    its blackjack entry 0) and return sum_o vec_o (result of ``t`` against o + ``shift``)."""
    cdef int o
    cdef double acc = 0.0
    dealer_for(c, -1, removed, vec)
    if c.mode != 0:
        vec[OUT_BJ] = 0.0
    for o in range(NOUT):
        if vec[o] != 0.0:
            acc += vec[o] * (term_result(t, o, bjl1, bjl2) + shift)
    return acc


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
        dealer_for(cs, -1, removed, d)
        if cs.mode != 0:
            d[OUT_BJ] = 0.0
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
            or a.aces_one_card != b.aces_one_card or a.b777 != b.b777 or a.b678 != b.b678 \
            or a.q678 != b.q678:
        return False
    for t in range(NTOTALS):
        if a.double_ok[t] != b.double_ok[t]:
            return False
    return code_a == code_b or memcmp(code_a, code_b, n_nodes) == 0


cdef enum:
    UMAX = 48   # most cards of both split hands together (2 x 22, a bust's last card
                # counted) that the union factor tables hold, with room


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
        if cs.mode != 0:
            r1[OUT_BJ] = 0.0
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
    bint h17


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
                          const char[:] codes, Params* P, Params* P2) except -1:
    """Read and check the arguments of one split round's moments (:func:`split_moments`,
    :func:`split_moment_table`): 1 when the dealer cannot run out of cards whatever both
    hands draw, else 0 (no exact moments from the identities)."""
    cdef int r, n = 0, most = 0
    read_params(params, P)
    read_params(params if second_params is None else second_params, P2)
    if P2.h17 != P.h17 or P2.mode != P.mode:
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
    return 1 if n - 2 * (most + 1) >= longest_hand[P.h17] else 0


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
        t.h17 = P.h17
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
                    int up, bint h17, double* lanes, double* S) noexcept nogil:
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
    tree = up_tree_for(h17, total + 1 - (nmax + (2 if p >= 0 else 0)), up - 1)
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


cdef enum:
    GROUP_MAX = 32  # tables in one SplitMomentGroup


cdef class SplitMomentGroup:
    """The tables of several split rounds against one up card with their unions merged
    (:func:`split_moment_group`): one dealer evaluation per distinct union serves every
    round that deals it (:func:`split_cross_sums`). Read-only once made."""
    cdef int n               # distinct unions
    cdef int m               # (table, union) entries
    cdef int ntab
    cdef int up
    cdef bint h17
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
        if t.up != (<SplitMomentTable>tables[0]).up or t.t.h17 != (<SplitMomentTable>tables[0]).t.h17:
            raise ValueError("the tables of a split moment group share the up card and the game")
        total += t.t.n
    t = tables[0]
    g.up = t.up
    g.h17 = t.t.h17
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
    if n - (group.nmax - 1) < longest_hand[group.h17]:
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
                             group.kmax, group.nmax, -1, &base[0], up, group.h17, lanes, S)
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
                                  &base[0], up, tab.h17, lanes, &S) != 0:
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
    for r in range(NR):
        b1[r] = base[r] - (r == p)
    local.keys = NULL
    m = own_or_given(memo, &local, &base[0], up, P.h17)
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
    if P2.h17 != P.h17 or P2.mode != P.mode:
        raise ValueError("the two hands' parameters must share the game")
    check_pair(base, pair)
    check_up(up)
    for r in range(NR):
        b1[r] = base[r] - (r == p)
    n1 = node_child[0][p]
    local.keys = NULL
    dm = own_or_given(None, &local, &base[0], up, P.h17)
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


include "_optimal_split.pxi"
