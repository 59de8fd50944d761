# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled engine of strategy_calc (private: use the Python modules).

Blackjack
---------
Ranks are indexed 0..9 (ace .. ten-valued). A *shoe* is an array of 10 card
counts. Everything is exact enumeration over the actual remaining cards.

*Dealer.* For each up card (and S17/H17) every final dealer hand is a
multiset of drawn cards; its probability from a shoe ``n`` (``N`` cards) is
``orderings * prod_r n_r!/(n_r-k_r)! / (N!/(N-K)!)`` where ``orderings`` counts
the draw orders in which the dealer does not stop early. The multisets are
stored as a prefix tree over ranks so one pass of multiply-adds gives the whole
outcome distribution for a composition.

*Player.* Every multiset of player cards with hard total <= 21 is a node of a
static table (3,083 nodes, children by rank). For a query, a node's shoe is
``base - counts(node)``; values are memoized per node within the query.

*Conditioning* (``mode``): 0 = no hole card checked (ENHC): plain expectation,
a dealer blackjack beats a standing hand (loss ``bjl1``, doubled ``bjl2``);
1 = peek, exact: the values are E[payoff * 1{no dealer blackjack}], the hole
card drawn last (exchangeable with the player's draws), so a bust is worth
``-P(no blackjack | shoe then)``; the caller divides by P(no blackjack) at the
root; 2 = peek, the common shortcut: the player draws as if no hole card were
dealt and standing uses the dealer distribution renormalised to no blackjack.
"""

from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset

include "_baccarat.pxi"

cdef enum:
    NR = 10
    NOUT = 7
    OUT_BUST = 5
    OUT_BJ = 6
    MAXN = 4096
    KMAX = 24

# ---------------------------------------------------------------- player nodes
cdef int n_nodes = 0
cdef int node_counts[MAXN][NR]
cdef int node_child[MAXN][NR]
cdef int node_hard[MAXN]
cdef int node_best[MAXN]
cdef int node_ncards[MAXN]
cdef int id_777 = -1
cdef int id_678 = -1


def _build_player_table():
    """Every multiset of ranks with hard total <= 21, children linked by rank."""
    global n_nodes, id_777, id_678
    cdef int i, r, t
    empty = (0,) * NR
    index = {empty: 0}
    order = [empty]
    i = 0
    while i < len(order):
        counts = order[i]
        t = sum((r + 1) * counts[r] for r in range(NR))
        for r in range(NR):
            node_counts[i][r] = counts[r]
            if t + r + 1 > 21:
                node_child[i][r] = -1
                continue
            child = counts[:r] + (counts[r] + 1,) + counts[r + 1:]
            if child not in index:
                index[child] = len(order)
                order.append(child)
            node_child[i][r] = index[child]
        node_hard[i] = t
        node_best[i] = t + 10 if counts[0] > 0 and t + 10 <= 21 else t
        node_ncards[i] = sum(counts)
        i += 1
    n_nodes = len(order)
    id_777 = index[(0, 0, 0, 0, 0, 0, 3, 0, 0, 0)]
    id_678 = index[(0, 0, 0, 0, 0, 1, 1, 1, 0, 0)]


_build_player_table()


cdef int node_of(const int* counts) noexcept nogil:
    """Node id of a multiset of player cards (-1 if its hard total exceeds 21)."""
    cdef int node = 0, r, k
    for r in range(NR):
        for k in range(counts[r]):
            node = node_child[node][r]
            if node < 0:
                return -1
    return node


# --------------------------------------------------------------- dealer tables
cdef struct DTable:
    int n
    int* parent
    int* rank
    int* k
    int* out
    int* ncards
    double* weight
    double* scratch
    int kmax[NR]
    int ncards_max

cdef DTable dtables[2][NR]
cdef bint dbuilt[2][NR]


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


cdef void _dealer_sequences(int total, bint soft, int ncards, int* counts, bint h17, dict acc):
    cdef int o = final_outcome(total, soft, ncards, h17)
    cdef long long key = 0
    cdef int r
    if o >= 0:
        for r in range(NR):
            key |= (<long long>counts[r]) << (5 * r)
        if key in acc:
            acc[key][0] += 1
        else:
            acc[key] = [1, o]
        return
    for r in range(NR):
        counts[r] += 1
        _dealer_sequences(total + r + 1, soft or r == 0, ncards + 1, counts, h17, acc)
        counts[r] -= 1


cdef inline int unpack(long long key, int r) noexcept nogil:
    return <int>((key >> (5 * r)) & 31)


def _key_tuple(key):
    """Rank counts of a packed multiset key, in rank order (sorting gives parents first)."""
    return tuple([(key >> (5 * i)) & 31 for i in range(NR)])


cdef DTable* dealer_table(int up, bint h17) except NULL:
    """The prefix tree of final dealer hands for up card ``up`` (1..10), built once."""
    cdef DTable* t = &dtables[h17][up - 1]
    cdef int counts[NR]
    cdef int r, i, last, kk, K
    cdef long long key, pkey
    if dbuilt[h17][up - 1]:
        return t
    memset(counts, 0, sizeof(counts))
    acc = {}
    _dealer_sequences(up, up == 1, 1, counts, h17, acc)
    prefixes = set()
    for key in acc:
        pkey = 0
        for r in range(NR):
            kk = unpack(key, r)
            if kk:
                pkey |= (<long long>kk) << (5 * r)
                prefixes.add(pkey)
    ordered = sorted(prefixes, key=_key_tuple)
    pos = {0: 0}
    t.n = len(ordered) + 1
    t.parent = <int*>calloc(t.n, sizeof(int))
    t.rank = <int*>calloc(t.n, sizeof(int))
    t.k = <int*>calloc(t.n, sizeof(int))
    t.out = <int*>calloc(t.n, sizeof(int))
    t.ncards = <int*>calloc(t.n, sizeof(int))
    t.weight = <double*>calloc(t.n, sizeof(double))
    t.scratch = <double*>calloc(t.n, sizeof(double))
    memset(t.kmax, 0, sizeof(t.kmax))
    t.ncards_max = 0
    for i in range(1, t.n):
        key = ordered[i - 1]
        pos[key] = i
        last = 0
        K = 0
        for r in range(NR):
            kk = unpack(key, r)
            K += kk
            if kk:
                last = r
        kk = unpack(key, last)
        pkey = key & ~((<long long>31) << (5 * last))
        t.parent[i] = pos[pkey]
        t.rank[i] = last
        t.k[i] = kk
        t.ncards[i] = K
        if kk > t.kmax[last]:
            t.kmax[last] = kk
        if K > t.ncards_max:
            t.ncards_max = K
        if key in acc:
            t.weight[i] = acc[key][0]
            t.out[i] = acc[key][1]
    dbuilt[h17][up - 1] = True
    return t


cdef void dealer_eval(DTable* t, const int* shoe, double* out) noexcept nogil:
    """Dealer outcome probabilities (17..21, bust, blackjack; unconditioned) from ``shoe``."""
    cdef double f[NR][KMAX]
    cdef double inv[KMAX]
    cdef double prod, p
    cdef double* buf = t.scratch
    cdef int r, k, i, N = 0
    for r in range(NR):
        N += shoe[r]
        f[r][0] = 1.0
        for k in range(1, t.kmax[r] + 1):
            f[r][k] = f[r][k - 1] * (shoe[r] - k + 1) if shoe[r] - k + 1 > 0 else 0.0
    prod = 1.0
    inv[0] = 1.0
    for k in range(1, t.ncards_max + 1):
        prod *= N - k + 1
        inv[k] = 1.0 / prod if prod > 0 else 0.0
    for i in range(NOUT):
        out[i] = 0.0
    buf[0] = 1.0
    for i in range(1, t.n):
        p = buf[t.parent[i]] * f[t.rank[i]][t.k[i]]
        buf[i] = p
        if t.weight[i] != 0.0:
            out[t.out[i]] += t.weight[i] * p * inv[t.ncards[i]]


def dealer_probs(const int[:] shoe, int up, bint h17):
    """Dealer outcome probabilities ``(p17, p18, p19, p20, p21, bust, blackjack)``.

    ``shoe``: the 10 rank counts left after removing the up card (1..10) and any
    known cards; the hole card is drawn from it. Unconditioned.
    """
    cdef double out[NOUT]
    cdef int s[NR]
    cdef int r
    _check_shoe(shoe)
    for r in range(NR):
        s[r] = shoe[r]
    dealer_eval(dealer_table(up, h17), s, out)
    return tuple([out[i] for i in range(NOUT)])


cdef _check_shoe(const int[:] shoe):
    if shoe.shape[0] != NR:
        raise ValueError("a shoe has 10 rank counts")
    for r in range(NR):
        if shoe[r] < 0:
            raise ValueError("negative card count")


# ---------------------------------------------------------------- player play
cdef struct Ctx:
    int base[NR]
    int up
    int mode
    double bjl1
    double bjl2
    double b777
    double b678
    double q678
    DTable* dt
    char* state
    double* sn
    double* pbj
    double* val


cdef int ctx_init(Ctx* c, const int* base, int up, bint h17, int mode, double bjl1,
                  double bjl2, double b777, double b678, double q678) except -1:
    cdef int r
    for r in range(NR):
        c.base[r] = base[r]
    c.up = up
    c.mode = mode
    c.bjl1 = bjl1
    c.bjl2 = bjl2
    c.b777 = b777
    c.b678 = b678
    c.q678 = q678
    c.dt = dealer_table(up, h17)
    c.state = <char*>calloc(n_nodes, sizeof(char))
    c.sn = <double*>malloc(n_nodes * sizeof(double))
    c.pbj = <double*>malloc(n_nodes * sizeof(double))
    c.val = <double*>malloc(n_nodes * sizeof(double))
    if c.state == NULL or c.sn == NULL or c.pbj == NULL or c.val == NULL:
        ctx_free(c)
        raise MemoryError()
    return 0


cdef void ctx_reset(Ctx* c) noexcept nogil:
    memset(c.state, 0, n_nodes * sizeof(char))


cdef void ctx_free(Ctx* c) noexcept nogil:
    free(c.state)
    free(c.sn)
    free(c.pbj)
    free(c.val)
    c.state = NULL
    c.sn = NULL
    c.pbj = NULL
    c.val = NULL


cdef inline int node_shoe(Ctx* c, int node, int* shoe) noexcept nogil:
    """Fill ``shoe`` with the cards left when the player holds ``node``; return their number."""
    cdef int r, N = 0
    for r in range(NR):
        shoe[r] = c.base[r] - node_counts[node][r]
        N += shoe[r]
    return N


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
    cdef int shoe[NR]
    cdef double d[NOUT]
    cdef int t, o, x
    cdef double sn
    if c.state[node] >= 1:
        return
    node_shoe(c, node, shoe)
    dealer_eval(c.dt, shoe, d)
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
    c.state[node] = 1


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


cdef double hit_value(Ctx* c, int node) noexcept nogil:
    """Value of drawing one card, then playing on optimally (stand or hit)."""
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
        else:
            h += p * play_value(c, ch)
    return h


cdef double play_value(Ctx* c, int node) noexcept nogil:
    """Value of holding ``node`` and playing optimally by standing or hitting (bonus included)."""
    cdef double s, h, v
    if c.state[node] >= 2:
        return c.val[node]
    if node == id_777 and c.b777 > 0:
        v = c.b777 * settle_factor(c, node)
    else:
        s = stand_value(c, node, 1.0)
        h = hit_value(c, node) if node_best[node] < 21 else -1e300
        v = s if s >= h else h
        if node == id_678 and c.b678 > 0 and c.q678 > 0:
            v = c.q678 * c.b678 * settle_factor(c, node) + (1.0 - c.q678) * v
    c.state[node] = 2
    c.val[node] = v
    return v


cdef double double_value(Ctx* c, int node) noexcept nogil:
    """Value of doubling: bet 2, exactly one card, then stand (no bonus)."""
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
            d += p * bust_value(c, shoe, N, r, 2.0)
        else:
            d += p * stand_value(c, ch, 2.0)
    return d


def hand_values(const int[:] base, const int[:] hand, int up, bint h17, int mode,
                double bjl1=1.0, double bjl2=2.0, double b777=0.0, double b678=0.0,
                double q678=0.0):
    """Raw values of one player hand: ``(stand, hit, double, no_blackjack)``.

    ``base``: the shoe with the hand's own cards still in it (the up card and
    other known cards removed); ``hand``: the hand's rank counts; ``up``: 1..10.
    Values are per unit bet in the ``mode`` scale (see the module docstring):
    for mode 1 divide by ``no_blackjack`` (P(no dealer blackjack) at the root)
    to get EVs given the dealer has no blackjack. A natural is not special
    here (the caller pays it). ``hit`` is -inf for a hand of 21.
    """
    cdef Ctx c
    cdef int shoe[NR]
    cdef int node, r, N
    cdef double st, hi, db, nb
    _check_shoe(base)
    if hand.shape[0] != NR:
        raise ValueError("a hand has 10 rank counts")
    for r in range(NR):
        if hand[r] < 0 or hand[r] > base[r]:
            raise ValueError("the hand holds cards the shoe does not")
    node = node_of(&hand[0])
    if node < 0:
        raise ValueError("the hand is bust")
    ctx_init(&c, &base[0], up, h17, mode, bjl1, bjl2, b777, b678, q678)
    try:
        N = node_shoe(&c, node, shoe)
        if N < 1:
            raise ValueError("no cards left for the dealer")
        with nogil:
            st = stand_value(&c, node, 1.0)
            hi = hit_value(&c, node) if node_best[node] < 21 else -1e300
            db = double_value(&c, node)
            nb = no_bj(up, shoe, N)
    finally:
        ctx_free(&c)
    return st, (hi if hi > -1e299 else float("-inf")), db, nb


cdef double split_hand(Ctx* c, int pair, const int* double_ok, bint das,
                       bint aces_one_card) noexcept nogil:
    """Value of one split hand started from one card of rank index ``pair``.

    The context's ``base`` must hold the shoe minus the *other* pair card, so
    the node {pair} sees the shoe minus both. Each hand plays the best
    composition-dependent strategy for its own cards (it ignores the other's).
    """
    cdef int shoe[NR]
    cdef int r, ch, n1 = node_child[0][pair]
    cdef int N = node_shoe(c, n1, shoe)
    cdef double w = 0.0, v, d, p
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        p = <double>shoe[r] / N
        ch = node_child[n1][r]
        if pair == 0 and aces_one_card:
            v = stand_value(c, ch, 1.0)
        else:
            v = play_value(c, ch)
            if das and double_ok[node_best[ch]]:
                d = double_value(c, ch)
                if d > v:
                    v = d
        w += p * v
    return w


def split_values(const int[:] base, int pair, int up, bint h17, int mode, const int[:] double_ok,
                 bint das, bint aces_one_card, double bjl1_first, double bjl2_first,
                 double bjl1_second, double bjl2_second, double b777=0.0, double b678=0.0,
                 double q678=0.0):
    """Raw values ``(first_hand, second_hand)`` of splitting a pair of rank ``pair`` (1..10), once.

    ``base``: the shoe with both pair cards still in it (up card and other
    known cards removed). ``double_ok[t]`` is 1 when a two-card total ``t``
    (0..21, best total) may be doubled. The two hands differ only in what a
    dealer blackjack takes (``bjl*``: ENHC losses on a standing / doubled hand).
    Same scale as :func:`hand_values` (divide by P(no blackjack) in mode 1).
    """
    cdef Ctx c
    cdef int b2[NR]
    cdef int r, p = pair - 1
    cdef double first, second
    _check_shoe(base)
    if double_ok.shape[0] < 22:
        raise ValueError("double_ok needs 22 entries")
    if base[p] < 2:
        raise ValueError("the shoe does not hold the pair")
    for r in range(NR):
        b2[r] = base[r] - (r == p)
    ctx_init(&c, b2, up, h17, mode, bjl1_first, bjl2_first, b777, b678, q678)
    try:
        with nogil:
            first = split_hand(&c, p, &double_ok[0], das, aces_one_card)
        if bjl1_second == bjl1_first and bjl2_second == bjl2_first:
            second = first
        else:
            ctx_reset(&c)
            c.bjl1 = bjl1_second
            c.bjl2 = bjl2_second
            with nogil:
                second = split_hand(&c, p, &double_ok[0], das, aces_one_card)
    finally:
        ctx_free(&c)
    return first, second
