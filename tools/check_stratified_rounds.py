"""check_stratified: the survey and exact_rounds against play_one, round by round (first 6
shoes of seed 1, deluxe 2 decks): bet counts and exact EVs must be identical."""

from strategy_calc.counting.counter import blackjack_counter
from strategy_calc.rules.files import blackjack_rules

rules = blackjack_rules("deluxe", ["decks=2"])
c = blackjack_counter(rules, seed=1)
mism = tot = 0
maxd = 0.0
for i in range(6):
    played = c.play_one(i)
    sv = c.survey_one(i)
    ks = list(sv.keys)
    if len(played) != len(ks):
        print("shoe", i, "rounds differ", len(played), len(ks))
    ex = c.exact_rounds([(sv.state(j), False, 0.0) for j in range(len(ks))])
    for j, r in enumerate(played):
        if j >= len(ks):
            break
        tot += 1
        d = abs(r.ev - ex[j][0])
        maxd = max(maxd, d)
        if r.tc != ks[j] or d > 1e-9:
            mism += 1
            print(i, j, r.tc, ks[j], r.ev, ex[j][0])
print("rounds", tot, "mismatches", mism, "max |ev diff|", maxd)
