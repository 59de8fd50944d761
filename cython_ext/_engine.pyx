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
    NCLASS = 64

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


from math import factorial


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
        node_best[i] = t + 10 if counts[0] > 0 and t + 10 <= 21 else t
        node_ncards[i] = sum(counts)
        node_class[i] = node_best[i] + (32 if node_best[i] != t else 0)
        orders = factorial(node_ncards[i])
        for r in range(NR):
            orders //= factorial(counts[r])
        node_orders[i] = orders
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
    char* has_s         # stand values computed (they do not depend on bjl or policy)
    char* has_v         # optimal (composition-dependent) value computed
    char* has_t         # fixed-policy value computed
    double* sn          # sum over non-blackjack dealer outcomes of P * payoff of standing
    double* pbj         # P(dealer blackjack) with the node's cards gone
    double* val         # optimal stand/hit value
    double* valt        # value under ``policy``
    const char* policy  # per node class: 1 = hit, 0 = stand (total-dependent play)
    const char* codes   # per node, overrides ``policy`` when set: bit 2 = hit, else stand
    double* dout        # if set: each node's dealer distribution is copied here (7 per node)
    const double* shared  # if set: dealer distributions of a wider shoe, 7 per node (NaN: none)
    int shift_rank      # ... whose node for ours adds ``shift_count`` cards of this rank
    int shift_count
    bint exhausted      # some dealer hand could run out of cards (no exact answer)


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
    c.policy = NULL
    c.codes = NULL
    c.dout = NULL
    c.shared = NULL
    c.shift_rank = 0
    c.shift_count = 0
    c.exhausted = False
    c.has_s = <char*>calloc(3 * n_nodes, sizeof(char))
    c.sn = <double*>malloc(4 * n_nodes * sizeof(double))
    if c.has_s == NULL or c.sn == NULL:
        free(c.has_s)
        free(c.sn)
        raise MemoryError()
    c.has_v = c.has_s + n_nodes
    c.has_t = c.has_s + 2 * n_nodes
    c.pbj = c.sn + n_nodes
    c.val = c.sn + 2 * n_nodes
    c.valt = c.sn + 3 * n_nodes
    return 0


cdef int check_cards(Ctx* c) except -1:
    """Raise if a dealer hand in this computation could have run out of cards."""
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
    c.has_s = NULL
    c.sn = NULL


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
    cdef int shoe[NR]
    cdef double d[NOUT]
    cdef int t, o, x
    cdef double sn
    cdef int wide = node, k
    if c.has_s[node]:
        return
    if c.shared != NULL:
        for k in range(c.shift_count):
            if wide >= 0:
                wide = node_child[wide][c.shift_rank]
    if c.shared != NULL and wide >= 0 and c.shared[wide * NOUT] == c.shared[wide * NOUT]:
        for o in range(NOUT):
            d[o] = c.shared[wide * NOUT + o]
    else:
        node_shoe(c, node, shoe)
        dealer_eval(c.dt, shoe, d)
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
    if c.dout != NULL:
        for o in range(NOUT):
            c.dout[node * NOUT + o] = d[o]


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


def hand_values(const int[:] base, const int[:] hand, int up, bint h17, int mode,
                double bjl1=1.0, double bjl2=2.0, double b777=0.0, double b678=0.0,
                double q678=0.0, const char[:] policy=None):
    """Raw values of one player hand: ``(stand, hit, double, no_blackjack, one_card, policy)``.

    ``base``: the shoe with the hand's own cards still in it (the up card and
    other known cards removed); ``hand``: the hand's rank counts; ``up``: 1..10.
    Values are per unit bet in the ``mode`` scale (see the module docstring):
    for mode 1 divide by ``no_blackjack`` (P(no dealer blackjack) at the root)
    to get EVs given the dealer has no blackjack. A natural is not special
    here (the caller pays it). ``hit`` is -inf for a hand of 21. ``one_card``:
    one card then stand, bet unchanged; ``policy``: hit/stand by ``policy``
    (per node class, 1 = hit) from here on (NaN without one).
    """
    cdef Ctx c
    cdef int shoe[NR]
    cdef int node, r, N
    cdef double st, hi, db, nb, one, pol = float("nan")
    _check_shoe(base)
    if hand.shape[0] != NR:
        raise ValueError("a hand has 10 rank counts")
    if policy is not None and policy.shape[0] < NCLASS:
        raise ValueError("policy needs 64 classes")
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


cdef int pair_shoe(const int[:] base, const int[:] double_ok, int p, int* b1) except -1:
    """Check a split's inputs and fill ``b1`` with ``base`` less one card of rank index ``p``."""
    cdef int r
    _check_shoe(base)
    if double_ok.shape[0] < 22:
        raise ValueError("double_ok needs 22 entries")
    if base[p] < 2:
        raise ValueError("the shoe does not hold the pair")
    for r in range(NR):
        b1[r] = base[r] - (r == p)
    return 0


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


def split_tables(const int[:] base, int pair, int up, bint h17, int mode, const int[:] double_ok,
                 bint das, bint aces_one_card, double bjl1, double bjl2, double b777,
                 double b678, double q678, int max_extra, const char[:] chart_codes=None,
                 const double[:, ::1] shared_dealer=None):
    """Split-hand values with 0..``max_extra`` further pair cards gone (for resplitting).

    ``base``: the shoe with both pair cards still in (up card and known cards
    removed). For ``a`` extra pair cards removed, row ``a`` holds ``(X, P,
    X_chart, P_chart, X_chart_nodas, P_chart_nodas)``: ``X`` the value of one
    split hand drawing its second card from the shoe less both pair cards and
    ``a`` more (a pair card is played, not resplit), ``P`` the value of that
    hand when its second card is a pair card. The optimal rows play the split
    hands' best composition-dependent strategy *for a = 0* (each hand knows its
    own cards, the up card and the original pair), frozen so that the removal
    identities of the resplit sum hold; the chart rows play ``chart_codes``
    (per node: bit 1 double, 2 hit, 4 stand). NaN where not computed. Same
    scale as :func:`hand_values`. ``shared_dealer``: the dealer distributions
    :func:`up_card_pass` recorded for ``base`` (NaN rows: not computed), reused
    for split hands whose cards plus the missing pair cards form a node there.
    """
    cdef Ctx c
    cdef int b2[NR]
    cdef int r, a, p = pair - 1
    cdef double res[6]
    cdef char* frozen
    _check_shoe(base)
    if double_ok.shape[0] < 22:
        raise ValueError("double_ok needs 22 entries")
    if base[p] < 2:
        raise ValueError("the shoe does not hold the pair")
    if chart_codes is not None and chart_codes.shape[0] < n_nodes:
        raise ValueError("chart_codes needs one code per node")
    frozen = <char*>calloc(n_nodes, sizeof(char))
    if frozen == NULL:
        raise MemoryError()
    rows = []
    try:
        for a in range(max_extra + 1):
            for r in range(NR):
                b2[r] = base[r] - (r == p) * (1 + a)
            if b2[p] < 1:
                break
            ctx_init(&c, b2, up, h17, mode, bjl1, bjl2, b777, b678, q678)
            if shared_dealer is not None:
                if shared_dealer.shape[0] < n_nodes or shared_dealer.shape[1] != NOUT:
                    ctx_free(&c)
                    raise ValueError("shared_dealer needs n_nodes x 7")
                c.shared = &shared_dealer[0, 0]
                c.shift_rank = p
                c.shift_count = 1 + a
            try:
                for r in range(6):
                    res[r] = float("nan")
                with nogil:
                    if a == 0:
                        res[0] = split_hand(&c, p, &double_ok[0], das, aces_one_card, NULL,
                                            &res[1])
                        if max_extra > 0:
                            record_codes(&c, p, &double_ok[0], das, frozen)
                    else:
                        c.codes = frozen
                        res[0] = split_hand(&c, p, &double_ok[0], das, aces_one_card, frozen,
                                            &res[1])
                    if chart_codes is not None:
                        ctx_reset_values(&c)
                        c.codes = &chart_codes[0]
                        res[2] = split_hand(&c, p, &double_ok[0], das, aces_one_card,
                                            &chart_codes[0], &res[3])
                        res[4] = split_hand(&c, p, &double_ok[0], False, aces_one_card,
                                            &chart_codes[0], &res[5])
                check_cards(&c)
            finally:
                ctx_free(&c)
            rows.append(tuple([res[r] for r in range(6)]))
    finally:
        free(frozen)
    return rows


# ------------------------------------------------------ whole-game pass (charts)
cdef int class_order[NCLASS]
cdef int n_class_order = 0


def _build_class_order():
    """Hit/stand classes in an order where every child class comes first.

    Hard 21..12 (children: harder totals), soft 21..12 (children: soft higher
    or hard >= 12), then hard 11..2 (children: any of the above).
    """
    global n_class_order
    order = list(range(21, 11, -1)) + [32 + t for t in range(21, 11, -1)] + list(range(11, 1, -1))
    for i, k in enumerate(order):
        class_order[i] = k
    n_class_order = len(order)


_build_class_order()


def node_table():
    """The static player-node table: ``(counts, best_total, class, ncards, children)`` lists."""
    return ([[node_counts[i][r] for r in range(NR)] for i in range(n_nodes)],
            [node_best[i] for i in range(n_nodes)],
            [node_class[i] for i in range(n_nodes)],
            [node_ncards[i] for i in range(n_nodes)],
            [[node_child[i][r] for r in range(NR)] for i in range(n_nodes)])


def up_card_pass(const int[:] base, int up, bint h17, int mode, double bjl1, double bjl2,
                 double b777, double b678, double q678, double[:, :] out, char[:] policy,
                 bint fixed_policy=False, double[:, ::1] dealer_out=None):
    """Every player hand against one up card, in one pass.

    ``base``: the shoe minus the up card (and known cards). For every node with
    at least two cards that the shoe can hold, ``out[node]`` gets
    ``(stand, optimal, double, policy, weight, no_blackjack, hit, policy_hit)``:
    stand value, optimal stand/hit value, double value, value under the
    total-dependent hit/stand policy, the node's probability as a draw from
    ``base`` (all orders), P(no blackjack) with its cards gone, the optimal
    value of hitting, and the value of hitting then following the policy
    (the stand value at 21); rows of impossible nodes are NaN. Bonus nodes
    (7-7-7, suited 6-7-8 with chance ``q678``) are settled at once. ``policy[class]`` is
    set to 1 where hitting beats standing summed over every composition of
    that total, weighted by ``weight`` (the total-dependent strategy); with
    ``fixed_policy`` the given ``policy`` is used as it is (e.g. auto-play).
    ``dealer_out`` (n_nodes x 7, optional) receives each valued node's dealer
    outcome distribution (unconditioned), for :func:`hand_distribution`.
    """
    cdef Ctx c
    cdef int i, j, k, node, r, N
    cdef int shoe[NR]
    cdef double w, fall, sum_s, sum_h, s, h
    cdef double nan = float("nan")
    cdef char* pol = &policy[0]
    if out.shape[0] < n_nodes or out.shape[1] < 8 or policy.shape[0] < NCLASS:
        raise ValueError("out needs n_nodes x 8 and policy 64 entries")
    _check_shoe(base)
    ctx_init(&c, &base[0], up, h17, mode, bjl1, bjl2, b777, b678, q678)
    c.policy = pol
    if dealer_out is not None:
        if dealer_out.shape[0] < n_nodes or dealer_out.shape[1] != NOUT:
            ctx_free(&c)
            raise ValueError("dealer_out needs n_nodes x 7")
        c.dout = &dealer_out[0, 0]
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
                for node in range(n_nodes):
                    if node_class[node] != k or node_ncards[node] < 2:
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
                    s = stand_value(&c, node, 1.0)
                    h = hit_value(&c, node, True) if node_best[node] < 21 else s
                    sum_s += w * s
                    sum_h += w * h
                    out[node, 0] = s
                    out[node, 7] = h
                    out[node, 4] = w
                    out[node, 5] = no_bj(up, shoe, N)
                if not fixed_policy:
                    pol[k] = 1 if sum_h > sum_s else 0
                for node in range(n_nodes):
                    if node_class[node] == k and out[node, 4] == out[node, 4]:
                        out[node, 3] = policy_value(&c, node)
            for node in range(n_nodes):
                if out[node, 4] == out[node, 4]:
                    out[node, 1] = play_value(&c, node)
                    out[node, 2] = double_value(&c, node)
                    out[node, 6] = hit_value(&c, node, False) if node_best[node] < 21 else -1e300
        check_cards(&c)
    finally:
        ctx_free(&c)


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
    """
    cdef int shoe[NR]
    cdef int node, r, ch, N, n = 0, code
    cdef double m, p, d, s, h, v, q
    cdef bint doubled
    for node in range(start, n_nodes):
        mass[node] = 0.0
    mass[start] = m0
    for node in range(start, n_nodes):
        m = mass[node]
        if m == 0.0:
            continue
        # the bonuses settle a three-card hand at once
        if node_ncards[node] == 3 and bonus_777(c, node):
            if n >= cap:
                return -1
            out[n].node = node; out[n].extra = -1; out[n].kind = T_BONUS
            out[n].bet = 1.0; out[n].value = c.b777; out[n].mass = m
            n += 1
            continue
        if node == id_678 and c.b678 > 0 and c.q678 > 0:
            if n >= cap:
                return -1
            out[n].node = node; out[n].extra = -1; out[n].kind = T_BONUS
            out[n].bet = 1.0; out[n].value = c.b678; out[n].mass = m * c.q678
            n += 1
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
            if n >= cap:
                return -1
            out[n].node = node; out[n].extra = -1; out[n].kind = T_STAND
            out[n].bet = 1.0; out[n].value = 0.0; out[n].mass = m
            n += 1
            continue
        N = node_shoe(c, node, shoe)
        for r in range(NR):
            if shoe[r] <= 0:
                continue
            p = m * shoe[r] / N
            ch = node_child[node][r]
            if doubled or ch < 0:
                if n >= cap:
                    return -1
                out[n].node = node if ch < 0 else ch
                out[n].extra = r if ch < 0 else -1
                out[n].kind = T_BUST if ch < 0 else T_STAND
                out[n].bet = 2.0 if doubled else 1.0
                out[n].value = 0.0
                out[n].mass = p
                n += 1
            else:
                mass[ch] += p
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


cdef struct DCache:
    unsigned long long* keys    # removed multiset (6 bits a rank) + 1; 0 = empty slot
    double* vals                # NOUT per slot
    unsigned long long mask     # capacity - 1 (a power of two)
    long long used
    const double* nodes         # optional per-node dealer distributions (one-hand settles)


cdef int cache_init(DCache* h, int log2cap) noexcept nogil:
    h.mask = (1ULL << log2cap) - 1
    h.keys = <unsigned long long*>calloc(h.mask + 1, sizeof(unsigned long long))
    h.vals = <double*>malloc((h.mask + 1) * NOUT * sizeof(double))
    h.used = 0
    h.nodes = NULL
    return 0 if h.keys != NULL and h.vals != NULL else -1


cdef void cache_free(DCache* h) noexcept nogil:
    free(h.keys)
    free(h.vals)
    h.keys = NULL
    h.vals = NULL


cdef const double* dealer_cached(Ctx* c, DCache* h, const int* removed, const int* shoe,
                                 double* scratch) noexcept nogil:
    """The dealer distribution for ``shoe`` (= c.base less ``removed``), memoized by ``removed``."""
    cdef unsigned long long key = 1, slot
    cdef int r
    if h == NULL or h.keys == NULL:
        dealer_eval(c.dt, shoe, scratch)
        return scratch
    for r in range(NR):
        key += (<unsigned long long>removed[r]) << (6 * r)
    slot = (key * 0x9E3779B97F4A7C15ULL) & h.mask
    while h.keys[slot] != 0:
        if h.keys[slot] == key:
            return &h.vals[slot * NOUT]
        slot = (slot + 1) & h.mask
    if h.used * 2 > <long long>h.mask:  # too full: do not store
        dealer_eval(c.dt, shoe, scratch)
        return scratch
    h.keys[slot] = key
    h.used += 1
    dealer_eval(c.dt, shoe, &h.vals[slot * NOUT])
    return &h.vals[slot * NOUT]


cdef void settle(Ctx* c, const Term* ta, const Term* tb, double w, double bja1, double bja2,
                 double bjb1, double bjb2, double* hist, DCache* cache) noexcept nogil:
    """Add ``w`` times the distribution of the round's net result to ``hist``.

    ``ta`` (and ``tb``, a second split hand, or NULL) are terminal hands whose
    cards are gone from ``c.base``. Mode 1: only outcomes with no dealer
    blackjack (the caller adds the rest). The dealer distribution comes from
    ``cache`` (per node for one hand, memoized by the cards gone for two), and
    is not needed at all when no hand stands.
    """
    cdef int shoe[NR]
    cdef int removed[NR]
    cdef double scratch[NOUT]
    cdef const double* d
    cdef int r, o, N = 0
    cdef double x
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
        hist[hist_bin(x)] += w * (no_bj(c.up, shoe, N) if c.mode != 0 else 1.0)
        return
    if tb == NULL and cache != NULL and cache.nodes != NULL and ta.extra < 0:
        d = &cache.nodes[ta.node * NOUT]
    else:
        d = dealer_cached(c, cache, removed, shoe, scratch)
    for o in range(NOUT):
        if d[o] == 0.0 or (o == OUT_BJ and c.mode != 0):
            continue
        x = term_result(ta, o, bja1, bja2)
        if tb != NULL:
            x += term_result(tb, o, bjb1, bjb2)
        hist[hist_bin(x)] += w * d[o]


def hand_distribution(const int[:] base, const int[:] hand, int up, bint h17, int mode,
                      double bjl1, double bjl2, double b777, double b678, double q678,
                      int action, const char[:] codes, double[:] hist,
                      const double[:, ::1] node_dealer=None):
    """Add the distribution of one unsplit hand's net result to ``hist`` (bins of 0.01).

    ``base``: the shoe with the hand's cards in it (up card gone); ``action``:
    0 stand, 1 hit, 2 double; later hits follow ``codes`` (per node, bit 2 =
    hit) or, if None, the optimal play. Mode 1 (peek): only the outcomes with
    no dealer blackjack (their probabilities, not conditioned); mode 0: all.
    A natural's payout is the caller's. ``node_dealer``: the dealer
    distributions :func:`up_card_pass` recorded for this ``base`` (optional).
    """
    cdef Ctx c
    cdef Term* terms
    cdef double* mass
    cdef int node, i, n = 0, cap = 20000
    cdef const char* cd = NULL
    cdef DCache cache
    cache.keys = NULL
    cache.vals = NULL
    cache.nodes = NULL
    if node_dealer is not None:
        if node_dealer.shape[0] < n_nodes or node_dealer.shape[1] != NOUT:
            raise ValueError("node_dealer needs n_nodes x 7")
        cache.nodes = &node_dealer[0, 0]
    _check_shoe(base)
    if hist.shape[0] < HIST_SIZE:
        raise ValueError("hist needs 2600 bins")
    node = node_of(&hand[0])
    if node < 0:
        raise ValueError("the hand is bust")
    if codes is not None:
        cd = &codes[0]
    terms = <Term*>malloc(cap * sizeof(Term))
    mass = <double*>malloc(n_nodes * sizeof(double))
    ctx_init(&c, &base[0], up, h17, mode, bjl1, bjl2, b777, b678, q678)
    try:
        with nogil:
            if action == 0:
                terms[0].node = node; terms[0].extra = -1; terms[0].kind = T_STAND
                terms[0].bet = 1.0; terms[0].value = 0.0; terms[0].mass = 1.0
                n = 1
            elif action == 2:
                n = double_terms(&c, node, terms, cap)
            else:
                n = propagate(&c, node, 1.0, cd, False, NULL, False, False, terms, cap, mass)
            for i in range(n):
                settle(&c, &terms[i], NULL, terms[i].mass, bjl1, bjl2, 0.0, 0.0, &hist[0],
                       &cache)
    finally:
        ctx_free(&c)
        free(terms)
        free(mass)
    if n < 0:
        raise MemoryError("too many terminal hands")


cdef int double_terms(Ctx* c, int node, Term* out, int cap) noexcept nogil:
    """The terminals of doubling ``node``: one card, bet 2, then stand (or bust)."""
    cdef int shoe[NR]
    cdef int r, ch, n = 0
    cdef int N = node_shoe(c, node, shoe)
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        if n >= cap:
            return -1
        ch = node_child[node][r]
        out[n].node = node if ch < 0 else ch
        out[n].extra = r if ch < 0 else -1
        out[n].kind = T_BUST if ch < 0 else T_STAND
        out[n].bet = 2.0
        out[n].value = 0.0
        out[n].mass = <double>shoe[r] / N
        n += 1
    return n


def split_distribution(const int[:] base, int pair, int up, bint h17, int mode,
                       const int[:] double_ok, bint das, bint aces_one_card, double bjl1_first,
                       double bjl2_first, double bjl1_second, double bjl2_second, double b777,
                       double b678, double q678, const char[:] codes, double[:] hist):
    """Add the distribution of a split round's net result (both hands) to ``hist``.

    One split, no resplit. Each hand plays ``codes`` (per node: bit 1 double,
    2 hit, 4 stand) or, if None, the optimal strategy for its own cards, the
    up card and the pair (as :func:`split_tables` row 0). The dealer settles
    against both hands, so the joint outcome is enumerated exactly: every end
    of the first hand, then every end of the second from what is left.
    ``base``: the shoe with both pair cards in it (up card gone). Mode 1 (peek):
    only outcomes with no dealer blackjack, as in :func:`hand_distribution`.
    """
    cdef Ctx ca, cb, cs
    cdef int b1[NR]
    cdef int r, i, j, na, nb, p = pair - 1, cap = 20000, n1
    cdef Term* ta
    cdef Term* tb
    cdef double* mass
    cdef char* frozen_a
    cdef char* frozen_b
    cdef const char* code_a
    cdef const char* code_b
    if hist.shape[0] < HIST_SIZE:
        raise ValueError("hist needs 2600 bins")
    pair_shoe(base, double_ok, p, b1)
    n1 = node_child[0][p]
    ta = <Term*>malloc(cap * sizeof(Term))
    tb = <Term*>malloc(cap * sizeof(Term))
    mass = <double*>malloc(n_nodes * sizeof(double))
    frozen_a = <char*>calloc(n_nodes, sizeof(char))
    frozen_b = <char*>calloc(n_nodes, sizeof(char))
    ctx_init(&ca, b1, up, h17, mode, bjl1_first, bjl2_first, b777, b678, q678)
    ctx_init(&cb, b1, up, h17, mode, bjl1_second, bjl2_second, b777, b678, q678)
    ctx_init(&cs, &base[0], up, h17, mode, 0.0, 0.0, b777, b678, q678)
    cdef DCache cache
    na = 0
    if cache_init(&cache, 20) != 0:
        cache_free(&cache)
        raise MemoryError()
    try:
        with nogil:
            if codes is None:
                split_hand(&ca, p, &double_ok[0], das, aces_one_card, NULL)
                record_codes(&ca, p, &double_ok[0], das, frozen_a)
                split_hand(&cb, p, &double_ok[0], das, aces_one_card, NULL)
                record_codes(&cb, p, &double_ok[0], das, frozen_b)
                code_a = frozen_a
                code_b = frozen_b
            else:
                code_a = &codes[0]
                code_b = &codes[0]
            na = propagate(&ca, n1, 1.0, code_a, True, &double_ok[0], das, aces_one_card,
                           ta, cap, mass)
            for i in range(na if na > 0 else 0):
                for r in range(NR):
                    cb.base[r] = base[r] - node_counts[ta[i].node][r] - (ta[i].extra == r)
                nb = propagate(&cb, n1, ta[i].mass, code_b, True, &double_ok[0], das,
                               aces_one_card, tb, cap, mass)
                if nb < 0:
                    na = -1
                    break
                for j in range(nb):
                    settle(&cs, &ta[i], &tb[j], tb[j].mass, bjl1_first, bjl2_first,
                           bjl1_second, bjl2_second, &hist[0], &cache)
    finally:
        cache_free(&cache)
        ctx_free(&ca)
        ctx_free(&cb)
        ctx_free(&cs)
        free(ta)
        free(tb)
        free(mass)
        free(frozen_a)
        free(frozen_b)
    if na < 0:
        raise MemoryError("too many terminal hands")


def split_postsplit(const int[:] base, int pair, int up, bint h17, int mode,
                    const int[:] double_ok, bint das, bint aces_one_card, double bjl1_first,
                    double bjl2_first, double bjl1_second, double bjl2_second, double b777,
                    double b678, double q678):
    """Raw values ``(first, second)`` of a single split where the second hand sees the first.

    The first hand plays as in :func:`split_tables` (its own cards, the pair,
    the up card); the second hand plays the best composition-dependent
    strategy for everything seen by then: the pair, the up card and all the
    first hand's cards ("post-split composition-dependent"). Exact: the
    second hand is valued afresh for every way the first hand can end.
    ``base``: the shoe with both pair cards in (up card gone). Same scale as
    :func:`hand_values`. Slow for low pairs (thousands of first-hand ends).
    """
    cdef Ctx ca, cb
    cdef int b1[NR]
    cdef int r, i, j, na, p = pair - 1, cap = 20000, n1
    cdef Term* ta
    cdef double* mass
    cdef char* frozen
    cdef double first = 0.0, second = 0.0, m
    pair_shoe(base, double_ok, p, b1)
    n1 = node_child[0][p]
    ta = <Term*>malloc(cap * sizeof(Term))
    mass = <double*>malloc(n_nodes * sizeof(double))
    frozen = <char*>calloc(n_nodes, sizeof(char))
    ctx_init(&ca, b1, up, h17, mode, bjl1_first, bjl2_first, b777, b678, q678)
    ctx_init(&cb, b1, up, h17, mode, bjl1_second, bjl2_second, b777, b678, q678)
    na = 0
    try:
        with nogil:
            first = split_hand(&ca, p, &double_ok[0], das, aces_one_card, NULL)
            record_codes(&ca, p, &double_ok[0], das, frozen)
            na = propagate(&ca, n1, 1.0, frozen, True, &double_ok[0], das, aces_one_card,
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
                for r in range(NR):
                    cb.base[r] = base[r] - node_counts[ta[i].node][r] - (ta[i].extra == r)
                memset(cb.has_s, 0, 3 * n_nodes * sizeof(char))
                second += m * split_hand(&cb, p, &double_ok[0], das, aces_one_card, NULL)
        check_cards(&ca)
        check_cards(&cb)
    finally:
        ctx_free(&ca)
        ctx_free(&cb)
        free(ta)
        free(mass)
        free(frozen)
    if na < 0:
        raise MemoryError("too many terminal hands")
    return first, second
