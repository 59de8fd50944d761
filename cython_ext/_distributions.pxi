# Outcome distributions of one hand: its terms (stand, bust, bonus), their
# moments and settlement.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

# ------------------------------------------------------- outcome distributions
cdef struct Term:
    int node       # the hand's cards (for a bust: before the busting card)
    int extra      # rank index of the busting card, or -1
    int kind       # T_STAND, T_BUST, T_BONUS, T_BONUS_STAND
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


cdef bint wants_double(Ctx* c, int node, const char* codes) noexcept nogil:
    """A hand of three or more cards that may double (:func:`late_double`) doubles: by
    ``codes`` (CODE_DOUBLE) or, without them, where doubling beats both standing and
    hitting (as :func:`play_value` decides)."""
    cdef double s, h
    if not late_double(c, node):
        return False
    if codes != NULL:
        return (codes[node] & CODE_DOUBLE) != 0
    s = stand_value(c, node, 1.0)
    h = hit_value(c, node, False) if node_best[node] < 21 else -1e300
    return beats(double_value(c, node, 2.0), h if beats(h, s) else s)


cdef bint wants_hit(Ctx* c, int node, const char* codes) noexcept nogil:
    """The fixed policy (``codes``) or, without one, the optimal stand/hit choice at ``node``."""
    if node_best[node] >= 21:
        return False
    if codes != NULL:
        return (codes[node] & CODE_HIT) != 0
    return beats(hit_value(c, node, False), stand_value(c, node, 1.0))


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


cdef inline int bonus_kind(const Ctx* c) noexcept nogil:
    """The term of a bonus hand: paid at once and settled (T_BONUS), or also standing as a
    21 against the dealer (T_BONUS_STAND, ``bonus_stands``)."""
    return T_BONUS_STAND if c.bonus_stands else T_BONUS


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
                if code & CODE_DOUBLE or ch < 0:
                    n = add_last_card(out, n, cap, node, x, 2.0 if code & CODE_DOUBLE else 1.0, p)
                    term_moments(c, out, n, tmp)
                elif ch == id_678 and q > 0.0:
                    n = add_term(out, n, cap, ch, -1, bonus_kind(c), 1.0, c.b678, p * q)
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
                   int cap, double* mass, int only_first=-1) noexcept nogil:
    """Where a hand ends, by probability: every terminal state after hitting ``start``.

    ``start`` (mass ``m0``) takes a card; from then on the hand hits or stands
    by ``codes`` (per node, bit 2 = hit) or, with no codes, optimally. Draw
    probabilities come from ``c.base`` less the node's cards. With
    ``first_two`` (``start`` is a one-card split hand) the two-card decision
    follows ``codes`` (bit 1 double, 2 hit, 4 stand) or the optimal choice.
    Returns the number of terminals written (-1 if more than ``cap``).
    With ``c.mom`` set, each terminal also gets its moments (see ``Ctx.mom``).
    ``only_first`` (a rank index, or -1): only the paths whose first card drawn at
    ``start`` is of that rank (their probability, not renormalised).
    """
    cdef int shoe[NR]
    cdef int node, r, ch, N, n = 0, code, e
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
        # a Charlie wins its bet at once; the bonuses settle a three-card hand at once
        if node != start and is_charlie(c, node):
            n = add_term(out, n, cap, node, -1, T_BONUS, 1.0, 1.0, m)
            if n < 0:
                return -1
            term_moments(c, out, n, M)
            continue
        if any_suit_bonus(c, node):  # a row of any suits (at the 6-7-8: the suited bonus first)
            e = fixed_row(c.nfix, c.fix_node, node)
            if node == id_678 and c.b678 > 0 and c.q678 > 0 and not suited:
                n = add_term(out, n, cap, node, -1, bonus_kind(c), 1.0, c.b678, m * c.q678)
                if n < 0:
                    return -1
                if M != NULL:
                    bonus_moments(c, out, n, m * c.q678, M)
                m *= 1.0 - c.q678
            n = add_term(out, n, cap, node, -1, T_BONUS_STAND if c.fix_stand[e] else T_BONUS,
                         1.0, c.fix_pay[e], m)
            if n < 0:
                return -1
            term_moments(c, out, n, M)
            continue
        if node == id_678 and c.b678 > 0 and c.q678 > 0 and not suited:  # (suited: settled)
            n = add_term(out, n, cap, node, -1, bonus_kind(c), 1.0, c.b678, m * c.q678)
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
                v = h if beats(h, s) else s
                code = 2 if beats(h, s) else 4
                if das and double_ok[node_best[node]] and beats(double_value(c, node, 2.0), v):
                    code |= 1
            doubled = das and double_ok[node_best[node]] and (code & CODE_DOUBLE) != 0
            if not doubled and not (code & CODE_HIT and node_best[node] < 21):
                code = 4
        elif node == start:
            code = 2  # the hand was hit (or is a split hand taking its second card)
        elif wants_double(c, node, codes):
            doubled = True
            code = 1
        else:
            code = 2 if wants_hit(c, node, codes) else 4
        if c.err > 0.0 and node != start and not doubled and node_best[node] < 21 \
                and not (first_two and node_ncards[node] == 2 and node_ncards[start] == 1):
            # a play error (policy_value's): the other of hit and stand, chance err
            q = c.err if code == 2 else 1.0 - c.err  # the share that stands
            n = add_term(out, n, cap, node, -1, T_STAND, 1.0, 0.0, m * q)
            if n < 0:
                return -1
            if M != NULL:  # (split hands play without errors: no moments to scale)
                return -1
            m *= 1.0 - q
            code = 2
        elif code == 4 and not doubled:
            n = add_term(out, n, cap, node, -1, T_STAND, 1.0, 0.0, m)
            if n < 0:
                return -1
            term_moments(c, out, n, M)
            continue
        N = node_shoe(c, node, shoe)
        for r in range(NR):
            if shoe[r] <= 0 or (only_first >= 0 and node == start and r != only_first):
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


cdef inline bint term_stands(const Term* t) noexcept nogil:
    """Whether the terminal hand ``t`` is settled against the dealer (it stands)."""
    return t.kind == T_STAND or t.kind == T_BONUS_STAND


cdef inline double term_result(const Term* t, int outcome, double bjl1, double bjl2) noexcept nogil:
    """Net result of a terminal hand against dealer outcome 0..4 (17..21), 5 bust, 6 blackjack
    (a standing hand's: :func:`stand_result`, :func:`blackjack_loss`)."""
    if t.kind == T_BUST:
        return -t.bet
    if t.kind == T_BONUS:
        return t.value
    if t.kind == T_BONUS_STAND:  # the bonus paid, then its bet stands as a 21
        if outcome == OUT_BJ:
            return t.value - blackjack_loss(t.bet, bjl1, bjl2)
        return t.value + stand_result(node_best[t.node], outcome) * t.bet
    if outcome == OUT_BJ:
        return -blackjack_loss(t.bet, bjl1, bjl2)
    return stand_result(node_best[t.node], outcome) * t.bet


cdef inline void counted_outcomes(int mode, double* d) noexcept nogil:
    """Keep in ``d`` (NOUT entries, one a dealer outcome: his distribution, or results
    against each outcome) the outcomes a raw value counts: all of them without a hole-card
    check (ENHC), else all but his blackjack (its entry made 0)."""
    if mode != 0:
        d[OUT_BJ] = 0.0


cdef inline void counted_dealer(Ctx* c, const int* removed, double* d) noexcept nogil:
    """The dealer distribution when ``removed`` leaves ``c.base`` (:func:`dealer_for`), its
    outcomes as a raw value counts them (:func:`counted_outcomes`)."""
    dealer_for(c, -1, removed, d)
    counted_outcomes(c.mode, d)


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
        shoe[r] = c.base[r] - (0 if c.replace else removed[r])  # (replacement: none gone)
        N += shoe[r]
    if not term_stands(ta) and (tb == NULL or not term_stands(tb)):
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
    if dealer_lost_mass(d):
        c.exhausted = True
    counted_outcomes(c.mode, d)
    for o in range(NOUT):
        if d[o] == 0.0:
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
    for r in range(NR):  # (with replacement: ``base``, no card gone)
        cb.base[r] = base[r] - (0 if cb.replace else node_counts[t.node][r] + (t.extra == r))
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
    for r in range(NR):  # (with replacement: ``base``, no card gone)
        b1[r] = base[r] - (0 if P.replace else (r == p))
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
