# Dealing a counted shoe by a chart, fast: the rounds of one shuffled shoe played out in
# casino order as a fixed plan (a chart's first decisions and node codes) says, each
# round's running count and unseen ranks recorded before it is dealt. This is what
# ``count --method stratified`` surveys (millions of rounds, no values), and what a
# counted run's chart play deals (strategy_calc/blackjack/playout.py plays the same
# rounds card by card in Python: its reference, and the only path for split hands that
# play their own decisions; tests/counting/test_chart_deal.py checks the two round by
# round). The rules of play read here are those of _rules.pxi (best_total,
# dealer_draws, charlie_hand); the plan's decisions come precomputed from Python
# (strategy_calc.counting.chart_deal), so no decision rule is written here.

cdef enum:
    ACT_HIT = 0        # (no first decision recorded: hit, then play on by the codes)
    ACT_STAND = 1
    ACT_DOUBLE = 2
    ACT_SPLIT = 3
    ACT_SURRENDER = 4
    MAX_SPLIT_QUEUE = 16


cdef struct ChartPlan:
    signed char act[NR][NR][NR][2]   # [up][low][high][suited]: the first decision (ACT_*)
    bint even_money[NR]               # [up]: a blackjack takes even money
    bint insure[NR]                   # [up]: insurance is taken
    const char* codes[NR]             # [up]: node codes (2 hit, 4 stand, 1 double)
    int split_hands[NR]               # [pair]: most hands a split makes
    bint split_one_card[NR]           # [pair]: each split hand takes one card
    bint split_double[NR]             # [pair]: its hands may double on two cards
    bint double_two[2][NTOTALS]       # [unused][total]: two-card doubles by double_on
    bint double_more[2][NTOTALS]      # [split][total]: doubles of 3+ cards (double_after_hit)
    bint peek                         # the hole card dealt at once and checked
    bint hole_at_once                 # ... dealt at once (peek, or one deck's no hole card)
    bint burn_dealer                  # burn_before_dealer_cards
    bint h17
    int charlie
    const char* bonus_any[2]          # [split][node]: a bonus row of any suits pays the
                                      # hand: 1 settled, 2 then standing (0: none)
    int bonus_678                     # the suited 6-7-8 pays: bit 1 a hand, bit 2 a split hand
    bint bonus_settles                # ... and is settled (else it stands)
    int seats


cdef struct Dealing:
    const signed char* rank     # 1..10 per card, dealing order
    const signed char* suit     # 0..3
    int n
    int pos


cdef inline int take(Dealing* d) noexcept nogil:
    """The next card's position, or -1: the shoe ran out (the round is not dealt)."""
    if d.pos >= d.n:
        return -1
    d.pos += 1
    return d.pos - 1


cdef inline int burn(const ChartPlan* P, Dealing* d, int* burnt, int* nburnt) noexcept nogil:
    """burn_before_dealer_cards: one card face down (unseen); 0, or -1 when none is left."""
    if P.burn_dealer:
        if d.pos >= d.n:
            return -1
        burnt[nburnt[0]] = d.pos
        nburnt[0] += 1
        d.pos += 1
    return 0


cdef inline int bonus_paid(const ChartPlan* P, const Dealing* d, const int* held, int k,
                           int node, bint split) noexcept nogil:
    """A bonus hand the rules pay at once (``node``: its cards): 0 none, 1 paid and
    settled, 2 paid and standing. A row of any suits first (at the 6-7-8 it pays the
    suited bonus too: the suited row pays more, the rules check)."""
    cdef int f
    if k < 3 or node < 0:
        return 0
    if k == 3 and node == id_678 and P.bonus_678 & (2 if split else 1) \
            and d.suit[held[0]] == d.suit[held[1]] == d.suit[held[2]]:
        return 1 if P.bonus_settles else 2
    return P.bonus_any[1 if split else 0][node]


cdef int play_hand(const ChartPlan* P, Dealing* d, int* held, int k, const char* codes,
                   int pair) noexcept nogil:
    """Play ``held`` (``k`` card positions; ``pair`` >= 0: a split hand of that rank index)
    on by the node codes: 1 if it is left for the dealer to settle, 0 if not, -1 if the
    shoe ran out."""
    cdef int hard = 0, node = 0, total, code, c, i
    cdef bint ace = False, split = pair >= 0
    for i in range(k):
        hard += d.rank[held[i]]
        ace = ace or d.rank[held[i]] == 1
        if node >= 0:
            node = node_child[node][d.rank[held[i]] - 1]
    while True:
        total = best_total(hard, ace)
        if total > 21 or charlie_hand(k, P.charlie):
            return 0
        code = bonus_paid(P, d, held, k, node, split)
        if code:  # (played on: the hand left standing)
            return code - 1
        code = codes[node]
        if k > 2 and code & 1 and P.double_more[split][total]:
            c = take(d)
            if c < 0:
                return -1
            return 1 if best_total(hard + d.rank[c], ace or d.rank[c] == 1) <= 21 else 0
        if total == 21:
            return 1
        if split and k == 2 and code & 1 and P.split_double[pair] and P.double_two[0][total]:
            c = take(d)
            if c < 0:
                return -1
            return 1 if best_total(hard + d.rank[c], ace or d.rank[c] == 1) <= 21 else 0
        if not code & 2:
            return 1
        c = take(d)
        if c < 0:
            return -1
        if k < 21:
            held[k] = c
        k += 1
        hard += d.rank[c]
        ace = ace or d.rank[c] == 1
        node = node_child[node][d.rank[c] - 1] if hard <= 21 else -1


cdef int play_box(const ChartPlan* P, Dealing* d, int first, int second, int up,
                  bint hole_late, int* needs_hole) noexcept nogil:
    """Play one box (cards at ``first``, ``second``; ``up`` 1..10): 1 if a hand is left for
    the dealer, 0 if not, -1 if the shoe ran out; ``needs_hole`` set when the box needs
    the dealer's late second card (a live hand, insurance, a blackjack he could push)."""
    cdef int p1 = d.rank[first], p2 = d.rank[second]
    cdef int lo = p1 if p1 < p2 else p2, hi = p2 if p1 < p2 else p1
    cdef int action, live = 0, r, c, nh, j, k, own
    cdef int held[24]
    cdef int hands[MAX_SPLIT_QUEUE]
    cdef bint insured
    cdef const char* codes = P.codes[up - 1]
    if lo == 1 and hi == 10:
        needs_hole[0] = needs_hole[0] or (hole_late and (up == 1 or up == 10)
                                          and not P.even_money[up - 1])
        return 0
    action = P.act[up - 1][lo - 1][hi - 1][d.suit[first] == d.suit[second]]
    insured = hole_late and P.insure[up - 1]
    if action == ACT_SURRENDER:
        needs_hole[0] = needs_hole[0] or insured
        return 0
    if action == ACT_DOUBLE:
        c = take(d)
        if c < 0:
            return -1
        live = 1 if best_total(p1 + p2 + d.rank[c], p1 == 1 or p2 == 1 or d.rank[c] == 1) <= 21 else 0
    elif action == ACT_SPLIT:
        # hands in queue order (each its own card); a pair card drawn as a second card
        # starts another hand while fewer than the most allowed exist, and the hand
        # draws again
        hands[0] = first
        hands[1] = second
        nh = 2
        j = 0
        while j < nh:
            own = hands[j]
            c = take(d)
            if c < 0:
                return -1
            while d.rank[c] == p1 and nh < P.split_hands[p1 - 1] and nh < MAX_SPLIT_QUEUE:
                hands[nh] = c
                nh += 1
                c = take(d)
                if c < 0:
                    return -1
            j += 1
            if P.split_one_card[p1 - 1]:
                live = 1
                continue
            held[0] = own
            held[1] = c
            r = play_hand(P, d, held, 2, codes, p1 - 1)
            if r < 0:
                return -1
            live = live | r
    elif action == ACT_STAND:
        live = 1
    else:
        c = take(d)
        if c < 0:
            return -1
        held[0] = first
        held[1] = second
        held[2] = c
        live = play_hand(P, d, held, 3, codes, -1)
        if live < 0:
            return -1
    needs_hole[0] = needs_hole[0] or live or insured
    return live


cdef int deal_round(const ChartPlan* P, Dealing* d, int* burnt, int* nburnt) noexcept nogil:
    """Deal one round from ``d.pos`` (strategy_calc/blackjack/playout.py's play_round for a
    chart's plan): 0, or -1 when the shoe ran out mid-round; ``burnt``: the positions
    burnt face down (``nburnt`` of them)."""
    cdef int s, up_at, up, hole = -1, c, r, live = 0, needs_hole = 0, hard
    cdef bint ace
    cdef int seats = P.seats
    if d.pos + 2 * seats + 1 > d.n:
        return -1
    up_at = d.pos + seats
    d.pos += 2 * seats + 1
    up = d.rank[up_at]
    if P.hole_at_once:
        if burn(P, d, burnt, nburnt) < 0:
            return -1
        c = take(d)
        if c < 0:
            return -1
        hole = d.rank[c]
    if P.peek and ((up == 1 and hole == 10) or (up == 10 and hole == 1)):
        return 0
    for s in range(seats):
        r = play_box(P, d, up_at - seats + s, up_at + 1 + s, up, hole < 0, &needs_hole)
        if r < 0:
            return -1
        live = live | r
    if hole < 0 and needs_hole:
        if burn(P, d, burnt, nburnt) < 0:
            return -1
        c = take(d)
        if c < 0:
            return -1
        hole = d.rank[c]
    if live and not ((up == 1 and hole == 10) or (up == 10 and hole == 1)):
        hard = up + hole
        ace = up == 1 or hole == 1
        if dealer_draws(hard, ace, P.h17):
            if burn(P, d, burnt, nburnt) < 0:
                return -1
        while dealer_draws(hard, ace, P.h17):
            c = take(d)
            if c < 0:
                return -1
            hard += d.rank[c]
            ace = ace or d.rank[c] == 1
    return 0


cdef class ChartDeal:
    """A chart's plan for dealing rounds fast (made by
    :func:`strategy_calc.counting.chart_deal.chart_deal`; immutable once made)."""
    cdef ChartPlan plan
    cdef object keep  # the node codes' bytes the plan points into

    def __init__(self, const signed char[:, :, :, ::1] actions, even_money, insure, codes,
                 split_hands, split_one_card, split_double, double_two, double_more,
                 bint peek, bint hole_at_once, bint burn_dealer, bint h17, int charlie,
                 bonus_any, int bonus_678, bint bonus_settles, int seats):
        cdef int u, a, b, s, t
        cdef bytes one
        if actions.shape[0] != NR or actions.shape[1] != NR or actions.shape[2] != NR \
                or actions.shape[3] != 2:
            raise ValueError("actions is [up][low][high][suited], 10x10x10x2")
        if len(codes) != NR or any(len(c) < MAXN for c in codes):
            raise ValueError("codes: one node-code string of MAXN per up card")
        if seats < 1 or seats > 7:
            raise ValueError("seats is 1..7")
        memset(&self.plan, 0, sizeof(ChartPlan))
        for u in range(NR):
            for a in range(NR):
                for b in range(NR):
                    for s in range(2):
                        self.plan.act[u][a][b][s] = actions[u, a, b, s]
            self.plan.even_money[u] = even_money[u]
            self.plan.insure[u] = insure[u]
            if not 1 <= split_hands[u] <= MAX_SPLIT_QUEUE:
                raise ValueError("split_hands is 1..16")
            self.plan.split_hands[u] = split_hands[u]
            self.plan.split_one_card[u] = split_one_card[u]
            self.plan.split_double[u] = split_double[u]
        for t in range(NTOTALS):
            self.plan.double_two[0][t] = double_two[t]
            self.plan.double_two[1][t] = double_two[t]
            self.plan.double_more[0][t] = double_more[0][t]
            self.plan.double_more[1][t] = double_more[1][t]
        if len(bonus_any) != 2 or any(len(b) < MAXN for b in bonus_any):
            raise ValueError("bonus_any: a node-flag string of MAXN for hands, split hands")
        self.keep = tuple(bytes(c) for c in codes) + tuple(bytes(b) for b in bonus_any)
        for u in range(NR):
            one = self.keep[u]
            self.plan.codes[u] = one
        self.plan.peek = peek
        self.plan.hole_at_once = hole_at_once
        self.plan.burn_dealer = burn_dealer
        self.plan.h17 = h17
        self.plan.charlie = charlie
        self.plan.bonus_any[0] = self.keep[NR]
        self.plan.bonus_any[1] = self.keep[NR + 1]
        self.plan.bonus_678 = bonus_678
        self.plan.bonus_settles = bonus_settles
        self.plan.seats = seats

    def deal_round(self, const signed char[::1] rank, const signed char[::1] suit, int pos):
        """Deal one round from ``pos``: (the position after it, the positions burnt), or
        None when the shoe runs out mid-round."""
        cdef Dealing d
        cdef int burnt[8]
        cdef int nburnt = 0, r
        if rank.shape[0] != suit.shape[0] or not 0 <= pos <= rank.shape[0]:
            raise ValueError("rank and suit are one shoe; pos within it")
        d.rank = &rank[0] if rank.shape[0] else NULL
        d.suit = &suit[0] if suit.shape[0] else NULL
        d.n = rank.shape[0]
        d.pos = pos
        with nogil:
            r = deal_round(&self.plan, &d, burnt, &nburnt)
        if r < 0:
            return None
        return d.pos, [burnt[i] for i in range(nburnt)]

    def survey(self, const signed char[::1] rank, const signed char[::1] suit,
               const double[::1] tag, int pos, int cut, int burn_per_round,
               int rounds_after_cut, double running, int[::1] counts,
               double[::1] out_running, unsigned short[:, ::1] out_counts):
        """Deal a shoe's rounds from ``pos`` by the procedure (a round starts while more
        than ``cut`` cards are left, then ``rounds_after_cut`` more; ``burn_per_round``
        burnt before each; never with nothing left after the burn; the last round stops
        where the cards run out, undealt): before each round dealt, the running count (a
        sum of ``tag`` over the cards seen, in dealing order, from ``running``) and the
        unseen rank counts (``counts``, ace first, updated in place). The number of
        rounds recorded (at most ``out_running``'s length)."""
        cdef Dealing d
        cdef int burnt[8]
        cdef int nburnt, r, more = -1, left, m = 0, cap = out_running.shape[0], i, b, start
        cdef bint is_burnt
        if rank.shape[0] != suit.shape[0] or rank.shape[0] != tag.shape[0] \
                or counts.shape[0] != NR or out_counts.shape[0] < cap \
                or out_counts.shape[1] != NR or not 0 <= pos <= rank.shape[0]:
            raise ValueError("survey: arrays of one shoe, ten counts, room for the rounds")
        d.rank = &rank[0] if rank.shape[0] else NULL
        d.suit = &suit[0] if suit.shape[0] else NULL
        d.n = rank.shape[0]
        d.pos = pos
        with nogil:
            while m < cap:
                left = d.n - d.pos
                if more < 0 and left <= cut:
                    more = rounds_after_cut
                if more >= 0:
                    if more == 0:
                        break
                    more -= 1
                if left - burn_per_round <= 0:
                    break
                d.pos += burn_per_round
                start = d.pos
                nburnt = 0
                if deal_round(&self.plan, &d, burnt, &nburnt) < 0:
                    break
                out_running[m] = running
                for i in range(NR):
                    out_counts[m, i] = <unsigned short>counts[i]
                m += 1
                for i in range(start, d.pos):
                    is_burnt = False
                    for b in range(nburnt):
                        is_burnt = is_burnt or burnt[b] == i
                    if not is_burnt:
                        counts[rank[i] - 1] -= 1
                        running += tag[i]
        return m
