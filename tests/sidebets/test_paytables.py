"""Side bets as TOML: the built-ins' default pay tables are the common ones, and a file
that cannot be priced is one error (a SideBetError, an InputError: one ``error:`` line)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from strategy_calc.errors import InputError
from strategy_calc.sidebets.paytables import (
    BUILTIN_FILES,
    SideBetError,
    builtin_sidebet,
    find_sidebet,
    read_sidebet,
)


def test_21_plus_3_pays_9_to_1_on_every_winning_hand_by_default() -> None:
    assert set(builtin_sidebet("21+3").paytable().values()) == {Fraction(9)}


def test_lucky_ladies_default_table_is_1000_125_19_9_4() -> None:
    assert builtin_sidebet("lucky-ladies").paytable() == {
        "qh_pair_dealer_blackjack": 1000, "qh_pair": 125, "matched_20": 19,
        "suited_20": 9, "any_20": 4}


def test_every_builtin_states_its_sources() -> None:
    for name in BUILTIN_FILES:
        bet = builtin_sidebet(name)
        assert bet.name == name
        assert {"event", *bet.paytables} <= set(bet.sources)


BAD = {
    "no event": 'name = "x"\ndefault = "t"\n[paytables.t]\nperfect = 1\n',
    "unknown event": 'name = "x"\nevent = "poker5"\ndefault = "t"\n[paytables.t]\na = 1\n',
    "missing line": ('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                     'perfect = 25\ncoloured = 12\n'),
    "unknown line": ('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                     'perfect = 25\ncoloured = 12\nmixed = 6\nsuited = 3\n'),
    "pays below -1": ('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                      'perfect = 25\ncoloured = 12\nmixed = -2\n'),
    "pays not a number": ('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                          'perfect = 25\ncoloured = "12"\nmixed = 6\n'),
    "pays infinite": ('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                      'perfect = inf\ncoloured = 12\nmixed = 6\n'),
    "default not a table": ('name = "x"\nevent = "pair"\ndefault = "u"\n[paytables.t]\n'
                            'perfect = 25\ncoloured = 12\nmixed = 6\n'),
    "reserved name": ('name = "pair"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                      'perfect = 25\ncoloured = 12\nmixed = 6\n'),
    "other game": ('name = "x"\ngame = "baccarat"\nevent = "pair"\ndefault = "t"\n'
                   '[paytables.t]\nperfect = 25\ncoloured = 12\nmixed = 6\n'),
    "unknown key": ('name = "x"\nevent = "pair"\ndefault = "t"\npays = 3\n[paytables.t]\n'
                    'perfect = 25\ncoloured = 12\nmixed = 6\n'),
    "a side-wins event naming a point twice": (
        'name = "x"\nevent = "banker_wins_with_6_or_6"\ndefault = "t"\n[paytables.t]\n'
        'win_6 = 1\n'),
    "not TOML": 'name = "x\n',
}


@pytest.mark.parametrize("case", BAD)
def test_a_side_bet_file_that_cannot_be_priced_is_one_input_error(case: str,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "bet.toml"
    path.write_text(BAD[case], encoding="utf-8")
    with pytest.raises(SideBetError) as caught:
        read_sidebet(path)
    assert isinstance(caught.value, InputError)
    assert "\n" not in str(caught.value).strip()


def test_a_user_file_prices_its_own_bet_and_unknown_names_are_refused(tmp_path: Path
                                                                      ) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "my-pair"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                    'perfect = 30\ncoloured = 10\nmixed = 5\n', encoding="utf-8")
    assert find_sidebet("my-pair", (path,)).paytable()["perfect"] == 30
    assert find_sidebet("21+3", (path,)).name == "21+3"
    with pytest.raises(SideBetError, match="unknown side bet 'nope'"):
        find_sidebet("nope", (path,))
    with pytest.raises(SideBetError, match="unknown side bet"):
        builtin_sidebet("no-such-bet")
