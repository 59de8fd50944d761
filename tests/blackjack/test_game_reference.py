"""Whole-game expected return against Wizard of Odds appendix 9 (docs/REFERENCE.md).

Source row: "Blackjack expected return of the whole game (composition-dependent
play)": resplit to 4 hands (aces not resplit, one card to split aces), no
surrender, peek unless "no hole card", 3:2, double any two cards. docs/REFERENCE.md
says an exact analysis in which each split hand plays on its own cards lands
within about 1e-5 of these figures, below them for the peek rows (the source's
split strategy lets later hands use more of what was seen).
"""

from __future__ import annotations

import pytest

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.rules import BlackjackRules

APPENDIX_9 = [
    # decks, H17, hole card, DAS, published EV
    (1, False, "peek", True, +0.001839),
    (1, False, "peek", False, +0.000423),
    (1, True, "peek", True, -0.000072),
    (1, True, "peek", False, -0.001513),
    (2, True, "peek", True, -0.003797),
    (2, True, "peek", False, -0.005252),
    (5, False, "peek", True, -0.003804),
    (5, False, "peek", False, -0.005225),
    (6, True, "enhc", True, -0.0072705),
    (6, True, "enhc", False, -0.0086975),
    (8, True, "enhc", True, -0.007562),
    (8, True, "enhc", False, -0.0089865),
]


@pytest.mark.slow
@pytest.mark.parametrize(("decks", "h17", "hole", "das", "published"), APPENDIX_9)
def test_optimal_return_matches_appendix_9(decks: int, h17: bool, hole: str, das: bool,
                                           published: float) -> None:
    rules = BlackjackRules(
        decks=decks, dealer_hits_soft_17=h17, hole_card=hole,  # type: ignore[arg-type]
        enhc_loses="all", double_on="any", double_after_split=das, max_split_hands=4,
        resplit_aces=False, split_aces_one_card=True, surrender="none",
    )
    ev = analyse_game(rules).ev_optimal
    assert abs(ev - published) < 1e-5
    if hole == "peek":
        assert ev < published


@pytest.mark.parametrize(("decks", "published_edge"), [(6, 0.00426), (8, 0.00447)])
def test_basic_strategy_edge_is_just_below_the_cut_card_figure(decks: int,
                                                               published_edge: float) -> None:
    """docs/REFERENCE.md: "Basic strategy (total-dependent) house edge, Wizard of Odds
    calculator, double any two cards, DAS, split to 4 hands, no resplit of aces, peek,
    3:2, no surrender, cut card: 6 decks S17 0.426%, 8 decks S17 0.447%. These include a
    cut-card effect; an off-the-top computation lands a little lower (about 0.02 points
    at 6-8 decks)." Ours is off the top, so it must be lower by roughly that much."""
    rules = BlackjackRules(decks=decks, hole_card="peek", double_on="any",
                           double_after_split=True, max_split_hands=4, resplit_aces=False,
                           surrender="none")
    edge = analyse_game(rules).house_edge
    assert 0.0001 < published_edge - edge < 0.0003
