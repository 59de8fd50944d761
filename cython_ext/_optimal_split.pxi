# ------------------------------------------------------ the fully optimal split
#
# Included at the end of _engine.pyx (it uses the player table, the dealer
# memo and the parameter struct).
#
# The round after a split is played in casino order: hand 1 takes its second
# card and is played out, then hand 2, ..., then the dealer. Every decision
# (hit, stand, double, resplit) may use everything seen so far and maximises
# the whole round. The value of the rest of the round depends only on
#
#   * the shoe left (what every card dealt so far took out of it),
#   * how many hands are still to play (each holds one pair card) and how
#     many exist (the resplit limit),
#   * the finished hands, only through what they still have at stake against
#     the dealer: the bets standing on each total class (16 or less, 17, ...,
#     21), and in ENHC games what a dealer blackjack would take from them.
#
# Busted and bonus-paid hands are settled when they end (a bust costs its bet
# times P(no dealer blackjack | shoe then) in the peek model, which is
# E[1{no blackjack}] because the hole card is exchangeable with the unseen
# cards), so they leave no trace in the state. Finished hands are a multiset:
# their order does not matter, which merges every arrangement of the same
# outcomes. This canonical state is memoised; within one hand the node values
# (by the player table's multiset nodes) are memoised per state.
#
# Proof of optimality: the state above is a sufficient statistic (the future
# deal depends only on the shoe, and the terminal payoff only on the final
# shoe and the stakes by class), so backward induction over it maximises the
# round's expectation over all strategies that use the cards seen.
#
# Each hand settled at its end (Opt.own_only). Let g(F) be the finished hands'
# value when the dealer draws from the shoe F: linear in the dealer's
# distribution from F (the peek shortcut, which divides by P(no blackjack), is
# not). If the dealer cannot run out of cards from F less one card, drawing one
# unseen card first leaves the dealer's cards a uniform draw from the rest, so
# sum_r F_r / |F| g(F - r) = g(F). Every card the later hands draw is such a
# draw, so g(F) is a martingale along the deal and, whatever the later hands
# do (a stopping rule on the cards seen), E[g(final shoe)] = g(F) at the state
# they start from. Their decisions therefore cannot change what the finished
# hands are worth: by induction over the hands, the value of a state is
# V(shoe, hands left, hands made) + g(shoe), and V is the value of the hands
# still to play alone. So when the dealer cannot run out anywhere in the round
# (a bound on the cards all the hands can take: opt_no_run_out) each hand's bet
# is settled against its own final shoe as it ends, the finished hands drop
# out of the state, and states that differ only in them are one. The two
# computations are the same expectation summed in another order (equal to
# rounding: tested against each other and against the casino-order brute force).

cdef uint64_t node_key[MAXN]   # a node's counts packed 6 bits a rank (the removal key's layout)


cdef void build_node_keys() noexcept nogil:
    cdef int i, r
    for i in range(n_nodes):
        node_key[i] = 0
        for r in range(NR):
            node_key[i] += (<uint64_t>node_counts[i][r]) << (6 * r)


build_node_keys()


cdef struct StateMap:
    uint64_t* k0       # removal (6 bits a rank) | hands left << 60
    uint64_t* k1       # 1 << 63 (occupied) | hands made | stakes by class | blackjack losses
    double* v
    uint64_t mask
    long long used


cdef int smap_init(StateMap* m, int log2cap) noexcept nogil:
    m.mask = (1ULL << log2cap) - 1
    m.used = 0
    m.k0 = <uint64_t*>malloc((m.mask + 1) * sizeof(uint64_t))
    m.k1 = <uint64_t*>calloc(m.mask + 1, sizeof(uint64_t))
    m.v = <double*>malloc((m.mask + 1) * sizeof(double))
    return 0 if m.k0 != NULL and m.k1 != NULL and m.v != NULL else -1


cdef void smap_free(StateMap* m) noexcept nogil:
    free(m.k0)
    free(m.k1)
    free(m.v)
    m.k0 = NULL
    m.k1 = NULL
    m.v = NULL


cdef inline uint64_t smix(uint64_t a, uint64_t b) noexcept nogil:
    cdef uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL
    return h ^ (h >> 31)


cdef inline long long smap_find(StateMap* m, uint64_t a, uint64_t b) noexcept nogil:
    cdef uint64_t slot = smix(a, b) & m.mask
    while m.k1[slot] != 0:
        if m.k1[slot] == b and m.k0[slot] == a:
            return <long long>slot
        slot = (slot + 1) & m.mask
    return -1


cdef int smap_grow(StateMap* m) noexcept nogil:
    cdef StateMap n
    cdef uint64_t i, slot
    n.mask = (m.mask << 1) | 1
    n.used = m.used
    n.k0 = <uint64_t*>malloc((n.mask + 1) * sizeof(uint64_t))
    n.k1 = <uint64_t*>calloc(n.mask + 1, sizeof(uint64_t))
    n.v = <double*>malloc((n.mask + 1) * sizeof(double))
    if n.k0 == NULL or n.k1 == NULL or n.v == NULL:
        smap_free(&n)
        return -1
    for i in range(m.mask + 1):
        if m.k1[i] != 0:
            slot = smix(m.k0[i], m.k1[i]) & n.mask
            while n.k1[slot] != 0:
                slot = (slot + 1) & n.mask
            n.k0[slot] = m.k0[i]
            n.k1[slot] = m.k1[i]
            n.v[slot] = m.v[i]
    smap_free(m)
    m[0] = n
    return 0


cdef int smap_put(StateMap* m, uint64_t a, uint64_t b, double v) noexcept nogil:
    cdef uint64_t slot = smix(a, b) & m.mask
    while m.k1[slot] != 0:
        if m.k1[slot] == b and m.k0[slot] == a:
            m.v[slot] = v
            return 0
        slot = (slot + 1) & m.mask
    m.k0[slot] = a
    m.k1[slot] = b
    m.v[slot] = v
    m.used += 1
    if m.used * 2 > <long long>m.mask:
        return smap_grow(m)
    return 0


cdef extern from "stdlib.h":
    int posix_memalign(void** ptr, size_t alignment, size_t size) nogil


cdef struct FSlot:
    uint64_t key        # packed removal + 1; 0 = empty
    double v[NCLS + 1]  # standing values of the classes 16 or less .. 21 (class_nets),
                        # then P(blackjack)


cdef enum:
    FINALS_IN_CACHE = (1 << 18) - 1  # a final-shoe table of more slots (16 MB) is prefetched


cdef struct FinalMap:   # the dealer's side of each final shoe: one cache line a shoe
    FSlot* s
    uint64_t mask
    long long used


cdef int fmap_alloc(FinalMap* m, uint64_t mask) noexcept nogil:
    cdef void* p = NULL
    if posix_memalign(&p, 64, (mask + 1) * sizeof(FSlot)) != 0:
        m.s = NULL
        return -1
    memset(p, 0, (mask + 1) * sizeof(FSlot))
    m.s = <FSlot*>p
    m.mask = mask
    return 0


cdef int fmap_grow(FinalMap* m) noexcept nogil:
    cdef FinalMap n
    cdef uint64_t i, slot
    if fmap_alloc(&n, (m.mask << 1) | 1) != 0:
        return -1
    n.used = m.used
    for i in range(m.mask + 1):
        if m.s[i].key != 0:
            slot = mix(m.s[i].key) & n.mask
            while n.s[slot].key != 0:
                slot = (slot + 1) & n.mask
            n.s[slot] = m.s[i]
    free(m.s)
    m[0] = n
    return 0


cdef struct Opt:
    int base[NR]        # the shoe with both pair cards in (up card gone)
    int p               # the pair's rank index
    uint64_t pkey       # node_key of the one-card node {pair}
    int longest         # most cards in a final dealer hand (up card included)
    int up
    int mode
    int max_hands
    bint das
    bint aces_one_card
    bint first_apart    # ENHC: a dealer blackjack takes other amounts from the first hand
    double bjl[4]       # blackjack takes: first hand bet 1, bet 2; later hands bet 1, bet 2
    int nfix            # the bonus rows of any suits (Params.nfix ...)
    int fix_node[MAXFIX]
    double fix_pay[MAXFIX]
    bint fix_stand[MAXFIX]
    double b678
    bint bonus_stands   # a suited 6-7-8, paid, also stands as a 21 (Params.bonus_stands)
    int charlie         # a hand of this many cards wins at once (0: no Charlie)
    bint dah            # a split hand of three or more cards may double (double_after_hit)
    double q678[3]      # suited 6-7-8 chance of hand 1, hand 2, the resplit hands
    double qover[OPT_LEVELS]  # >= 0: the level's hand's chance in force (one suit case)
    int nsuit[3]        # hand 1, hand 2, resplit hands: suit cases of the pair card (0: none)
    double suit_w[3][4]
    double suit_u[3][4][3]
    int double_ok[NTOTALS]
    int drule
    FinalMap finals     # the dealer's side by final shoe (removal from base)
    double* tbuf        # dealer-tree scratch
    double rows[ROWS]
    StateMap states
    int* stamp[OPT_LEVELS]   # node values valid when stamp == cur (one hand per level)
    double* val[OPT_LEVELS]
    double* gv[OPT_LEVELS]   # last hands: the finished hands' value at the node's shoe
    int cur[OPT_LEVELS]
    int S[OPT_LEVELS][NR]    # the shoe when the level's hand starts (its pair card out)
    int left[OPT_LEVELS]     # hands still to play, the level's included
    int made[OPT_LEVELS]     # hands made so far
    int W[OPT_LEVELS][NCLS]  # bets standing by class
    int L[OPT_LEVELS][3]     # ENHC: first hand's standing bet (0 none), later bets 1 / 2 standing
    uint64_t key[OPT_LEVELS]  # the final-shoe key of the level's start shoe (last hands)
    int standing[OPT_LEVELS]  # bets standing (last hands)
    double take[OPT_LEVELS]   # ENHC: what a dealer blackjack takes from them (last hands)
    bint own_only       # each hand's bet settles at its end (see the top of this file)
    bint exhausted
    bint failed
    bint overflow
    long long settled   # terminal settlements against the dealer
    long long limit     # the most bytes the memos may hold (0: no limit)
    bint over_limit     # a memo would have outgrown ``limit``: the solve stopped


cdef long long opt_bytes(Opt* o) noexcept nogil:
    """Bytes the memos hold: the states' table (24 bytes a slot), the final shoes' and the
    per-level node arrays (what ``OptimalSplit.bytes`` reports)."""
    return ((<long long>o.states.mask + 1) * 24
            + (<long long>o.finals.mask + 1) * <long long>sizeof(FSlot)
            + OPT_LEVELS * <long long>n_nodes * <long long>(sizeof(int) + 2 * sizeof(double)))


cdef bint opt_room(Opt* o, long long more) noexcept nogil:
    """Whether the memos may take ``more`` bytes within ``o.limit``; if not, the solve
    stops (``over_limit``, ``failed``) before it allocates them. A table grows by doubling,
    the old one freed once copied, so its growth asks for twice its size."""
    if o.limit > 0 and opt_bytes(o) + more > o.limit:
        o.over_limit = True
        o.failed = True
        return False
    return True


cdef inline int opt_pack(Opt* o, const int* S, int left, int made, const int* W, const int* L,
                         uint64_t* a, uint64_t* b) noexcept nogil:
    cdef int r, g
    cdef uint64_t x = 0, y = 1ULL << 63
    for r in range(NR):
        g = o.base[r] - S[r]
        if g > 63:
            o.overflow = True
            return -1
        x |= (<uint64_t>g) << (6 * r)
    x |= (<uint64_t>left) << 60
    y |= <uint64_t>made
    for r in range(NCLS):
        y |= (<uint64_t>W[r]) << (3 + 4 * r)
    y |= (<uint64_t>L[0]) << 27
    y |= (<uint64_t>L[1]) << 29
    y |= (<uint64_t>L[2]) << 33
    a[0] = x
    b[0] = y
    return 0


cdef inline uint64_t opt_key(Opt* o, const int* S) noexcept nogil:
    """The final-shoe key of ``S``: its removal from ``base``, 6 bits a rank, plus 1."""
    cdef uint64_t key = 1
    cdef int r
    for r in range(NR):
        key += (<uint64_t>(o.base[r] - S[r])) << (6 * r)
    return key


cdef const double* opt_final(Opt* o, uint64_t key, const int* S) noexcept nogil:
    """The standing values by class and P(blackjack) of the dealer drawing from ``S``
    (``key``: :func:`opt_key` of ``S``)."""
    cdef uint64_t slot
    cdef int r, n = 0
    cdef int shoe[NR]
    cdef double* d
    cdef double* v
    slot = mix(key) & o.finals.mask
    while o.finals.s[slot].key != 0:
        if o.finals.s[slot].key == key:
            return o.finals.s[slot].v
        slot = (slot + 1) & o.finals.mask
    for r in range(NR):
        shoe[r] = S[r] + (r == o.up - 1)
        n += shoe[r]
    tree_eval(up_tree_for(o.drule, n, o.up - 1), shoe, o.tbuf, o.rows)
    d = &o.rows[(o.up - 1) * NOUT]
    if dealer_lost_mass(d):
        o.exhausted = True
    v = o.finals.s[slot].v
    class_nets(d, v)
    v[NCLS] = d[OUT_BJ]
    o.finals.s[slot].key = key
    o.finals.used += 1
    if o.finals.used * 2 > <long long>o.finals.mask:
        if not opt_room(o, 2 * (<long long>o.finals.mask + 1) * <long long>sizeof(FSlot)):
            return NULL
        if fmap_grow(&o.finals) != 0:
            o.failed = True
            return NULL
        return opt_final(o, key, S)
    return v


cdef double opt_last(Opt* o, int lv, uint64_t key, const int* F, int bet, int cls,
                     double* g=NULL) noexcept nogil:
    """The round's value when the last hand ends leaving ``F`` (key ``key``) with ``bet``
    standing on class ``cls`` (bet 0: bust or paid): every standing bet settles.

    ``g``: if given, set to the finished hands' part of it (the bets standing before).
    """
    cdef const double* v
    cdef double own, mine
    cdef int c
    if g != NULL:
        g[0] = 0.0
    if o.standing[lv] + bet == 0:
        return 0.0
    v = opt_final(o, key, F)
    if v == NULL:
        return 0.0
    o.settled += 1
    # (the last hand is never the first: a later hand's blackjack losses)
    own = stand_settlement(o.mode, bet, v[cls], v[NCLS], o.bjl[2], o.bjl[3]) if bet else 0.0
    mine = 0.0
    if o.standing[lv]:
        for c in range(NCLS):
            if o.W[lv][c] != 0:
                mine += o.W[lv][c] * v[c]
    # the finished hands' bets, settled as one: a dealer blackjack takes o.take from them
    mine = stand_settlement(o.mode, 1.0, mine, v[NCLS], o.take[lv], o.take[lv])
    if g != NULL:
        g[0] = mine
    return own + mine


cdef double opt_state(Opt* o, int lv, const int* S, int left, int made, const int* W,
                      const int* L) noexcept nogil:
    """Value of the rest of the round: ``left`` hands to play (one pair card each) from ``S``.

    ``left`` is at least 1: the last hand's ends settle at once (:func:`opt_last`).
    """
    cdef uint64_t a, b
    cdef long long slot
    cdef double v
    cdef int r
    if opt_pack(o, S, left, made, W, L, &a, &b) != 0:
        return 0.0
    slot = smap_find(&o.states, a, b)
    if slot >= 0:
        return o.states.v[slot]
    if lv >= OPT_LEVELS or o.failed:
        o.failed = True
        return 0.0
    for r in range(NR):
        o.S[lv][r] = S[r]
    for r in range(NCLS):
        o.W[lv][r] = W[r]
    for r in range(3):
        o.L[lv][r] = L[r]
    o.left[lv] = left
    o.made[lv] = made
    o.cur[lv] += 1
    o.qover[lv] = -1.0
    if left == 1:  # the last hand: its ends settle at once (opt_last)
        o.key[lv] = opt_key(o, S)
        o.standing[lv] = 0
        for r in range(NCLS):
            o.standing[lv] += W[r]
        o.take[lv] = L[1] * blackjack_loss(1, o.bjl[2], o.bjl[3]) \
            + L[2] * blackjack_loss(2, o.bjl[2], o.bjl[3])
        if L[0] != 0:
            o.take[lv] += blackjack_loss(L[0], o.bjl[0], o.bjl[1])
    v = 0.0
    for r in range(NR):
        v += opt_card(o, lv, r)
    if ((o.states.used + 1) * 2 > <long long>o.states.mask
            and not opt_room(o, 2 * (<long long>o.states.mask + 1) * 24)):
        return v
    if smap_put(&o.states, a, b, v) != 0:
        o.failed = True
    return v


cdef double opt_own(Opt* o, int lv, const int* shoe, int bet, int cls) noexcept nogil:
    """The level's hand's ``bet`` standing on class ``cls``, settled against the dealer
    drawing from ``shoe`` (``own_only``; never the last hand, which :func:`opt_last`
    settles)."""
    cdef const double* v = opt_final(o, opt_key(o, shoe), shoe)
    cdef int first
    if v == NULL:
        return 0.0
    o.settled += 1
    # what a dealer blackjack takes: hand 1's own amounts when apart (own_only: never the
    # peek shortcut)
    first = 0 if o.first_apart and o.made[lv] == o.left[lv] else 2
    return stand_settlement(o.mode, bet, v[cls], v[NCLS], o.bjl[first], o.bjl[first + 1])


cdef double opt_next(Opt* o, int lv, const int* shoe, int bet, int cls) noexcept nogil:
    """The level's hand ends leaving ``shoe``: ``bet`` standing on class ``cls`` (bet 0:
    bust or paid, nothing stands)."""
    cdef int W[NCLS]
    cdef int L[3]
    cdef int r
    for r in range(NCLS):
        W[r] = o.W[lv][r]
    for r in range(3):
        L[r] = o.L[lv][r]
    if o.own_only:  # (W and L stay empty)
        return (opt_own(o, lv, shoe, bet, cls) if bet > 0 else 0.0) \
            + opt_state(o, lv + 1, shoe, o.left[lv] - 1, o.made[lv], W, L)
    if bet > 0:
        W[cls] += bet
        if o.mode == 0:
            if o.first_apart and o.made[lv] == o.left[lv]:  # no hand finished yet: hand 1
                L[0] = bet
            else:
                L[bet] += 1
    return opt_state(o, lv + 1, shoe, o.left[lv] - 1, o.made[lv], W, L)


cdef inline int opt_shoe(Opt* o, int lv, int node, int* shoe) noexcept nogil:
    """The shoe when the level's hand holds ``node`` (its pair card included); its size."""
    cdef int r, N = 0
    for r in range(NR):
        shoe[r] = o.S[lv][r] - node_counts[node][r] + (r == o.p)
        N += shoe[r]
    return N


cdef inline double opt_settle(Opt* o, const int* shoe, int N) noexcept nogil:
    return no_bj(o.up, shoe, N) if o.mode == 1 else 1.0


cdef inline double opt_end(Opt* o, int lv, int node, int extra, const int* shoe, int bet,
                           int cls) noexcept nogil:
    """The level's hand ends holding ``node`` (plus the bust card ``extra``, or -1), leaving
    ``shoe``, with ``bet`` standing on class ``cls`` (bet 0: settled)."""
    cdef uint64_t key
    if o.left[lv] == 1:
        key = o.key[lv] + node_key[node] - o.pkey
        if extra >= 0:
            key += 1ULL << (6 * extra)
        return opt_last(o, lv, key, shoe, bet, cls)
    return opt_next(o, lv, shoe, bet, cls)


cdef double opt_bust(Opt* o, int lv, int node, int* shoe, int N, int r, int bet) noexcept nogil:
    """The hand holding ``node`` busts on card ``r`` drawn from ``shoe`` (restored on return)."""
    cdef double v
    shoe[r] -= 1
    v = -bet * opt_settle(o, shoe, N - 1) + opt_end(o, lv, node, r, shoe, 0, 0)
    shoe[r] += 1
    return v


cdef inline double opt_stand(Opt* o, int lv, int node, const int* shoe, int bet) noexcept nogil:
    cdef int t = node_best[node]
    return opt_end(o, lv, node, -1, shoe, bet, stand_class(t))


cdef extern from *:
    void __builtin_prefetch(const void* addr) nogil


cdef inline void opt_prefetch_final(Opt* o, uint64_t key) noexcept nogil:
    """Ask for the final-shoe slot of ``key`` (:func:`opt_final` reads it later)."""
    __builtin_prefetch(&o.finals.s[mix(key) & o.finals.mask])


cdef inline void opt_prefetch(Opt* o, int lv, int node, const int* shoe) noexcept nogil:
    """Ask for the final-shoe slots a last hand at ``node`` reads (standing, each bust card):
    the misses overlap instead of coming one after another."""
    cdef uint64_t key = o.key[lv] + node_key[node] - o.pkey
    cdef int r
    opt_prefetch_final(o, key)
    if o.standing[lv] == 0 or node_best[node] >= 21:
        return
    for r in range(NR):
        if shoe[r] > 0 and node_child[node][r] < 0:
            opt_prefetch_final(o, key + (1ULL << (6 * r)))


cdef inline void opt_prefetch_state(Opt* o, int lv, const int* shoe) noexcept nogil:
    """Ask for the slots the state after the level's hand ends leaving ``shoe`` reads
    (``own_only``: the finished hands are not in it)."""
    cdef uint64_t a, b, slot
    if opt_pack(o, shoe, o.left[lv] - 1, o.made[lv], o.W[lv], o.L[lv], &a, &b) != 0:
        return
    slot = smix(a, b) & o.states.mask
    __builtin_prefetch(&o.states.k1[slot])
    __builtin_prefetch(&o.states.k0[slot])
    __builtin_prefetch(&o.states.v[slot])


cdef void opt_prefetch_ends(Opt* o, int lv, int node, int* shoe) noexcept nogil:
    """A hand before the last one at ``node`` (``own_only``): ask for the slots its ends read,
    standing (the final shoe's dealer side and the next state) and each bust card (the
    next state), so that the misses overlap."""
    cdef int r
    opt_prefetch_final(o, opt_key(o, shoe))
    opt_prefetch_state(o, lv, shoe)
    if node_best[node] >= 21:
        return
    for r in range(NR):
        if shoe[r] > 0 and node_child[node][r] < 0:
            shoe[r] -= 1
            opt_prefetch_state(o, lv, shoe)
            shoe[r] += 1


cdef inline double opt_q678(Opt* o, int lv) noexcept nogil:
    """The suited 6-7-8 chance of the level's hand: hand 1 and 2 hold the pair cards as
    given; resplit hands hold pair cards drawn from the shoe."""
    cdef int index = o.made[lv] - o.left[lv]  # hands finished before this one
    if o.qover[lv] >= 0.0:
        return o.qover[lv]
    return o.q678[index if index < 2 else 2]


cdef double opt_suited(Opt* o, int lv, int r, int ch, double d) noexcept nogil:
    """:func:`opt_card`'s value of a split 6, 7 or 8 that drew ``r``, another of them
    (``ch``), when the hand knows its suits: as ``suited_value`` in the engine, each
    suit case of its pair card and each answer to "does ``r`` share it" plays its own
    best round; ``d``: the double's value (no bonus, so the same in every case)."""
    cdef int k, j, index = o.made[lv] - o.left[lv]
    cdef int t = 18 - o.p - r
    cdef double acc = 0.0, u, w, v
    if index > 2:
        index = 2
    for k in range(o.nsuit[index]):
        u = o.suit_u[index][k][r - 5]
        for j in range(2):
            w = o.suit_w[index][k] * (u if j == 0 else 1.0 - u)
            if w == 0.0:
                continue
            o.qover[lv] = o.suit_u[index][k][t - 5] if j == 0 else 0.0
            o.stamp[lv][ch] = 0
            o.stamp[lv][id_678] = 0
            v = opt_node(o, lv, ch)
            acc += w * (d if beats(d, v) else v)
    o.qover[lv] = -1.0
    o.stamp[lv][ch] = 0
    o.stamp[lv][id_678] = 0
    return acc


cdef double opt_node(Opt* o, int lv, int node) noexcept nogil:
    """Best value of the round when the level's hand holds ``node`` (stand or hit)."""
    cdef int shoe[NR]
    cdef int r, ch, N, e
    cdef double v, h, pr, q
    if o.stamp[lv][node] == o.cur[lv]:
        return o.val[lv][node]
    N = opt_shoe(o, lv, node, shoe)
    if o.left[lv] == 1:
        return opt_last_node(o, lv, node, shoe, N)
    if o.own_only:
        opt_prefetch_ends(o, lv, node, shoe)
    e = fixed_row(o.nfix, o.fix_node, node) if o.nfix > 0 else -1
    if e >= 0:  # a bonus row of any suits: paid at once; settled, or standing
        v = fixed_pay(o.fix_pay[e], node, o.b678, opt_q678(o, lv)) * opt_settle(o, shoe, N) \
            + (opt_stand(o, lv, node, shoe, 1) if o.fix_stand[e] else
               opt_end(o, lv, node, -1, shoe, 0, 0))
    elif charlie_hand(node_ncards[node], o.charlie):  # (wins its bet at once)
        v = opt_settle(o, shoe, N) + opt_end(o, lv, node, -1, shoe, 0, 0)
    else:
        v = opt_stand(o, lv, node, shoe, 1)
        if node_best[node] < 21 and N > 0:
            h = 0.0
            for r in range(NR):
                if shoe[r] <= 0:
                    continue
                pr = <double>shoe[r] / N
                ch = node_child[node][r]
                if ch < 0:
                    h += pr * opt_bust(o, lv, node, shoe, N, r, 1)
                else:
                    h += pr * opt_node(o, lv, ch)
            if beats(h, v):
                v = h
        if doubles_after_hit(node_ncards[node], o.dah, o.double_ok[node_best[node]] != 0):
            h = opt_double(o, lv, node)
            if beats(h, v):
                v = h
        q = opt_q678(o, lv)
        if node == id_678 and o.b678 > 0 and q > 0:  # (v: standing on the plain 21)
            v = q * (o.b678 * opt_settle(o, shoe, N) + (v if o.bonus_stands else
                                                        opt_end(o, lv, node, -1, shoe, 0, 0))) \
                + (1.0 - q) * v
    o.stamp[lv][node] = o.cur[lv]
    o.val[lv][node] = v
    return v


cdef inline bint opt_identity(Opt* o, int lv, int N) noexcept nogil:
    """Whether the level's hand, with ``N`` cards left at its node, is the last to play
    and may settle its busts by the removal identity (see :func:`opt_last_node`)."""
    return o.left[lv] == 1 and o.mode != 2 and N >= o.longest


cdef void opt_prefetch_children(Opt* o, int lv, int node, uint64_t key,
                                const int* shoe) noexcept nogil:
    """The last hand at ``node`` (final-shoe key ``key``): its children not yet valued
    stand first, so ask for their final shoes' slots (once the table outgrows the cache;
    a function of its own, so that the recursion's frame stays small)."""
    cdef int r, ch
    for r in range(NR):
        ch = node_child[node][r]
        if shoe[r] > 0 and ch >= 0 and o.stamp[lv][ch] != o.cur[lv]:
            opt_prefetch_final(o, key + (1ULL << (6 * r)))


cdef double opt_last_node(Opt* o, int lv, int node, int* shoe, int N) noexcept nogil:
    """:func:`opt_node` for the last hand, the busts settled without a dealer lookup.

    With ``g(F)`` the finished hands' value when the dealer draws from ``F`` (linear
    in the dealer's distribution: no renormalisation, so not in the peek shortcut),
    removing one unseen card at random leaves it unchanged: ``sum_r F_r / |F| *
    g(F - r) = g(F)`` whenever the dealer cannot run out of cards (``|F|`` at least
    his longest hand). So the bust cards' share of a hit, ``sum over bust r of p_r
    g(F - r)``, is ``g(F)`` less the non-bust children's ``p_r g(F - r)``, which their
    own standing lookups give. Only the node's own shoe is looked up. (Otherwise
    each bust's shoe is, prefetched.)
    """
    cdef int r, ch, e
    cdef double v, h, pr, g, gsum, q
    cdef uint64_t key = o.key[lv] + node_key[node] - o.pkey
    cdef int t = node_best[node]
    cdef bint identity = opt_identity(o, lv, N)
    if not identity:
        opt_prefetch(o, lv, node, shoe)
    if t < 21 and o.finals.mask >= FINALS_IN_CACHE:
        opt_prefetch_children(o, lv, node, key, shoe)
    e = fixed_row(o.nfix, o.fix_node, node) if o.nfix > 0 else -1
    if e >= 0:  # a bonus row of any suits: paid at once; settled, or standing
        v = fixed_pay(o.fix_pay[e], node, o.b678, opt_q678(o, lv)) * opt_settle(o, shoe, N) \
            + opt_last(o, lv, key, shoe, 1 if o.fix_stand[e] else 0,
                       stand_class(t) if o.fix_stand[e] else 0, &g)
    elif charlie_hand(node_ncards[node], o.charlie):  # (wins its bet at once)
        v = opt_settle(o, shoe, N) + opt_last(o, lv, key, shoe, 0, 0, &g)
    else:
        v = opt_last(o, lv, key, shoe, 1, stand_class(t), &g)
        if t < 21 and N > 0:
            h = 0.0
            gsum = 0.0
            for r in range(NR):
                if shoe[r] <= 0:
                    continue
                pr = <double>shoe[r] / N
                ch = node_child[node][r]
                if ch < 0 and identity:
                    shoe[r] -= 1
                    h -= pr * opt_settle(o, shoe, N - 1)
                    shoe[r] += 1
                elif ch < 0:
                    h += pr * opt_bust(o, lv, node, shoe, N, r, 1)
                else:
                    h += pr * opt_node(o, lv, ch)
                    gsum += pr * o.gv[lv][ch]
            if identity:
                h += g - gsum
            if beats(h, v):
                v = h
        if doubles_after_hit(node_ncards[node], o.dah, o.double_ok[t] != 0):
            # (opt_double reads the node's finished-hands value: kept first)
            o.stamp[lv][node] = o.cur[lv]
            o.val[lv][node] = v
            o.gv[lv][node] = g
            h = opt_double(o, lv, node)
            if beats(h, v):
                v = h
        q = opt_q678(o, lv)
        if node == id_678 and o.b678 > 0 and q > 0:  # (v: standing on the plain 21)
            v = q * (o.b678 * opt_settle(o, shoe, N) + (v if o.bonus_stands else g)) \
                + (1.0 - q) * v
    o.stamp[lv][node] = o.cur[lv]
    o.val[lv][node] = v
    o.gv[lv][node] = g
    return v


cdef double opt_double(Opt* o, int lv, int node) noexcept nogil:
    """Value of doubling at ``node``: bet 2, one card, stand (no bonus). (Last hand: the
    busts settle as in :func:`opt_last_node`, from the node's own finished-hands value.)"""
    cdef int shoe[NR]
    cdef int r, ch, t, N = opt_shoe(o, lv, node, shoe)
    cdef double v = 0.0, pr, g, gsum = 0.0
    cdef bint fast = opt_identity(o, lv, N)
    cdef uint64_t key = o.key[lv] + node_key[node] - o.pkey
    if fast:
        opt_node(o, lv, node)  # sets the node's finished-hands value
    for r in range(NR):
        if shoe[r] <= 0:
            continue
        pr = <double>shoe[r] / N
        ch = node_child[node][r]
        if ch < 0:
            if fast:
                shoe[r] -= 1
                v -= 2 * pr * opt_settle(o, shoe, N - 1)
                shoe[r] += 1
            else:
                v += pr * opt_bust(o, lv, node, shoe, N, r, 2)
        else:
            shoe[r] -= 1
            if fast:
                t = node_best[ch]
                v += pr * opt_last(o, lv, key + (1ULL << (6 * r)), shoe, 2, stand_class(t),
                                   &g)
                gsum += pr * g
            else:
                v += pr * opt_stand(o, lv, ch, shoe, 2)
            shoe[r] += 1
    if fast:
        v += o.gv[lv][node] - gsum
    return v


cdef double opt_card(Opt* o, int lv, int r) noexcept nogil:
    """P(second card r) times the best value of the round after it (the level's hand)."""
    cdef const int* S = o.S[lv]
    cdef int shoe[NR]
    cdef int k, N = 0, ch
    cdef double v, d
    for k in range(NR):
        N += S[k]
    if N == 0:
        o.exhausted = True
        return 0.0
    if S[r] <= 0:
        return 0.0
    ch = node_child[node_child[0][o.p]][r]
    if o.p == 0 and o.aces_one_card:
        opt_shoe(o, lv, ch, shoe)
        v = opt_stand(o, lv, ch, shoe, 1)
    elif o.b678 > 0 and 5 <= o.p <= 7 and 5 <= r <= 7 and r != o.p \
            and o.nsuit[min(o.made[lv] - o.left[lv], 2)] > 0:
        d = opt_double(o, lv, ch) if o.das and o.double_ok[node_best[ch]] else -1e300
        v = opt_suited(o, lv, r, ch, d)
    else:
        v = opt_node(o, lv, ch)
        if o.das and o.double_ok[node_best[ch]]:
            d = opt_double(o, lv, ch)
            if beats(d, v):
                v = d
    if r == o.p and o.made[lv] < o.max_hands:  # resplit: this card starts a waiting hand
        for k in range(NR):
            shoe[k] = S[k] - (k == r)
        d = opt_state(o, lv + 1, shoe, o.left[lv] + 1, o.made[lv] + 1, o.W[lv], o.L[lv])
        if beats(d, v):
            v = d
    return <double>S[r] / N * v


cdef bint opt_no_run_out(Opt* o) noexcept nogil:
    """Whether the dealer keeps at least his longest hand's cards (``o.longest``, up card
    included: so the dealer cannot run out even with one card fewer) at every point of
    the round, whatever the hands do.

    Each hand holds its pair card, cards of hard total at most 20 less the pair card's
    (it draws only below 21) and one last card; resplits add ``max_hands`` - 2 pair cards.
    The drawn cards below the last ones total at most ``max_hands`` x (20 - pair), so at
    most as many as the smallest cards of the shoe that fit in that sum (aces as 1).
    """
    cdef int S[NR]
    cdef int r, k, budget, taken = 0, N = 0
    for r in range(NR):
        S[r] = o.base[r] - 2 * (r == o.p)
        N += S[r]
    budget = o.max_hands * (20 - (o.p + 1))
    for r in range(NR):
        for k in range(S[r]):
            if budget < r + 1:
                break
            budget -= r + 1
            taken += 1
    return N - (o.max_hands - 2) - taken - o.max_hands >= o.longest


cdef class OptimalSplit:
    """The fully optimal split of one pair against one up card (caller-owned state).

    Casino order: hand 1 takes its second card and is played out, then hand
    2, and so on, then the dealer. Every decision (hit, stand, double after
    split, resplit while fewer than ``max_hands`` hands exist) uses everything
    seen in the round so far (pair, up card, every card of the hands dealt
    before and of this one) and maximises the EV of the whole round. Values
    are raw, on the engine's scale (:func:`hand_values`: peek games give
    E[result * 1{no dealer blackjack}]); summed over all hands, per unit
    initial bet. ``base``: the shoe with both pair cards in (up card gone).
    ``params``: hand 1's :class:`~strategy_calc.engine.EngineParams`; ``second`` and
    ``resplit``: those of hand 2 and of the resplit hands where they differ (only
    their suited 6-7-8 chance and ``split_suits`` are read; default ``params``).
    :meth:`card` values one second card of hand 1 at a time (for progress);
    the memo of states carries over between calls, one call at a time.
    ``own_only``: settle each hand's bet at its end, the finished hands out of the state
    (see the top of ``_optimal_split.pxi``: the same value, to rounding, from far fewer
    states); None (the default) does so with resplits when the dealer cannot run out
    of cards and the settlement is linear (:attr:`own_only` says which ran).
    ``memory_limit``: the most bytes its memos may hold (:attr:`bytes`, counting a
    table's growth at twice its size); a solve that would outgrow it stops and
    :meth:`card` raises ``InputError`` instead of letting the machine swap (None or 0:
    no limit).
    """
    cdef Opt o
    cdef bint busy
    cdef bint ready

    def __cinit__(self, const int[:] base, int pair, int up, params, int max_hands,
                  second=None, resplit=None, own_only=None, memory_limit=None):
        cdef Params P
        cdef Params hands[3]
        cdef Opt* o
        cdef int r, k, lv
        self.ready = False
        self.busy = False
        self.o.states.k0 = NULL
        self.o.states.k1 = NULL
        self.o.states.v = NULL
        for lv in range(OPT_LEVELS):
            self.o.stamp[lv] = NULL
            self.o.val[lv] = NULL
            self.o.gv[lv] = NULL
        read_params(params, &P)
        finite_only(&P, "the fully optimal split")
        for r, given in enumerate((params, second, resplit)):
            read_params(params if given is None else given, &hands[r])
            if hands[r].drule != P.drule or hands[r].mode != P.mode:
                raise ValueError("the hands' parameters must share the game")
        check_pair(base, pair)
        check_up(up)
        if max_hands < 2 or max_hands > 4:
            raise ValueError("max_hands is 2..4")
        o = &self.o
        for r in range(NR):
            o.base[r] = base[r]
        o.p = pair - 1
        o.pkey = 1ULL << (6 * o.p)
        for r in range(NR):  # the state keys hold 6 bits of each rank's removal
            if min(base[r], max_hands * (21 // (r + 1) + 2)) > 63:
                raise _InputError("the optimal split handles shoes with at most 63 cards of a"
                                 " rank that a round could use up")
        o.up = up
        o.mode = P.mode
        o.max_hands = max_hands
        o.das = P.das
        o.aces_one_card = P.aces_one_card
        o.bjl[0] = P.bjl1
        o.bjl[1] = P.bjl2
        o.bjl[2] = P.bjl1_second
        o.bjl[3] = P.bjl2_second
        o.first_apart = P.mode == 0 and (P.bjl1 != P.bjl1_second or P.bjl2 != P.bjl2_second)
        o.nfix = P.nfix
        for r in range(P.nfix):
            o.fix_node[r] = P.fix_node[r]
            o.fix_pay[r] = P.fix_pay[r]
            o.fix_stand[r] = P.fix_stand[r]
        o.b678 = P.b678
        o.bonus_stands = P.bonus_stands
        o.charlie = P.charlie
        o.dah = P.dah
        for r in range(3):  # hand 1, hand 2, the resplit hands
            o.q678[r] = hands[r].q678
            o.nsuit[r] = hands[r].nsuit
            for k in range(hands[r].nsuit):
                o.suit_w[r][k] = hands[r].suit_w[k]
                o.suit_u[r][k][0] = hands[r].suit_u[k][0]
                o.suit_u[r][k][1] = hands[r].suit_u[k][1]
                o.suit_u[r][k][2] = hands[r].suit_u[k][2]
        for lv in range(OPT_LEVELS):
            o.qover[lv] = -1.0
        for r in range(NTOTALS):
            o.double_ok[r] = P.double_ok[r]
        o.exhausted = False
        o.failed = False
        o.overflow = False
        o.over_limit = False
        o.limit = 0 if memory_limit is None else memory_limit
        if o.limit < 0:
            raise ValueError("memory_limit is a number of bytes, at least 0 (0: none)")
        o.settled = 0
        o.drule = P.drule
        o.longest = longest_hand[P.drule]
        o.own_only = o.mode != 2 and opt_no_run_out(o)
        if own_only is not None:
            if own_only and not o.own_only:
                raise ValueError("own_only needs a linear settlement (not the peek shortcut)"
                                 " and a shoe the dealer cannot run out of")
            o.own_only = bool(own_only)
        elif max_hands == 2:  # one split keeps its settlement order (fast either way)
            o.own_only = False
        o.finals.used = 0
        o.tbuf = <double*>malloc(tree_scratch_size() * sizeof(double))
        if o.tbuf == NULL or fmap_alloc(&o.finals, (1 << 12) - 1) != 0:
            raise MemoryError()
        if smap_init(&o.states, 12) != 0:
            raise MemoryError()
        for lv in range(OPT_LEVELS):
            o.stamp[lv] = <int*>calloc(n_nodes, sizeof(int))
            o.val[lv] = <double*>malloc(n_nodes * sizeof(double))
            o.gv[lv] = <double*>malloc(n_nodes * sizeof(double))
            o.cur[lv] = 0
            if o.stamp[lv] == NULL or o.val[lv] == NULL or o.gv[lv] == NULL:
                raise MemoryError()
        # level 0: hand 1 starts; both pair cards are out of the shoe, none finished
        for r in range(NR):
            o.S[0][r] = base[r] - 2 * (r == o.p)
        for r in range(NCLS):
            o.W[0][r] = 0
        for r in range(3):
            o.L[0][r] = 0
        o.left[0] = 2
        o.made[0] = 2
        o.cur[0] = 1
        self.ready = True

    def __dealloc__(self):
        cdef int lv
        smap_free(&self.o.states)
        for lv in range(OPT_LEVELS):
            free(self.o.stamp[lv])
            free(self.o.val[lv])
            free(self.o.gv[lv])
        free(self.o.finals.s)
        free(self.o.tbuf)

    def card(self, int rank):
        """Raw contribution of hand 1's second card ``rank`` (1..10): P(it) times the
        round's best value after it (0 if the shoe has none). The sum over ranks is
        :meth:`value`."""
        cdef double v
        if rank < 1 or rank > 10:
            raise ValueError("rank is 1..10")
        if self.busy:
            raise RuntimeError("this OptimalSplit is in use by another call")
        self.busy = True
        try:
            with nogil:
                v = opt_card(&self.o, 0, rank - 1)
        finally:
            self.busy = False
        if self.o.over_limit:
            raise _InputError(
                f"the optimal split needs more than its memory limit of"
                f" {self.o.limit / 2**20:,.4g} MiB (--memory-limit; {self.o.states.used:,}"
                f" states solved when it stopped): give it more, or ask fewer split hands"
                f" or a smaller shoe")
        if self.o.failed:
            raise MemoryError()
        if self.o.overflow:
            raise _InputError("too many cards of one rank dealt for the optimal split's state key")
        if self.o.exhausted:
            raise _InputError("too few cards left for an exact answer: the dealer could run out"
                             " of cards")
        return v

    def value(self):
        """Raw value of the split (all hands), the sum of :meth:`card` over ranks."""
        return sum([self.card(r) for r in range(1, 11)])

    @property
    def own_only(self):
        """Whether each hand's bet settles at its end (the finished hands out of the state)."""
        return self.o.own_only

    @property
    def states(self):
        """Between-hands states solved and kept (the canonical memo's size)."""
        return self.o.states.used

    @property
    def settlements(self):
        """Terminal settlements against the dealer computed."""
        return self.o.settled

    @property
    def dealer_evaluations(self):
        """Distinct final shoes whose dealer distribution was computed."""
        return self.o.finals.used

    @property
    def bytes(self):
        """Memory held by the memos (states and dealer distributions), in bytes."""
        return opt_bytes(&self.o)
