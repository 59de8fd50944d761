# The parameter struct (Params, read once from an EngineParams) and the player's
# play of one hand: stand, hit, double, bonus and policy values (Ctx), hand_values,
# split_tables.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

# -------------------------------------------------------------- parameters
cdef enum:
    MAXFIX = 16  # bonus rows of any suits a hand may be paid (BlackjackRules.bonus_hands)

cdef struct Params:
    int mode             # conditioning: 0 ENHC, 1 peek exact, 2 peek shortcut
    int drule            # the dealer's rules: DEALER_H17 | DEALER_22 (_engine.pxd)
    double bjl1          # an ENHC dealer blackjack takes this from a standing hand (bet 1)
    double bjl2          # ... from a doubled one
    double bjl1_second   # the same for split hands after the first
    double bjl2_second
    int nfix             # bonus rows of any suits (EngineParams.bonus_fixed): their nodes,
    int fix_node[MAXFIX] # ... payouts (paid at once) and whether the paid hand also stands
    double fix_pay[MAXFIX]
    bint fix_stand[MAXFIX]
    double b678          # the suited 6-7-8's bonus
    double q678          # chance a 6-7-8 made by this hand would be suited
    bint bonus_stands    # a suited 6-7-8, paid at once, also stands as a 21 (not bonus_settles_hand)
    bint das             # double after split (for this pair)
    bint aces_one_card   # split aces take one card each
    int double_ok[NTOTALS]
    int nsuit            # split 6/7/8 hands that know their suits: cases of the pair card's suit
    double suit_w[4]     # ... each case's probability
    double suit_u[4][3]  # ... and the chance that a 6, 7, 8 drawn has that suit
    int charlie          # a hand of this many cards wins at once (0: no Charlie)
    bint dah             # hands of three or more cards may double (double_after_hit)
    double err           # play-error rate: each hit/stand decision after the first
                         # takes the other play with this chance (EngineParams.play_error)
    bint replace         # an infinite deck: every card drawn with replacement (no removal)


cdef int read_params(object p, Params* out) except -1:
    """Fill ``out`` from an :class:`strategy_calc.engine.EngineParams` (read by field name)."""
    cdef int t, r
    out.mode = int(p.conditioning)
    if out.mode < 0 or out.mode > 2:
        raise ValueError("conditioning is 0, 1 or 2")
    out.drule = (DEALER_H17 if p.dealer_hits_soft_17 else 0) \
        | (DEALER_22 if p.dealer_22_pushes else 0)
    ensure_trees(out.drule)
    out.bjl1 = p.blackjack_loss
    out.bjl2 = p.blackjack_loss_doubled
    out.bjl1_second = p.second_hand_blackjack_loss
    out.bjl2_second = p.second_hand_blackjack_loss_doubled
    read_fixed(p.bonus_fixed, &out.nfix, out.fix_node, out.fix_pay, out.fix_stand)
    out.b678 = p.bonus_suited_678
    out.q678 = p.suited_678_chance
    out.bonus_stands = not p.bonus_settles_hand
    for x in (out.bjl1, out.bjl2, out.bjl1_second, out.bjl2_second, out.b678):
        if not isfinite(x):
            raise ValueError("engine parameters must be finite")
    if not (0.0 <= out.q678 <= 1.0):
        raise ValueError("suited_678_chance is a probability")
    out.das = bool(p.double_after_split)
    out.charlie = int(p.charlie_cards)
    if out.charlie < 0:
        raise ValueError("charlie_cards is 0 or more")
    out.aces_one_card = bool(p.split_aces_one_card)
    out.dah = bool(p.double_after_hit)
    out.err = p.play_error
    if not (0.0 <= out.err < 1.0):
        raise ValueError("play_error is a probability below 1")
    if out.err > 0.0 and out.dah:
        raise ValueError("play_error with double_after_hit: not modelled")
    out.replace = bool(p.with_replacement)
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


cdef int read_fixed(object rows, int* n, int* nodes, double* pays, bint* stands) except -1:
    """The bonus rows of any suits, ``((counts by rank 1..10), pays, stands)`` each, as
    player nodes (:func:`node_of`)."""
    cdef int counts[NR]
    cdef int r
    if len(rows) > MAXFIX:
        raise ValueError(f"at most {MAXFIX} bonus rows of any suits")
    n[0] = 0
    for row in rows:
        ranks, pay, stand = row
        if len(ranks) != NR or not all(0 <= k <= 21 for k in ranks):
            raise ValueError("a bonus row's counts are 10 ranks")
        for r in range(NR):
            counts[r] = ranks[r]
        if not (isfinite(pay) and pay > 0.0):
            raise ValueError("a bonus row pays a finite amount > 0")
        nodes[n[0]] = node_of(counts)
        if nodes[n[0]] < 0 or node_ncards[nodes[n[0]]] < 3:
            raise ValueError("a bonus row is a live hand of three or more cards")
        pays[n[0]] = pay
        stands[n[0]] = bool(stand)
        n[0] += 1
    return 0


cdef int finite_only(const Params* P, str what) except -1:
    """Refuse an infinite deck (``Params.replace``) where ``what`` is not computed for one."""
    if P.replace:
        raise _InputError(f"{what} is not computed for an infinite deck (--decks inf)")
    return 0


# ---------------------------------------------------------------- player play
cdef enum:
    BATCH = 64  # stands batch_stands hands dmemo_batch at once

cdef struct Ctx:
    int base[NR]        # the shoe the player draws from (up card and known cards gone)
    int up
    int mode
    double bjl1
    double bjl2
    int nfix            # (Params: the bonus rows of any suits)
    int fix_node[MAXFIX]
    double fix_pay[MAXFIX]
    bint fix_stand[MAXFIX]
    double b678
    double q678
    bint bonus_stands   # (Params.bonus_stands)
    int nsuit           # the split hand's suit cases (see Params), 0: decide with q678
    double suit_w[4]
    double suit_u[4][3]
    int drule
    int charlie         # Params.charlie
    bint dah            # Params.dah
    double err          # Params.err: policy_value and propagate take the other of hit
                        # and stand with this chance at every decision after the first
    char dah_ok[NTOTALS]  # ... and the totals double_on allows (Params.double_ok)
    DMemo* memo         # if set: dealer distributions by ``node + offset`` removed from its origin
    bint lazy           # ... filled one up card at a time first (dmemo_fill; split hands)
    int offset[NR]      # cards gone from the memo's origin besides the up card and the node
    int shift_rank      # offset = shift_count cards of shift_rank (-1 count: not of that form)
    int shift_count
    double* tbuf        # dealer-tree scratch (without a memo)
    char* has_s         # stand values computed (they do not depend on bjl or policy)
    char* has_v         # optimal (composition-dependent) value computed
    char* has_h         # ... with its hit value kept (hv; read by up_card_pass only)
    char* has_t         # fixed-policy value computed
    double* sn          # sum over non-blackjack dealer outcomes of P * payoff of standing
    double* pbj         # P(dealer blackjack) with the node's cards gone
    double* val         # optimal stand/hit value
    double* valt        # value under ``policy``
    double* hv          # optimal value of hitting (play_value's, when it hits or stands)
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
    bint replace        # Params.replace: every card drawn with replacement from ``base``'s
                        # proportions; the dealer's rows are then ``rep`` (no memo)
    double rep[ROWS]    # ... :func:`replacement_rows` of ``base``


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
    c.nfix = p.nfix
    for r in range(p.nfix):
        c.fix_node[r] = p.fix_node[r]
        c.fix_pay[r] = p.fix_pay[r]
        c.fix_stand[r] = p.fix_stand[r]
    c.b678 = p.b678
    c.bonus_stands = p.bonus_stands
    c.q678 = p.q678
    c.nsuit = p.nsuit
    for r in range(p.nsuit):
        c.suit_w[r] = p.suit_w[r]
        c.suit_u[r][0] = p.suit_u[r][0]
        c.suit_u[r][1] = p.suit_u[r][1]
        c.suit_u[r][2] = p.suit_u[r][2]
    c.drule = p.drule
    c.charlie = p.charlie
    c.dah = p.dah
    c.err = p.err
    for r in range(NTOTALS):
        c.dah_ok[r] = <char>p.double_ok[r]
    c.replace = p.replace
    if p.replace:  # one dealer distribution per up card, whatever was dealt
        replacement_rows(base, p.drule, c.rep)
        memo = NULL
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
    c.has_s = <char*>calloc(4 * n_nodes, sizeof(char))
    c.sn = <double*>malloc(5 * n_nodes * sizeof(double))
    c.tbuf = <double*>malloc(tree_scratch_size() * sizeof(double))
    if c.has_s == NULL or c.sn == NULL or c.tbuf == NULL:
        ctx_free(c)
        raise MemoryError()
    c.has_v = c.has_s + n_nodes
    c.has_t = c.has_s + 2 * n_nodes
    c.has_h = c.has_s + 3 * n_nodes
    c.pbj = c.sn + n_nodes
    c.val = c.sn + 2 * n_nodes
    c.valt = c.sn + 3 * n_nodes
    c.hv = c.sn + 4 * n_nodes
    return 0


cdef void ctx_forget(Ctx* c) noexcept nogil:
    """Forget every value (the shoe changed)."""
    memset(c.has_s, 0, 4 * n_nodes * sizeof(char))


cdef inline int memo_node(Ctx* c, int node) noexcept nogil:
    """The player node whose cards are ``node``'s plus the context's offset (the memo's
    removal, keyed without hashing), or -1 (no such node, or an offset not of that form)."""
    cdef int k, wide = node
    if node < 0 or c.shift_count < 0:
        return -1
    for k in range(c.shift_count):
        if wide >= 0:
            wide = node_child[wide][c.shift_rank]
    return wide


cdef void dealer_for(Ctx* c, int node, const int* gone, double* d) noexcept nogil:
    """The dealer distribution (unconditioned) when the cards ``gone`` leave ``c.base``.

    ``node``: the player node whose cards ``gone`` are, or -1 (any removal).
    """
    cdef int removed[NR]
    cdef int shoe[NR]
    cdef double rows[ROWS]
    cdef int r, n = 0, wide
    if c.replace:
        memcpy(d, &c.rep[(c.up - 1) * NOUT], NOUT * sizeof(double))
        return
    if c.memo != NULL:
        for r in range(NR):
            removed[r] = gone[r] + c.offset[r]
        wide = memo_node(c, node)
        if wide >= 0:
            if dmemo_row_node(c.memo, wide, removed, c.up - 1, c.lazy, d) != 0:
                c.failed = True
        elif dmemo_row(c.memo, removed, c.up - 1, c.lazy, d) != 0:
            c.failed = True
        return
    for r in range(NR):
        shoe[r] = c.base[r] - gone[r] + (r == c.up - 1)
        n += shoe[r]
    tree_eval(up_tree_for(c.drule, n, c.up - 1), shoe, c.tbuf, rows)
    memcpy(d, &rows[(c.up - 1) * NOUT], NOUT * sizeof(double))


cdef void batch_stands(Ctx* c, const int* nodes, int count) noexcept nogil:
    """The stand values of the ``count`` player ``nodes`` (with the context's offset)
    that the shoe can hold, their dealer distributions computed LANES at a time
    (:func:`dmemo_batch`): for a caller about to stand on most of them. The same values as
    :func:`ensure_stand` one by one (the same doubles); a node never stood on costs a
    dealer walk and nothing else (a dealer who could run out from it is raised only if
    the play stands there: :func:`stand_from_row`)."""
    cdef int removed[BATCH * NR]
    cdef int wides[BATCH]
    cdef int ids[BATCH]
    cdef long long idx[BATCH]
    cdef int i, s, k, node, n = 0, up_bit = 1 << (c.up - 1)
    if c.memo == NULL or c.lazy or not dmemo_batches(c.memo):
        return
    for i in range(count + 1):
        if n == BATCH or (i == count and n > 0):
            if dmemo_batch(c.memo, removed, wides, n, idx) != 0:
                c.failed = True
                return
            for k in range(n):
                if idx[k] >= 0 and c.memo.rows_of[idx[k]].have & up_bit:
                    stand_from_row(c, ids[k], &c.memo.vals[idx[k] * ROWS + (c.up - 1) * NOUT],
                                   True)
            n = 0
        if i == count:
            break
        node = nodes[i]
        if c.has_s[node] or not node_possible(c, node):
            continue
        for s in range(NR):
            removed[n * NR + s] = node_counts[node][s] + c.offset[s]
        wides[n] = memo_node(c, node)
        ids[n] = node
        n += 1


cdef void batch_children(Ctx* c, int node, const int* shoe) noexcept nogil:
    """:func:`batch_stands` of ``node``'s children by every card ``shoe`` holds that does
    not bust it: optimal play weighs standing at each (but a bonus 7-7-7, paid at once);
    a double stands on its card."""
    cdef int kids[NR]
    cdef int r, ch, n = 0
    if c.memo == NULL or c.lazy or not dmemo_batches(c.memo):
        return
    for r in range(NR):
        ch = node_child[node][r]
        if ch >= 0 and shoe[r] > 0:
            kids[n] = ch
            n += 1
    batch_stands(c, kids, n)


cdef int* holding_start = NULL  # per rank r: offsets into holding_nodes of the hands of
cdef int* holding_nodes = NULL   # two or more cards holding an r (ascending ids)


cdef int build_holding() except -1:
    global holding_start, holding_nodes
    cdef int r, node, n = 0
    holding_start = <int*>malloc((NR + 1) * sizeof(int))
    holding_nodes = <int*>malloc(NR * n_nodes * sizeof(int))
    if holding_start == NULL or holding_nodes == NULL:
        raise MemoryError()
    for r in range(NR):
        holding_start[r] = n
        for node in range(n_nodes):
            if node_ncards[node] >= 2 and node_counts[node][r] > 0:
                holding_nodes[n] = node
                n += 1
    holding_start[NR] = n
    return 0


build_holding()


cdef void batch_descendants(Ctx* c, int rank) noexcept nogil:
    """:func:`batch_stands` of every hand of two or more cards holding a card of rank
    index ``rank`` that the shoe can hold: a split hand from that card reaches almost all
    of them by hitting, and optimal play weighs standing at each hand it reaches (not
    all: a hand through a soft 21, such as A,T,T from A,T, or past a bonus 7-7-7, is
    never reached; it costs a dealer walk and nothing else)."""
    batch_stands(c, &holding_nodes[holding_start[rank]],
                 holding_start[rank + 1] - holding_start[rank])


cdef int check_cards(Ctx* c) except -1:
    """Raise if a dealer hand in this computation could have run out of cards."""
    if c.failed:
        raise MemoryError()
    if c.exhausted:
        raise _InputError("too few cards left for an exact answer: the dealer could run out"
                         " of cards")
    return 0


cdef void ctx_reset_values(Ctx* c) noexcept nogil:
    """Forget the play values (keep the stand values: they depend on the shoe only)."""
    memset(c.has_v, 0, 3 * n_nodes * sizeof(char))


cdef void ctx_free(Ctx* c) noexcept nogil:
    free(c.has_s)
    free(c.sn)
    free(c.tbuf)
    c.has_s = NULL
    c.sn = NULL
    c.tbuf = NULL


cdef inline int node_shoe(Ctx* c, int node, int* shoe) noexcept nogil:
    """Fill ``shoe`` with the cards left when the player holds ``node``; return their number.
    With replacement (an infinite deck) they are ``base``, whatever the node holds."""
    cdef int r, N = 0
    for r in range(NR):
        shoe[r] = c.base[r] - (0 if c.replace else node_counts[node][r])
        N += shoe[r]
    return N


cdef inline bint node_possible(Ctx* c, int node) noexcept nogil:
    """True when the shoe holds the node's cards and at least one more for the dealer."""
    cdef int r, N = 0
    for r in range(NR):
        if c.replace:  # (any number of a rank the shoe holds)
            if node_counts[node][r] > 0 and c.base[r] == 0:
                return False
            N += c.base[r]
            continue
        if node_counts[node][r] > c.base[r]:
            return False
        N += c.base[r] - node_counts[node][r]
    return N > 0


cdef inline double no_bj(int up, const int* shoe, int N) noexcept nogil:
    """P(dealer has no blackjack | up card, ``shoe`` with ``N`` cards left)."""
    cdef int hole
    if N <= 0:
        return 1.0
    hole = blackjack_hole(up)
    if hole < 0:
        return 1.0
    return 1.0 - <double>shoe[hole] / N


cdef void stand_from_row(Ctx* c, int node, const double* d, bint ahead=False) noexcept nogil:
    """Keep standing on ``node``'s sums from its dealer distribution ``d`` (unconditioned).

    ``ahead``: computed before the play asks for it (:func:`batch_stands`): a dealer who
    could run out of cards from there is noted on the node (``has_s`` 2) and raised only
    if the play stands on it (:func:`ensure_stand`), as without the batch."""
    cdef char done = 1
    if dealer_lost_mass(d):
        if ahead:
            done = 2
        else:
            c.exhausted = True
    c.sn[node] = stand_net(node_best[node], d)
    c.pbj[node] = d[OUT_BJ]
    c.has_s[node] = done


cdef void ensure_stand(Ctx* c, int node) noexcept nogil:
    cdef double d[NOUT]
    if c.has_s[node]:
        if c.has_s[node] == 2:  # (computed ahead from a shoe the dealer could run out of)
            c.exhausted = True
        return
    dealer_for(c, node, node_counts[node], d)
    stand_from_row(c, node, d)


cdef inline double stand_value(Ctx* c, int node, double bet) noexcept nogil:
    """Value of standing with ``node`` on a bet of ``bet`` (1, or 2 when doubled)."""
    ensure_stand(c, node)
    return stand_settlement(c.mode, bet, c.sn[node], c.pbj[node], c.bjl1, c.bjl2)


cdef inline double bust_value(Ctx* c, const int* shoe, int N, int r, double bet) noexcept nogil:
    """Value of busting with card ``r`` drawn from ``shoe`` (``N`` cards)."""
    cdef double nb
    cdef int hole
    if c.mode != 1:
        return -bet
    hole = blackjack_hole(c.up)
    if hole < 0:
        return -bet
    # peek exact: P(no dealer blackjack) from the shoe the bust card leaves
    if c.replace:
        return -bet * (1.0 - <double>shoe[hole] / N)
    nb = 1.0 - <double>(shoe[hole] - (r == hole)) / (N - 1) if N > 1 else 1.0
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
    if not by_policy:
        batch_children(c, node, shoe)
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


cdef inline int fixed_row(int n, const int* nodes, int node) noexcept nogil:
    """Index of the bonus row of any suits paid at ``node`` (of ``n`` rows), -1 if none."""
    cdef int e
    for e in range(n):
        if nodes[e] == node:
            return e
    return -1


cdef inline bint any_suit_bonus(Ctx* c, int node) noexcept nogil:
    """``node`` is a bonus hand of any suits: paid at once, then settled or standing."""
    return c.nfix > 0 and fixed_row(c.nfix, c.fix_node, node) >= 0


cdef inline double fixed_pay(double pay, int node, double b678, double q678) noexcept nogil:
    """What a hand of any suits paid ``pay`` at ``node`` gets: at the 6-7-8, the higher
    suited bonus ``b678`` when its cards are suited (chance ``q678``)."""
    if node == id_678 and b678 > pay and q678 > 0.0:
        return pay + q678 * (b678 - pay)
    return pay


cdef inline bint is_charlie(Ctx* c, int node) noexcept nogil:
    """The hand ``node`` is a Charlie (:func:`charlie_hand`): it wins its bet at once."""
    return charlie_hand(node_ncards[node], c.charlie)


cdef inline bint late_double(Ctx* c, int node) noexcept nogil:
    """The hand ``node`` may double after hitting (:func:`doubles_after_hit`)."""
    return doubles_after_hit(node_ncards[node], c.dah, c.dah_ok[node_best[node]] != 0)


cdef inline double with_678(Ctx* c, int node, double v) noexcept nogil:
    """``v`` with the suited 6-7-8 bonus mixed in (chance ``q678``) at that node: paid at
    once, and settled, or (``bonus_stands``) also standing as the 21 ``v`` values."""
    if node == id_678 and c.b678 > 0 and c.q678 > 0:
        if c.bonus_stands:
            return c.q678 * (c.b678 * settle_factor(c, node) + v) + (1.0 - c.q678) * v
        return c.q678 * c.b678 * settle_factor(c, node) + (1.0 - c.q678) * v
    return v


cdef inline double any_suit_value(Ctx* c, int node) noexcept nogil:
    """A bonus hand of any suits (:func:`any_suit_bonus`): its bonus paid at once, and settled,
    or (the row's ``stands``) also standing on its total."""
    cdef int e = fixed_row(c.nfix, c.fix_node, node)
    cdef double v = fixed_pay(c.fix_pay[e], node, c.b678, c.q678) * settle_factor(c, node)
    if c.fix_stand[e]:
        return v + stand_value(c, node, 1.0)
    return v


cdef double play_value(Ctx* c, int node) noexcept nogil:
    """Value of holding ``node`` and playing optimally by standing or hitting, or doubling
    where a hand of three or more cards may (:func:`late_double`; bonus included)."""
    cdef double s, h, v, d
    if c.has_v[node]:
        return c.val[node]
    if any_suit_bonus(c, node):
        v = any_suit_value(c, node)
    elif is_charlie(c, node):
        v = settle_factor(c, node)
    else:
        s = stand_value(c, node, 1.0)
        h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
        v = h if beats(h, s) else s
        if late_double(c, node):
            d = double_value(c, node, 2.0)
            if beats(d, v):
                v = d
        v = with_678(c, node, v)
        c.hv[node] = h
        c.has_h[node] = 1
    c.has_v[node] = 1
    c.val[node] = v
    return v


cdef double policy_value(Ctx* c, int node) noexcept nogil:
    """Value of holding ``node`` and hitting or standing as ``c.policy`` says for its total
    (bit 1: hit), or as ``c.codes`` say for the node (CODE_HIT); a hand of three or more
    cards doubles where it may (:func:`late_double`) and its policy has bit 2 (its code
    CODE_DOUBLE). With ``c.err`` (a play-error rate) a hand below 21 takes the other of
    hit and stand with that chance: the value is the mixture of the two."""
    cdef double v
    if c.has_t[node]:
        return c.valt[node]
    if any_suit_bonus(c, node):
        v = any_suit_value(c, node)
    elif is_charlie(c, node):
        v = settle_factor(c, node)
    elif late_double(c, node) and (
            (c.codes[node] & CODE_DOUBLE) if c.codes != NULL else c.policy[node_class[node]] & 2):
        v = double_value(c, node, 2.0)
    elif c.err > 0.0 and node_best[node] < 21:  # a play error: the other play, chance err
        if (c.codes[node] & CODE_HIT) if c.codes != NULL else c.policy[node_class[node]] & 1:
            v = (1.0 - c.err) * hit_value(c, node, True) + c.err * stand_value(c, node, 1.0)
        else:
            v = (1.0 - c.err) * stand_value(c, node, 1.0) + c.err * hit_value(c, node, True)
        v = with_678(c, node, v)
    elif node_best[node] < 21 and (
            (c.codes[node] & CODE_HIT) if c.codes != NULL else c.policy[node_class[node]] & 1):
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
    batch_children(c, node, shoe)
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
    code[0] = 2 if beats(h, s) else 4
    if may_double and beats(d, v):
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
    if chart_two == NULL:  # (nearly) every hand it can hold is reached and weighed standing
        if pair == 0 and aces_one_card:
            batch_children(c, n1, shoe)
        else:
            batch_descendants(c, pair)
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
                    if beats(d, v):
                        v = d
        else:
            code = chart_two[ch]
            if may_double and code & CODE_DOUBLE:
                v = double_value(c, ch)
            elif code & CODE_HIT and node_best[ch] < 21 and not any_suit_bonus(c, ch):
                v = with_678(c, ch, hit_value(c, ch, True))
            elif code & CODE_STAND:
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
        codes[node] = CODE_HIT if beats(h, s) else CODE_STAND
        if (node_ncards[node] == 2 and das and double_ok[node_best[node]]) \
                or late_double(c, node):
            d = double_value(c, node, 2.0)
            if beats(d, h if beats(h, s) else s):
                codes[node] |= CODE_DOUBLE


cdef int check_hand(const int[:] hand, const int[:] base, bint replace=False) except -1:
    cdef int r
    if hand is None or hand.shape[0] != NR:
        raise ValueError("a hand has 10 rank counts")
    for r in range(NR):
        if hand[r] < 0 or (hand[r] > base[r] and not (replace and base[r] > 0)):
            raise _InputError("the hand holds cards the shoe does not")
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
    check_hand(hand, base, P.replace)
    if policy is not None and policy.shape[0] < NCLASS:
        raise ValueError("policy needs 64 classes")
    node = node_of(&hand[0])
    if node < 0:
        raise _InputError("the hand is bust")
    ctx_init(&c, &base[0], up, &P, False, NULL)
    try:
        N = node_shoe(&c, node, shoe)
        if N < 1:
            raise _InputError("no cards left for the dealer")
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
        raise _InputError("the shoe does not hold the pair")
    return 0


cdef int split_rows(Ctx* c, const int* base, int p, const Params* P, int max_extra,
                    const char* chart, char* frozen, double* res, int columns,
                    int frozen_at) except -1:
    """Fill ``res`` (6 per row, rows 0..max_extra) for one loss setting; see split_tables.

    ``columns``: bit 1 the optimal pair, bit 2 the chart pair, bit 4 the chart without
    double after split (the others stay NaN). The optimal rows play the decisions that
    are best with ``frozen_at`` extra pair cards gone (rows below it stay NaN); with
    ``frozen_at`` -1 every row plays its own best decisions."""
    cdef int r, a
    cdef int b2[NR]
    for a in range(max_extra + 1):
        for r in range(6):
            res[a * 6 + r] = float("nan")
        for r in range(NR):  # (with replacement: every row's shoe is ``base``)
            b2[r] = base[r] - (0 if P.replace else (r == p) * (1 + a))
            c.base[r] = b2[r]
            c.offset[r] = 0 if P.replace else (r == p) * (1 + a)
        c.shift_rank = p
        c.shift_count = 1 + a
        if b2[p] < 1:
            break
        ctx_forget(c)
        c.codes = NULL
        with nogil:
            if frozen_at < 0 and columns & SPLIT_OPTIMAL:  # each row its own best play
                res[a * 6] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card, NULL,
                                        &res[a * 6 + 1])
            elif a == frozen_at and columns & SPLIT_OPTIMAL:  # (the chart's rows need no optimal play)
                res[a * 6] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card, NULL,
                                        &res[a * 6 + 1])
                if max_extra > 0:
                    record_codes(c, p, P.double_ok, P.das, frozen)
            elif a > frozen_at and columns & SPLIT_OPTIMAL:
                c.codes = frozen
                res[a * 6] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card, frozen,
                                        &res[a * 6 + 1])
            if chart != NULL and columns & (SPLIT_CHART | SPLIT_CHART_NODAS):
                ctx_reset_values(c)
                c.codes = chart
                if columns & SPLIT_CHART:
                    res[a * 6 + 2] = split_hand(c, p, P.double_ok, P.das, P.aces_one_card,
                                                chart, &res[a * 6 + 3])
                if columns & SPLIT_CHART_NODAS:
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
    gone (0: cdp1; each resplit count its own: cdp-hands), frozen for the rows above
    it; the optimal rows below it are NaN; -1: every row plays the decisions best for its
    own removal, nothing frozen (``cdp``, the field's CDP). ``lazy``: the pair is split against a few up
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
    if frozen_at < -1 or frozen_at > max_extra:
        raise ValueError("frozen_at is -1..max_extra")
    if chart_codes is not None:
        chart = &chart_codes[0]
    for r in range(NR):
        b[r] = base[r]
    hands = 2 if P.mode == 0 and (P.bjl1 != P.bjl1_second or P.bjl2 != P.bjl2_second) else 1
    m = memo_acquire(None if P.replace else memo, b, up, P.drule)
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
                if b[p] - (1 + a) < 1 and not P.replace:
                    break
                rows.append(tuple([res[a * 6 + r] for r in range(6)]))
            tables.append(rows)
    finally:
        memo_release(m)
        free(res)
        free(frozen)
    return tables[0], tables[len(tables) - 1]
