"""Round-outcome distribution and bankroll risk."""

from __future__ import annotations

import functools
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.game_analysis import GameAnalysis, analyse_game
from strategy_calc.blackjack.risk import summarise
from strategy_calc.cli import app
from strategy_calc.rules import blackjack_rules


@functools.cache
def _distributions(name: str, decks: int) -> GameAnalysis:
    """The game's round distributions off the top, made once per process (the one-deck
    Deluxe one is read by two tests, which share an xdist group)."""
    return analyse_game(blackjack_rules(name, decks=decks), distribution=True)


ONE_DECK = pytest.mark.xdist_group("risk-deluxe-1")


@pytest.fixture(scope="module", params=[pytest.param(("deluxe", 1), marks=ONE_DECK),
                                        ("macau-1983", 2)])
def game(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    name, decks = request.param
    return _distributions(name, decks)


@pytest.mark.slow
def test_distributions_sum_to_one_and_their_means_are_the_edge(game) -> None:  # type: ignore[no-untyped-def]
    for outcomes, ev in ((game.outcomes_optimal, game.ev_optimal),
                         (game.outcomes_basic, game.ev_basic)):
        assert abs(sum(outcomes.values()) - 1.0) < 1e-12
        assert abs(sum(x * p for x, p in outcomes.items()) - ev) < 1e-12
        assert all(p >= 0 for p in outcomes.values())
        assert min(outcomes) >= -4 and max(outcomes) <= 6


@pytest.mark.slow
@ONE_DECK
def test_blackjack_probability_one_deck_by_hand() -> None:
    """1 deck: the player is dealt A+T with probability 2 * 4/52 * 16/51 = 32/663; the
    dealer then has A+T from 50 cards (3 aces, 15 tens) with probability
    2 * 3 * 15 / (50 * 49) = 9/245, a push. Only a blackjack wins exactly 1.5."""
    game = _distributions("deluxe", 1)
    assert game.outcomes_optimal is not None
    want = Fraction(32, 663) * (1 - Fraction(9, 245))
    assert game.outcomes_optimal[1.5] == pytest.approx(float(want), abs=1e-15)


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_ruin_of_a_coin_toss_by_hand() -> None:
    """Win or lose 1 with probability 1/2, bankroll 2, two rounds: ruined only by
    losing both (1/4); behind at the end also only then (a win and a loss is even)."""
    s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=2, rounds=2)
    assert s.risk_of_ruin == pytest.approx(0.25, abs=1e-15)
    assert s.loss_probability == pytest.approx(0.25, abs=1e-15)
    assert s.sd == 1.0


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_ruin_needs_the_bankroll_to_run_out_on_the_way() -> None:
    """Bankroll 1, three rounds of +-1: ruined if the first round loses (1/2) or it goes
    win, lose, lose (1/8): 5/8. The final result alone would say P(-3 or -1) = 1/2."""
    s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=1, rounds=3)
    assert s.risk_of_ruin == pytest.approx(5 / 8, abs=1e-15)
    assert s.loss_probability == pytest.approx(1 / 2, abs=1e-15)


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_normal_approximation_is_close_for_many_rounds() -> None:
    s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=30, rounds=400)
    assert abs(s.risk_of_ruin - s.risk_of_ruin_normal) < 0.02
    assert abs(s.loss_probability - s.loss_probability_normal) < 0.03


runner = CliRunner()


@pytest.mark.slow
def test_risk_json_contract() -> None:
    out = runner.invoke(app, ["risk", "--rules", "deluxe", "--decks", "1", "--rounds", "50",
                              "--bankroll", "10", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert {"ev", "sd", "outcomes", "risk_of_ruin"} <= set(data)
    assert abs(data["ev"] - data["ev_game"]) < 1e-12
    assert "-2" in data["outcomes"] and "1.5" in data["outcomes"]
    assert 0 < data["risk_of_ruin"] < 1


@pytest.mark.parametrize("args", [["--rounds", "0"], ["--bankroll", "-5"],
                                  ["--rules", "deluxe", "--set", "max_split_hands=4",
                                   "--split-strategy", "cdp"]])
def test_risk_errors(args: list[str]) -> None:
    out = runner.invoke(app, ["risk", "--decks", "1", *args])
    assert out.exit_code == 2 and out.stderr.startswith("error: ")


def test_blackjack_probability_on_a_tiny_shoe_by_hand() -> None:
    """A 14-card shoe: two aces, one each of 2..9, four tens. The player's first two
    cards are A+T with probability 2 * 2/14 * 4/13 = 16/182; the dealer then has A+T
    from the 12 left (one ace, three tens) with probability 2 * 1/12 * 3/11 = 1/22
    (a push). Only a blackjack wins exactly 1.5 when no insurance is offered (this shoe
    is rich enough in tens that optimal play insures some starts against an ace, and an
    insured double that wins nets 2 - 1/2 = 1.5 too)."""
    from strategy_calc.cards import Shoe

    shoe = Shoe.from_counts((2, 1, 1, 1, 1, 1, 1, 1, 1, 4))
    game = analyse_game(blackjack_rules("deluxe", ["decks=1", "insurance=false"]), shoe=shoe,
                        distribution=True)
    assert game.outcomes_optimal is not None
    want = Fraction(16, 182) * (1 - Fraction(1, 22))
    assert game.outcomes_optimal[1.5] == pytest.approx(float(want), abs=1e-15)
    assert abs(sum(x * p for x, p in game.outcomes_optimal.items()) - game.ev_optimal) < 1e-12


@pytest.mark.slow
def test_a_natural_paying_any_amount_keeps_the_mean_of_the_distribution_exact() -> None:
    """blackjack_pays = 1.237 is not a whole number of hundredths: the natural's result is
    keyed exactly, so the distribution's mean is the round's EV (one deck off the top was
    1.4e-4 off). On a 15-card shoe (0.05 CPU-s; the full deck took 2): keys rounded to
    hundredths would put its mean 2.5e-4 off."""
    from strategy_calc.cards import Shoe
    from strategy_calc.rules import blackjack_rules

    game = analyse_game(blackjack_rules("deluxe", ["decks=1", "blackjack_pays=1.237"]),
                        shoe=Shoe.from_counts((2, 1, 1, 1, 1, 1, 1, 1, 1, 4), decks=1),
                        distribution=True)
    assert game.outcomes_optimal is not None and game.outcomes_basic is not None
    assert 1.237 in game.outcomes_optimal
    for outcomes, ev in ((game.outcomes_optimal, game.ev_optimal),
                         (game.outcomes_basic, game.ev_basic)):
        assert abs(sum(outcomes.values()) - 1.0) < 1e-12
        assert abs(sum(x * p for x, p in outcomes.items()) - ev) < 1e-12


def test_a_bonus_the_distribution_cannot_key_is_refused() -> None:
    from strategy_calc.rules import RulesError, blackjack_rules

    with pytest.raises(RulesError, match="whole hundredths"):
        analyse_game(blackjack_rules("macau-1983", ["bonus_777=2.125"]), distribution=True)


# ---------------------------------------------------------------- any finite bankroll


def _brownian_risk_mpmath(mean: float, sd: float, bankroll: float, rounds: int) -> object:
    """The first-passage risk Phi(a) + exp(c) Phi(b) of risk.py's docstring, written
    again in 60-digit arithmetic (mpmath), where exp(c) cannot overflow."""
    import mpmath

    mpmath.mp.dps = 60
    mu, sigma, b = mpmath.mpf(mean), mpmath.mpf(sd), mpmath.mpf(bankroll)
    n_sd = sigma * mpmath.sqrt(rounds)

    def phi(x: object) -> object:
        return mpmath.ncdf(x)

    return (phi((-b - mu * rounds) / n_sd)
            + mpmath.exp(-2 * mu * b / sigma**2) * phi((-b + mu * rounds) / n_sd))


@pytest.mark.parametrize(("mean", "sd", "bankroll", "rounds"), [
    (-0.005, 1.15, 40_000.0, 10),      # Macau: exp(c) = exp(302) would be fine, Phi tiny
    (-0.005, 1.15, 100_000.0, 10),     # Deluxe's crash: exp(756) overflows a double
    (-0.005, 1.15, 1e6, 1000),
    (-0.02, 1.0, 50.0, 1000),          # an ordinary risk, where both forms agree
    (0.01, 1.1, 100.0, 10_000),        # a winning game
])
def test_the_normal_risk_of_ruin_is_summed_in_logs_for_any_bankroll(
        mean: float, sd: float, bankroll: float, rounds: int) -> None:
    import math

    import mpmath

    from strategy_calc.blackjack.risk import _log_ruin_normal

    want = _brownian_risk_mpmath(mean, sd, bankroll, rounds)
    got = _log_ruin_normal(mean, sd, bankroll, rounds)
    assert math.isfinite(got)
    assert abs(got - float(mpmath.log(want))) < 1e-9 * max(1.0, abs(got))


@pytest.mark.parametrize("bankroll", [4e4, 1e6, 1e308])
def test_a_large_bankroll_is_never_ruined_in_a_few_rounds(bankroll: float) -> None:
    """Ten rounds lose at most 4 units each here, so 40 units or more is never ruined
    (exactly 0); the normal approximation is 0 too, with a finite log below -300 where
    the double underflows. At 1e308 even the log, about -(B / sigma)^2 / (2 N ln 10) =
    -4e614, is past the double range: -inf (JSON null)."""
    outcomes = {-4.0: 0.01, -2.0: 0.04, -1.0: 0.45, 0.0: 0.09, 1.0: 0.36, 1.5: 0.05}
    s = summarise(outcomes, bankroll=bankroll, rounds=10)
    assert s.risk_of_ruin == 0.0
    assert s.risk_of_ruin_normal == 0.0
    assert s.log10_risk_of_ruin_normal < -300
    assert (s.log10_risk_of_ruin_normal == -float("inf")) == (bankroll > 1e200)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "bankroll"), [("macau-1983", "40000"),
                                                 ("deluxe", "100000"), ("deluxe", "1e308")])
def test_risk_answers_for_real_bankrolls(rules: str, bankroll: str) -> None:
    out = runner.invoke(app, ["risk", "--rules", rules, "--decks", "1", "--bankroll", bankroll,
                              "--rounds", "10", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["risk_of_ruin"] == 0.0 and data["risk_of_ruin_normal"] == 0.0
    log10 = data["log10_risk_of_ruin_normal"]
    assert log10 is None if bankroll == "1e308" else log10 < -300


@pytest.mark.slow
def test_risk_s_enumeration_reports_progress_to_the_end() -> None:
    """The seconds after the pass (every round's distribution) tick too: ten up cards in
    the pass, ten for the split values, ten for the enumeration, in order."""
    from strategy_calc.blackjack.risk import round_outcomes

    ticks: list[tuple[int, int]] = []
    round_outcomes(blackjack_rules("deluxe", decks=1), "optimal",
                   lambda done, total: ticks.append((done, total)))
    assert ticks[-1] == (30, 30) and {total for _, total in ticks} == {30}
    assert [done for done, _ in ticks] == sorted(done for done, _ in ticks)
    assert sum(1 for done, _ in ticks if done > 20) == 10


@pytest.mark.slow
def test_risk_with_resplits_gives_the_exact_mean_and_sd_and_no_distribution() -> None:
    """With resplits the round's distribution is not enumerated: ``outcomes`` and the exact
    figures are null and ``distribution`` says so; the mean is the game's EV and the SD
    comes from the exact second moment (tests/blackjack/split/test_resplit_moments.py checks it
    against the brute force); the normal approximation's figures are there."""
    out = runner.invoke(app, ["risk", "--rules", "deluxe", "--decks", "1", "--set",
                              "max_split_hands=4", "--strategy", "basic", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["outcomes"] is None and data["risk_of_ruin"] is None
    assert data["loss_probability"] is None and data["quantiles"] is None
    assert "resplits" in data["distribution"]
    assert abs(data["ev"] - data["ev_game"]) < 1e-12
    assert 1.0 < data["sd"] < 1.3 and 0.0 < data["risk_of_ruin_normal"] < 1.0
    plot = runner.invoke(app, ["risk", "--rules", "deluxe", "--decks", "1", "--set",
                               "max_split_hands=4", "--plot", "x.png"])
    assert plot.exit_code == 2 and plot.stderr.startswith("error: --plot")
