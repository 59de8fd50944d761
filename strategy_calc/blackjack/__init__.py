"""Blackjack: hands, splits, the whole-game pass, the chart, the house edge, a hand's and a
game's analysis, distributions, play-outs, boxes, risk, sweeps, what-ifs and the pair bet."""
