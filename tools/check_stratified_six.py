"""check_stratified: two-phase runs (uncontrolled and controlled) of the same 190 shoes as
`count --rules deluxe --decks 6 --set surrender=late --spread 0:1,1:2,2:4,3:8,4:12
--rounds 8000` (seed 1), to set against that direct run."""

import json
import time

from strategy_calc.counting.counter import blackjack_counter, parse_spread
from strategy_calc.counting.stratified import Sizes, two_phase_count
from strategy_calc.parallel import executor
from strategy_calc.rules.files import blackjack_rules

rules = blackjack_rules("deluxe", ["decks=6", "surrender=late"])
spread = parse_spread("0:1,1:2,2:4,3:8,4:12")
with executor(jobs=2) as pool:
    for controlled in (False, True):
        c = blackjack_counter(rules, seed=1)
        t = time.monotonic()
        r = two_phase_count(c, spread, Sizes(8019, 2000, 400), pool=pool, controlled=controlled)
        print(json.dumps({"controlled": controlled, "surveyed": r.sizes.surveyed, "shoes": r.shoes,
              "win": [r.win.value, r.win.se], "ev": [r.ev.value, r.ev.se], "sd": [r.sd, r.sd_se],
              "score": [r.score, r.score_se, r.score_se_survey, r.score_se_sample],
              "wall": time.monotonic() - t}), flush=True)
