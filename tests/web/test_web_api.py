"""The JSON API of ``strategy-calc serve`` through Starlette's ASGI test client (no port,
no browser): each endpoint answers exactly what its command's ``--json`` prints, and
every refusal is one JSON error with the right status (issue 32)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app, run_captured
from strategy_calc.cli.serve import declared
from strategy_calc.web import server as web

pytestmark = pytest.mark.parallel  # (the app runs commands in worker processes)

runner = CliRunner()
# One worker runs this file (``--dist loadgroup``): one app and its warm worker processes
# answer every test, instead of one per xdist worker.
pytestmark = pytest.mark.xdist_group("web-api-client")


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    from starlette.testclient import TestClient

    with TestClient(web.create_app(run_captured, declared)) as test_client:
        yield test_client


def cli(*args: str) -> tuple[int, str, str]:
    done = runner.invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def test_a_hand_query_answers_the_hand_command(client: object) -> None:
    response = client.get("/api/hand", params=[  # type: ignore[attr-defined]
        ("cards", "T,6"), ("vs", "T"), ("rules", "deluxe"), ("decks", "6"),
        ("set", "surrender=none"), ("removed", "5,5"), ("split_strategy", "cdp1")])
    code, out, _err = cli("hand", "T,6", "--vs", "T", "--rules", "deluxe", "--decks", "6",
                          "--set", "surrender=none", "--removed", "5,5", "--split-strategy",
                          "cdp1", "--json")
    assert response.status_code == 200 and code == 0
    assert response.json() == json.loads(out)


def test_bad_input_is_a_400_carrying_the_commands_error_line(client: object) -> None:
    response = client.get("/api/hand?cards=T,X&vs=T")  # type: ignore[attr-defined]
    code, _out, err = cli("hand", "T,X", "--vs", "T", "--json")
    assert response.status_code == 400 and code == 2
    assert "error: " + response.json()["error"] == err.strip()


@pytest.mark.parametrize(("path", "status", "says"), [
    ("/api/nope", 404, "no such endpoint"),
    ("/api/edge?rules=/etc/passwd", 400, "a built-in ruleset"),
    ("/api/hand?cards=T,6&vs=T&decks=40", 400, "decks"),
    ("/api/hand?cards=" + "T," * 1200 + "6&vs=T", 413, "longer than"),
    ("/download/secrets.txt", 404, "no such download"),
])
def test_what_a_request_may_not_ask_is_one_json_error(client: object, path: str,
                                                        status: int, says: str) -> None:
    response = client.get(path)  # type: ignore[attr-defined]
    assert response.status_code == status
    assert says in response.json()["error"]


def test_the_page_and_its_files_are_served_from_the_package(client: object) -> None:
    for path, kind in (("/", "text/html"), ("/static/app.js", "text/javascript"),
                       ("/static/style.css", "text/css")):
        response = client.get(path)  # type: ignore[attr-defined]
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(kind)
    assert client.get("/static/../pyproject.toml").status_code == 404  # type: ignore[attr-defined]


def test_a_commands_progress_reaches_a_sink() -> None:
    """run_captured hands every tick of the command's progress bars to its sink (the
    bars themselves draw only on a terminal): the chart's pass ticks once per up card up
    to its total, and the output is what the command prints without a sink (a second
    time, from the analysis the process keeps)."""
    from strategy_calc.cli import game

    game._games.clear()  # (a chart this process analysed before would not tick again)
    ticks: list[tuple[str, int, int]] = []
    args = ["chart", "--rules", "deluxe", "--decks", "1", "--json"]
    code, out, _err = run_captured(args, lambda label, done, total: ticks.append(
        (label, done, total)))
    assert code == 0 and out == run_captured(args)[1]
    assert ticks and {label for label, _d, _t in ticks} == {"analysing every hand"}
    assert ticks[-1][1] == ticks[-1][2] > 1
    assert [d for _l, d, _t in ticks] == sorted(d for _l, d, _t in ticks)


def test_a_request_keeps_its_progress_under_its_key(client: object) -> None:
    """?progress=KEY is not part of the command (the answer is the same with or without
    it); /api/progress?key=KEY gives the command's last tick, finished once answered; an
    answer served from the cache is finished at once; an unknown key has no state yet."""
    query = "/api/chart?rules=deluxe&decks=3"
    first = client.get(query + "&progress=k1")  # type: ignore[attr-defined]
    assert first.status_code == 200
    state = client.get("/api/progress?key=k1").json()  # type: ignore[attr-defined]
    assert state["finished"] is True and state["label"] == "analysing every hand"
    assert state["done"] == state["total"] > 1
    again = client.get(query + "&progress=k2")  # type: ignore[attr-defined]
    assert again.json() == first.json() == client.get(query).json()  # type: ignore[attr-defined]
    cached = client.get("/api/progress?key=k2").json()  # type: ignore[attr-defined]
    assert cached["finished"] is True and cached["label"] == "answered before"
    assert client.get("/api/progress?key=nobody").json() == {}  # type: ignore[attr-defined]
    for bad in ("/api/progress?key=a/b", "/api/progress", query + "&progress=%20x"):
        response = client.get(bad)  # type: ignore[attr-defined]
        assert response.status_code == 400 and "error" in response.json()


# Macau's suited plays (rule 9: 6-7-8 of one suit pays 3 times the bet at once): a
# 1-deck shoe with many cards gone keeps the exact oracle cheap.
SUITED_REMOVED = "2,3,4,4,5,9,9,T,T,T,T,T,A,2,3,T,T,5,9,6h,7c,8c"


def test_suited_cards_in_the_api_are_the_clis_suited_hand(client: object) -> None:
    """``/api/hand?cards=6d,7d&vs=T&rules=macau-1983`` is ``hand 6d,7d --vs T --rules
    macau-1983 --json``, suits and all (``"hand": ["6d", "7d"]``, suits known); its hit
    differs from the mixed suits' 6d,7s (whose 8 makes only a plain 21), its stand does not
    (suits never change a total)."""
    suited = client.get("/api/hand?cards=6d,7d&vs=T&rules=macau-1983")  # type: ignore[attr-defined]
    code, out, _err = cli("hand", "6d,7d", "--vs", "T", "--rules", "macau-1983", "--json")
    assert suited.status_code == 200 and code == 0
    assert suited.json() == json.loads(out)
    assert suited.json()["hand"] == ["6d", "7d"] and suited.json()["suits_known"] is True
    mixed = client.get("/api/hand?cards=6d,7s&vs=T&rules=macau-1983").json()  # type: ignore[attr-defined]
    assert suited.json()["ev"]["stand"] == mixed["ev"]["stand"]
    assert suited.json()["ev"]["hit"] > mixed["ev"]["hit"]


def test_the_suited_six_seven_gains_its_suits_eight_times_bonus_less_a_plain_21(
        client: object) -> None:
    """Macau, 1 deck less the up card T, the hand and 22 other cards (among them 6h, 7c,
    8c), 27 cards left, the 8d one of them. Hitting 6d,7d differs from hitting 6d,7s only
    when the 8d comes: the suited hand is paid 3 at once, the mixed one stands on a plain
    three-card 21 (every other card plays the same ranks from the same shoe), so by hand

        hit(6d,7d) - hit(6d,7s) = 1/27 * (3 - EV(stand on 21 vs T))

    and, no hole card, that 21 wins unless the dealer makes 21 (push) or blackjack (the
    whole bet lost): EV = 1 - P(dealer 21) - 2 P(dealer blackjack), his cards drawn from
    the shoe less the 6, 7 and 8 (the exact oracle's dealer). The suited hit is also the
    oracle's whole suit-aware hand."""
    import bj_oracle

    from strategy_calc.rules import blackjack_rules

    def hand(cards: str) -> dict[str, object]:
        response = client.get("/api/hand", params=[  # type: ignore[attr-defined]
            ("cards", cards), ("vs", "T"), ("rules", "macau-1983"), ("decks", "1"),
            ("removed", SUITED_REMOVED)])
        assert response.status_code == 200
        return response.json()  # type: ignore[no-any-return]

    suited, mixed = hand("6d,7d")["ev"], hand("6d,7s")["ev"]
    assert isinstance(suited, dict) and isinstance(mixed, dict)
    gone = [10 if c == "T" else 1 if c == "A" else int(c[0]) for c in SUITED_REMOVED.split(",")]
    shoe = bj_oracle.remove(bj_oracle.full_shoe(1), [*gone, 6, 7, 10])
    assert sum(shoe) == 27
    dealer = bj_oracle.dealer_distribution(bj_oracle.remove(shoe, [8]), 10, False)
    plain_21 = 1 - dealer["21"] - 2 * dealer["blackjack"]
    assert suited["hit"] - mixed["hit"] == pytest.approx(float((3 - plain_21) / 27), abs=1e-12)

    rules = blackjack_rules("macau-1983", decks=1)
    removed = [(10 if c == "T" else 1 if c == "A" else int(c[0]), c[1] if len(c) > 1 else None)
               for c in SUITED_REMOVED.split(",")]
    oracle_shoe = bj_oracle.suited_shoe(1, [*removed, (6, "d"), (7, "d"), (10, None)])
    want = bj_oracle.hand_evs_suited(((6, "d"), (7, "d")), 10, oracle_shoe, rules)
    assert suited["hit"] == pytest.approx(float(want["hit"] or 0), abs=1e-12)
    assert suited["stand"] == pytest.approx(float(want["stand"] or 0), abs=1e-12)


@pytest.mark.parametrize("cards", ["6x,7d", "6d,7dd", "6♦,7♦"])
def test_a_bad_suit_is_a_400_carrying_the_commands_error_line(client: object,
                                                              cards: str) -> None:
    response = client.get("/api/hand", params={  # type: ignore[attr-defined]
        "cards": cards, "vs": "T", "rules": "macau-1983"})
    code, _out, err = cli("hand", cards, "--vs", "T", "--rules", "macau-1983", "--json")
    assert response.status_code == 400 and code == 2
    assert "error: " + response.json()["error"] == err.strip()
    assert "suit letter" in err


def test_a_suited_card_the_shoe_cannot_hold_is_a_400(client: object) -> None:
    """One deck has one 6 of diamonds: a second is the CLI's error, and the API's."""
    response = client.get("/api/hand?cards=6d,7d&vs=T&decks=1&removed=6d")  # type: ignore[attr-defined]
    code, _out, err = cli("hand", "6d,7d", "--vs", "T", "--decks", "1", "--removed", "6d",
                          "--json")
    assert response.status_code == 400 and code == 2
    assert "error: " + response.json()["error"] == err.strip()
    assert "6 of diamonds" in err


# ------------------------------------------------ the API's parameters, from the CLI's own


def test_every_endpoint_parameter_is_a_declared_option_of_its_command() -> None:
    """Each endpoint exposes some of its command's parameters by name; the server maps them
    through the command's declaration (handed over by the CLI), so a name the command does
    not declare is refused when the app is made, not when a request comes."""
    from strategy_calc.cli.root import click_command

    api = web.Api(declared)
    for name, endpoint in web.ENDPOINTS.items():
        declared_here = {p.name for p in click_command(endpoint.command).params}
        assert {api.parameters[name][key].name for key in endpoint.parameters} <= declared_here
    bogus = {"hand": web.Endpoint("hand", ("cards", "vs", "seats"))}
    with pytest.raises(ValueError, match="seats: not a parameter of hand"):
        web.Api(declared, bogus)


# Every query parameter of each endpoint and the option it becomes, written out by hand from
# docs/CLI.md (the query name is the long option's, - as _; a flag takes true/1/empty).
EVERY_PARAMETER = [
    ("hand", [("cards", "T,6"), ("vs", "T"), ("rules", "deluxe"), ("set", "surrender=none"),
              ("set", "das=false"), ("decks", "6"), ("shoe", "A=4"), ("removed", "5,5"),
              ("removed", "8"), ("split_strategy", "cdz"), ("postsplit", "true"),
              ("exact", "1")],
     ["hand", "T,6", "--rules", "deluxe", "--set", "surrender=none", "--set", "das=false",
      "--decks", "6", "--vs", "T", "--shoe", "A=4", "--removed", "5,5", "--removed", "8",
      "--split-strategy", "cdz", "--postsplit", "--exact", "--json"]),
    ("chart", [("split_strategy", "cdp"), ("shoe", "A=4"), ("decks", "2"), ("set", "x=1"),
               ("rules", "deluxe")],
     ["chart", "--rules", "deluxe", "--set", "x=1", "--decks", "2", "--shoe", "A=4",
      "--split-strategy", "cdp", "--json"]),
    ("edge", [("strategy", "optimal"), ("split_strategy", "cdz"), ("shoe", "A=4"),
              ("decks", "1"), ("set", "x=1"), ("rules", "macau-1983")],
     ["edge", "--rules", "macau-1983", "--set", "x=1", "--decks", "1", "--shoe", "A=4",
      "--split-strategy", "cdz", "--strategy", "optimal", "--json"]),
    ("sweep", [("strategy", "basic"), ("mode", "grid"), ("preset", "macau-rules"),
               ("vary", "decks=1,2"), ("vary", "surrender=none,late"), ("set", "x=1"),
               ("rules", "deluxe")],
     ["sweep", "--rules", "deluxe", "--set", "x=1", "--vary", "decks=1,2", "--vary",
      "surrender=none,late", "--preset", "macau-rules", "--mode", "grid", "--strategy",
      "basic", "--json"]),
    ("baccarat", [("eor", ""), ("exact", "false"), ("removed", "5,K"), ("shoe", "A=4"),
                  ("decks", "8"), ("set", "tie_pays=9:1"), ("rules", "macau-baccarat")],
     ["baccarat", "--rules", "macau-baccarat", "--set", "tie_pays=9:1", "--decks", "8",
      "--shoe", "A=4", "--removed", "5,K", "--eor", "--json"]),
    ("rules", [("name", "deluxe")], ["rules", "deluxe", "--json"]),
]


@pytest.mark.parametrize(("endpoint", "query", "line"), EVERY_PARAMETER,
                         ids=[e for e, _q, _l in EVERY_PARAMETER])
def test_each_query_parameter_becomes_its_option(endpoint: str, query: list[tuple[str, str]],
                                                 line: list[str]) -> None:
    assert web.Api(declared).argv(endpoint, query) == line


def test_a_download_passes_its_format_as_the_commands_format_option() -> None:
    assert web.Api(declared).argv("chart", [("rules", "deluxe")], "pdf") == [
        "chart", "--rules", "deluxe", "--format", "pdf"]


def test_the_web_module_declares_no_flag_of_the_command_line() -> None:
    """No string in the server's code is an option (``--...``): the flags come from the
    commands' declarations (docstrings may name them)."""
    import ast
    import inspect
    import re

    tree = ast.parse(inspect.getsource(web))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    flags = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in docstrings and re.match(r"\s*--[a-z]", node.value)]
    assert flags == []


# ------------------------------------------------ an infinite deck (--decks inf, issue 47)


@pytest.mark.parametrize(("endpoint", "query", "args"), [
    ("hand", [("cards", "8,8"), ("vs", "6"), ("rules", "deluxe"), ("decks", "inf")],
     ["hand", "8,8", "--vs", "6", "--rules", "deluxe", "--decks", "inf"]),
    ("hand", [("cards", "7d,7s"), ("vs", "T"), ("rules", "macau-1983"), ("set", "decks=INF")],
     ["hand", "7d,7s", "--vs", "T", "--rules", "macau-1983", "--set", "decks=INF"]),
    ("hand", [("cards", "8,8"), ("vs", "T"), ("decks", "inf"), ("postsplit", "true")],
     ["hand", "8,8", "--vs", "T", "--decks", "inf", "--postsplit"]),
    ("chart", [("rules", "macau-1983"), ("decks", "inf")],
     ["chart", "--rules", "macau-1983", "--decks", "inf"]),
    ("edge", [("rules", "deluxe"), ("decks", "inf"), ("split_strategy", "optimal")],
     ["edge", "--rules", "deluxe", "--decks", "inf", "--split-strategy", "optimal"]),
    pytest.param("sweep", [("rules", "deluxe"), ("vary", "decks=8,inf")],
                 ["sweep", "--rules", "deluxe", "--vary", "decks=8,inf"],
                 marks=pytest.mark.slow),  # (an 8-deck game twice: 1.5 s)
], ids=["hand", "hand-suited-set", "hand-postsplit", "chart", "edge-optimal", "sweep-vary"])
def test_an_infinite_deck_query_answers_what_the_command_prints(
        client: object, endpoint: str, query: list[tuple[str, str]], args: list[str]) -> None:
    response = client.get(f"/api/{endpoint}", params=query)  # type: ignore[attr-defined]
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    assert response.status_code == 200, response.text
    assert response.content.decode() == out.strip()  # (bit for bit: the same text)
    assert '"decks": "inf"' in out or '"decks": "inf"' in json.dumps(response.json()["rows"])


def test_the_apis_infinite_deck_is_wizard_of_odds_infinite_deck_game(client: object) -> None:
    """Wizard of Odds' appendix 1 (docs/REFERENCE.md "Infinite deck"): S17, DAS, no
    surrender, resplits to four hands, 3:2, peek: house edge 0.511734% for an infinite
    deck; the page asks it as /api/edge with decks=inf."""
    response = client.get("/api/edge", params=[  # type: ignore[attr-defined]
        ("rules", "deluxe"), ("decks", "inf"), ("set", "surrender=none"),
        ("set", "max_split_hands=4")])
    assert response.status_code == 200
    assert response.json()["house_edge"] == pytest.approx(0.00511734, abs=5e-9)


@pytest.mark.parametrize(("endpoint", "query", "args"), [
    ("hand", [("cards", "T,6"), ("vs", "T"), ("decks", "inf"), ("removed", "5")],
     ["hand", "T,6", "--vs", "T", "--decks", "inf", "--removed", "5"]),
    ("edge", [("rules", "deluxe"), ("decks", "inf"), ("split_strategy", "optimal"),
              ("set", "max_split_hands=4")],
     ["edge", "--rules", "deluxe", "--decks", "inf", "--split-strategy", "optimal", "--set",
      "max_split_hands=4"]),
    ("sidebet", [("name", "21+3"), ("rules", "deluxe"), ("decks", "inf")],
     ["sidebet", "bet", "21+3", "--rules", "deluxe", "--decks", "inf"]),
], ids=["removed", "optimal-resplits", "sidebet"])
def test_what_an_infinite_deck_cannot_answer_is_the_commands_one_error_line(
        client: object, endpoint: str, query: list[tuple[str, str]], args: list[str]) -> None:
    """The refusals of the command line under ``--decks inf`` (cards removed from it, a
    fully optimal resplit, a side bet dealt from real cards) are the API's
    400 with the same one message, before any work (the optimal resplit is not estimated
    as the finite shoe's 41 minutes and refused as over the budget)."""
    response = client.get(f"/api/{endpoint}", params=query)  # type: ignore[attr-defined]
    code, _out, err = cli(*args, "--json")
    assert response.status_code == 400 and code == 2
    assert "error: " + response.json()["error"] == err.strip()
    assert "infinite deck" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("query", "says"), [
    ("/api/baccarat?decks=inf", "an infinite deck (inf) is blackjack's"),
    ("/api/sidebet?name=lucky6&rules=macau-baccarat&decks=inf",
     "lucky6 is a baccarat side bet: invalid value 'inf' for decks (expected an integer)"),
    ("/api/sweep?vary=decks=1,40", "a whole number from 1 to 8 here, or inf"),
    ("/api/hand?cards=T,6&vs=T&decks=infinity", "not 'infinity'"),
])
def test_a_game_without_an_infinite_deck_refuses_it_in_one_message(
        client: object, query: str, says: str) -> None:
    """Baccarat deals real cards (its ``--decks`` is a whole number: the API says so, not
    the option's parser); a baccarat side bet's is its command's message; a sweep's varied
    decks are held to the page's limit too (they were not checked)."""
    response = client.get(query)  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert says in response.json()["error"]
