# The whole-game pass: every player node against one up card (up_card_pass),
# and the node classes a total-dependent policy is keyed by.
#
# Included into _engine.pyx (one compiled module: see its docstring); the constants
# shared with the other files and with Python are declared once in _engine.pxd.

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


cdef inline int row_columns(const char* want, bint fixed_policy, int node) noexcept nogil:
    """The columns :func:`up_card_pass` fills for ``node``: ROW_ALL unless a fixed policy's
    ``wanted`` flag names some (the caller has checked that the row is wanted)."""
    if want == NULL or not fixed_policy or want[node] & ROW_ALL:
        return ROW_ALL
    return want[node]


def up_card_pass(const int[:] base, int up, params, double[:, ::1] out, char[:] policy,
                 bint fixed_policy=False, DealerMemo memo=None, const char[:] wanted=None,
                 bint optimal=True, bint chart=True):
    """Every player hand against one up card, in one pass.

    ``base``: the shoe minus the up card (and known cards). For every node with
    at least two cards that the shoe can hold, ``out[node]`` gets the columns
    of :data:`strategy_calc.engine.PASS_COLUMNS`: ``(stand, optimal, double,
    policy, weight, no_blackjack, hit, policy_hit)``: stand value, optimal
    stand/hit value, double value, value under the total-dependent hit/stand
    policy, the node's probability as a draw from ``base`` (all orders),
    P(no blackjack) with its cards gone, the optimal value of hitting, and the
    value of hitting then following the policy (the stand value at 21); rows
    of impossible nodes are NaN. Bonus nodes (a row of any suits, the suited 6-7-8 with
    chance ``q678``) are settled at once (or stand), and so is a Charlie (``charlie_cards``:
    its stand, optimal, policy and policy_hit values are what it wins at once; it is no
    decision, so the total-dependent sums leave it out; so do a bonus row's below 21). ``policy[class]`` is set to 1 where hitting
    beats standing summed over every composition of that total, weighted by
    ``weight`` (the total-dependent strategy); under double_after_hit bit 2 is added where
    doubling beats that play summed over the compositions of three or more cards of the
    total that may double (they double; two-card hands decide by the chart's cells), and
    ``double`` is filled for them in optimal play alone too; with ``fixed_policy`` the given
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
    ``chart`` False (optimal play alone): the columns ``policy`` and ``policy_hit``, and
    ``double`` but for two-card hands, are left NaN and ``policy`` is not derived (left all
    0); without ``fixed_policy`` only.
    """
    cdef Params P
    cdef Ctx c
    cdef int i, j, k, q, node, r, N
    cdef const char* want = NULL
    cdef int shoe[NR]
    cdef double w, fall, sum_s, sum_h, s, h, late_d, late_s, late_h
    cdef bint late
    cdef double nan = float("nan")
    cdef char* pol
    cdef int cols
    cdef DMemo* m = NULL
    read_params(params, &P)
    check_shoe(base)
    check_up(up)
    if out.shape[0] != n_nodes or out.shape[1] != PASS_WIDTH:
        raise ValueError(f"out needs {n_nodes} x {<int>PASS_WIDTH}")
    if policy.shape[0] != NCLASS:
        raise ValueError("policy needs 64 entries")
    if not chart and (fixed_policy or not optimal):
        raise ValueError("chart=False values optimal play alone (no fixed policy)")
    if wanted is not None:
        if wanted.shape[0] != n_nodes:
            raise ValueError(f"wanted needs one flag per player node ({n_nodes})")
        want = &wanted[0]
    pol = &policy[0]
    m = memo_acquire(None if P.replace else memo, &base[0], up, P.drule)
    try:
        ctx_init(&c, &base[0], up, &P, False, m)
        c.policy = pol
        try:
            with nogil:
                if not fixed_policy:
                    memset(pol, 0, NCLASS)
                for node in range(n_nodes):
                    for j in range(PASS_WIDTH):
                        out[node, j] = nan
                for i in range(n_class_order):
                    k = class_order[i]
                    sum_s = 0.0
                    sum_h = 0.0
                    late_d = late_s = late_h = 0.0  # three or more cards that may double
                    late = False
                    if want == NULL:  # (every possible node of the class stands first)
                        batch_stands(&c, &class_nodes[class_start[k]],
                                     class_start[k + 1] - class_start[k])
                    for q in range(class_start[k], class_start[k + 1]):
                        node = class_nodes[q]
                        if fixed_policy and want != NULL and not want[node]:
                            continue
                        if not node_possible(&c, node):
                            continue
                        N = node_shoe(&c, node, shoe)
                        w = node_orders[node]
                        fall = 1.0
                        for r in range(NR):  # (with replacement, powers: no card is gone)
                            for j in range(node_counts[node][r]):
                                w *= c.base[r] - (0 if c.replace else j)
                        for j in range(node_ncards[node]):
                            fall *= N if c.replace else (N + node_ncards[node]) - j
                        w /= fall
                        cols = row_columns(want, fixed_policy, node)
                        s = h = nan
                        if is_charlie(&c, node):  # no decision: it wins at once, and
                            s = h = settle_factor(&c, node)  # the total's play ignores it
                        elif node_best[node] < 21 and any_suit_bonus(&c, node):  # (likewise: a
                            s = h = any_suit_value(&c, node)  # bonus row below 21, paid at once)
                        else:
                            if cols & (ROW_ALL | ROW_STAND) or (
                                    cols & ROW_POLICY_HIT and node_best[node] >= 21):
                                s = stand_value(&c, node, 1.0)
                            if chart and cols & (ROW_ALL | ROW_POLICY_HIT):
                                h = hit_value(&c, node, True) if node_best[node] < 21 else s
                            sum_s += w * s
                            sum_h += w * h
                            if chart and not fixed_policy and late_double(&c, node):
                                late = True
                                late_d += w * double_value(&c, node)
                                late_s += w * s
                                late_h += w * h
                        if want != NULL and not want[node]:
                            continue
                        if cols & (ROW_ALL | ROW_STAND):  # (else a 21's stand, only for h)
                            out[node, <int>COL_STAND] = s
                        out[node, <int>COL_POLICY_HIT] = h
                        out[node, <int>COL_WEIGHT] = w
                        out[node, <int>COL_NO_BLACKJACK] = no_bj(up, shoe, N)
                    if not chart:
                        continue
                    if not fixed_policy:
                        pol[k] = 1 if beats(sum_h, sum_s) else 0
                        if late and beats(late_d, late_h if pol[k] else late_s):
                            pol[k] |= 2
                    for q in range(class_start[k], class_start[k + 1]):
                        node = class_nodes[q]
                        if out[node, <int>COL_WEIGHT] == out[node, <int>COL_WEIGHT] and \
                                row_columns(want, fixed_policy, node) & ROW_ALL:
                            out[node, <int>COL_POLICY] = policy_value(&c, node)
                for node in range(n_nodes):
                    if out[node, <int>COL_WEIGHT] != out[node, <int>COL_WEIGHT]:
                        continue
                    cols = row_columns(want, fixed_policy, node)
                    if cols & (ROW_ALL | ROW_DOUBLE) and (
                            chart or node_ncards[node] == 2 or late_double(&c, node)):
                        out[node, <int>COL_DOUBLE] = double_value(&c, node)
                    if optimal and cols & ROW_ALL:
                        out[node, <int>COL_OPTIMAL] = play_value(&c, node)
                        if node_best[node] >= 21 or is_charlie(&c, node) or any_suit_bonus(&c, node):
                            out[node, <int>COL_HIT] = -1e300
                        elif c.has_h[node]:  # (the same sum play_value made)
                            out[node, <int>COL_HIT] = c.hv[node]
                        else:
                            out[node, <int>COL_HIT] = hit_value(&c, node, False)
            check_cards(&c)
        finally:
            ctx_free(&c)
    finally:
        memo_release(m)


# ------------------------------------------------- a chart-played round's EV
cdef enum:
    START_NONE = 0       # the play has no value here (the rules do not allow it)
    START_NATURAL = 1
    START_STAND = 2
    START_HIT = 3        # hit, then the chart's play (below 21)
    START_HIT_21 = 4     # hit on 21: -inf
    START_DOUBLE = 5
    START_SURRENDER = 6
    START_SPLIT = 7      # START_SPLIT + p - 1: the split of the pair of rank p

START_CODES = (START_NONE, START_NATURAL, START_STAND, START_HIT, START_HIT_21, START_DOUBLE,
               START_SURRENDER, START_SPLIT)
"""The kinds of :func:`chart_round_sum`, in the order of their names above."""


def chart_round_sum(double ev, const double[::1] values, const int[::1] at,
                    const signed char[::1] kind, const double[::1] splits, double p_up,
                    bint peek_exact, const double[::1] surrendered,
                    const double[::1] natural, unsigned char[::1] dealt):
    """``ev`` plus one up card's part of a chart-played round's EV, each start's value
    made from ``values`` (an up-card pass's rows, PASS_WIDTH doubles a node) by the
    expressions of :func:`strategy_calc.blackjack.deals.start_value` and
    :func:`~strategy_calc.blackjack.deals.natural_results` (the same IEEE operations in the
    same order: the same double as the Python sum), in the order of the starts.

    Start ``i``'s row begins at ``values[at[i]]``; ``kind[i]`` is the value its play takes
    (START_* above; START_SPLIT + p - 1: ``splits[p - 1]``, the pair's chart-played
    split). ``dealt[i]`` is set to whether the shoe deals start ``i`` (its weight > 0).
    ``peek_exact``: raw values exclude a dealer blackjack (the adjustment
    -(1 - P(no blackjack)) is added). The values the rules' own functions make, here
    taken as given: ``surrendered[i]``, a surrendered start's value
    (:func:`~strategy_calc.blackjack.deals.surrender_value`; read for START_SURRENDER
    only), and ``natural``, the natural's ``(net, probability)`` pairs one after the
    other (:func:`~strategy_calc.blackjack.deals.natural_results`). Returns ``(ev, i)``: ``i`` -1, or the first start whose value is missing or NaN
    (``ev`` then the sum before it)."""
    cdef Py_ssize_t i, bad = -1, n = at.shape[0]
    cdef int k
    cdef long a
    cdef double w, nb, w_hand, adj, v
    cdef Py_ssize_t j, nat = natural.shape[0]
    if (kind.shape[0] != n or dealt.shape[0] != n or surrendered.shape[0] != n
            or splits.shape[0] != NR or nat % 2 != 0):
        raise ValueError("chart_round_sum takes one kind, surrender value and flag per"
                         " start, ten splits and (net, probability) pairs")
    for i in range(n):
        a = at[i]
        if a < 0 or a + PASS_WIDTH > values.shape[0]:
            raise ValueError("a start's row is outside the pass")
    with nogil:
        for i in range(n):
            a = at[i]
            w = values[a + COL_WEIGHT]
            if not w > 0:  # (NaN: the shoe cannot deal it)
                dealt[i] = 0
                continue
            dealt[i] = 1
            nb = values[a + COL_NO_BLACKJACK]
            w_hand = p_up * w
            k = kind[i]
            if k == START_NATURAL:
                for j in range(0, nat, 2):
                    ev += w_hand * natural[j + 1] * natural[j]
                continue
            adj = -(1.0 - nb) if peek_exact else 0.0
            if k == START_STAND:
                v = values[a + COL_STAND] + adj
            elif k == START_HIT:
                v = values[a + COL_POLICY_HIT] + adj
            elif k == START_HIT_21:
                v = -INFINITY
            elif k == START_DOUBLE:
                v = values[a + COL_DOUBLE] + adj
            elif k == START_SURRENDER:
                v = surrendered[i]
            elif START_SPLIT <= k < START_SPLIT + NR:
                v = splits[k - START_SPLIT]
            else:
                v = NAN
            if v != v:
                bad = i
                break
            ev += w_hand * v
    return ev, bad
