# Player nodes: the static table of every player multiset with hard total <= 21
# (counts, children by rank, best total, class, orders), built once at import.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

# ---------------------------------------------------------------- player nodes
cdef int n_nodes = 0
cdef int node_counts[MAXN][NR]
cdef int node_child[MAXN][NR]
cdef int node_best[MAXN]
cdef int node_ncards[MAXN]
cdef int node_class[MAXN]     # best total + 32 if soft: the key of a total-dependent policy
cdef double node_orders[MAXN]  # distinct orderings of the node's cards (multinomial)
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
    global n_nodes, id_678
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
        node_best[i] = best_total(t, node_counts[i][0] > 0)
        node_ncards[i] = 0
        for r in range(NR):
            node_ncards[i] += node_counts[i][r]
        node_class[i] = node_best[i] + (32 if node_best[i] != t else 0)
        node_orders[i] = <double>multinomial(node_counts[i])
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
