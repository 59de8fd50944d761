# The C-level declarations of strategy_calc._engine (its sources are in cython_ext/):
# the engine's constants, declared once. Cython reads this file as the compiled
# module's own .pxd (it sits where the module does, beside its stub _engine.pyi).
#
# The ``cpdef enum`` groups are also Python enums of the compiled module
# (``_engine.Hist.HIST_SIZE``, ...): strategy_calc.engine reads them from there, so
# no number is copied by hand between Cython and Python. The plain ``cdef enum``
# constants are the engine's own.

cdef enum:
    NR = 10         # ranks, indexed 0..9: ace, 2..9, ten-valued
    # the dealer's outcomes (one class each: _rules.pxi's dealer_outcome makes them):
    # 0..4 his final totals 17..21, then bust, then blackjack, then 22 where it pushes
    DEALER_STANDS = 17  # his lowest final total (below it he draws; _rules.pxi dealer_draws)
    OUT_BUST = 22 - DEALER_STANDS  # (5: after the totals 17..21)
    OUT_BJ = OUT_BUST + 1
    OUT_22 = OUT_BJ + 1  # (7) he ends on exactly 22 under dealer_22_pushes (else a bust)
    NOUT = OUT_22 + 1   # (8) the outcomes: every array of them (a dealer distribution) is this long
    NDRULES = 4         # dealer rules (DealerRule below: DEALER_H17 | DEALER_22)
    MAXN = 4096     # room for the player nodes (3,083 are used)
    KMAX = 24
    NCLASS = 64     # node classes: best total + 32 if soft
    NTOTALS = 22
    ROWS = NR * NOUT  # (80) a dealer distribution for every up card
    ALL_UPS = (1 << NR) - 1   # every up card, as bits (EntryRows, set_tree)
    SET_TREES_MAX = 192       # set trees kept (a chart's hints use 15-25 sets, two trees each)
    LANES = 4       # shoes tree_eval_lanes evaluates at once (lanes.h is written for 4)
    T_STAND = 0     # a distribution term's kind
    T_BUST = 1
    T_BONUS = 2
    T_BONUS_STAND = 3  # a bonus paid at once, the hand then standing as a 21 (bonus_stands)
    UMAX = 48       # most cards of both split hands together (2 x 22, a bust's last card
                    # counted) that the union factor tables hold, with room
    GROUP_MAX = 32  # tables in one SplitMomentGroup
    OPT_LEVELS = 12 # optimal split's V-recursion depth: hands finished + resplits (at most 6)
    NCLS = OUT_BUST + 1  # (6) standing classes (_rules.pxi stand_class): 16 or less, 17..21
    _BAC_RANKS = 13        # baccarat ranks: A, 2..9, T, J, Q, K
    _BAC_POINTS = 10       # points 0..9
    _BAC_GRID = 400        # [player cards - 2][banker cards - 2][player point][banker point]
    _BAC_MAX_CARDS = 1300

cpdef enum Hist:
    # outcome histograms (hand_distribution, split_distribution, split_moments):
    # bin round(100 x) + HIST_OFFSET holds a net result of x units of the bet
    HIST_OFFSET = 500
    HIST_SIZE = 2600

cpdef enum PassColumn:
    # the columns of an up_card_pass row (one row of PASS_WIDTH doubles per player node)
    COL_STAND = 0
    COL_OPTIMAL = 1
    COL_DOUBLE = 2
    COL_POLICY = 3
    COL_WEIGHT = 4
    COL_NO_BLACKJACK = 5
    COL_HIT = 6
    COL_POLICY_HIT = 7
    PASS_WIDTH = 8

cpdef enum RowFlag:
    # up_card_pass's ``wanted`` flags: the whole row, or (a fixed policy) only the named
    # columns; ROW_PRESENT alone: only ``weight`` and ``no_blackjack``
    ROW_ALL = 1
    ROW_STAND = 2
    ROW_POLICY_HIT = 4
    ROW_DOUBLE = 8
    ROW_PRESENT = 16

cpdef enum PlayCode:
    # a chart's per-node play for split hands (split_tables' and the pass's chart_codes):
    # bits of one byte per player node, made from a ChartCode by engine.split_hand_code
    CODE_DOUBLE = 1     # double if the rules allow it here
    CODE_HIT = 2        # else hit
    CODE_STAND = 4      # else stand

cpdef enum SplitColumn:
    # split_tables' ``columns``: which pairs of a row's columns to compute
    SPLIT_OPTIMAL = 1       # X, P: the split hands' own best play
    SPLIT_CHART = 2         # X_chart, P_chart: the chart's play
    SPLIT_CHART_NODAS = 4   # the chart's play without doubling after the split

cpdef enum DealerRule:
    # the dealer's rules, as bits of one int (Params.drule; DealerMemo, dealer_probs): the
    # dealer trees are built per rule (_dealer_trees.pxi ensure_trees), NDRULES of them
    DEALER_H17 = 1      # he hits soft 17
    DEALER_22 = 2       # a 22 is an outcome of its own (OUT_22) that pushes every standing hand

cpdef enum Tie:
    # exact ties between two plays (_rules.pxi beats): a play is worth more than another
    # only by more than TIE_ULPS units in the last place of 1 (TIE_ULPS x 2**-52, 1.4e-14);
    # within it the two tie, and the calmer play is taken (stand, then hit, then double)
    TIE_ULPS = 64
