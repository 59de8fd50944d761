"""The xdist group of an oracle split case: every test that asks the oracle about one case
(pair, up card, shoe, rules), in whichever file, runs on one worker (``--dist loadgroup``,
pyproject.toml), so that the oracle's cached brute forces (``functools.cache`` on
``bj_oracle``'s ``split_ev_*_bruteforce``) compute the case once in a run.

The group is named after the case itself, not after a file's id for it (the files name
one case differently): the pair and the up card, and a digest of the shoe and the rules
(``split-88vT-...``).
"""

from __future__ import annotations

import hashlib

import pytest

from strategy_calc.rules import BlackjackRules

_SYMBOLS = "A23456789T"


def split_case_group(rules: BlackjackRules, pair: int, up: int,
                     shoe: tuple[int, ...]) -> pytest.MarkDecorator:
    """The xdist group of the split of ``pair`` against ``up`` from ``shoe`` under ``rules``
    (the brute forces' arguments; the rules' repr is the same in every process)."""
    digest = hashlib.sha1(repr((tuple(shoe), rules)).encode()).hexdigest()[:10]
    p, u = _SYMBOLS[pair - 1], _SYMBOLS[up - 1]
    return pytest.mark.xdist_group(f"split-{p}{p}v{u}-{digest}")
