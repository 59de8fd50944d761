"""``strategy-calc serve`` (issue 32): the JSON API answers exactly what the CLI's
``--json`` prints, bad input is HTTP 400 with the CLI's message, nothing can reach a file or
run without bound; the page works in a real browser (Playwright driving Debian's Chromium)
against a real ASGI server (uvicorn on loopback), with no request leaving the machine."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
from browser import browser_page
from typer.testing import CliRunner

from strategy_calc.cli import app, run_captured
from strategy_calc.cli.serve import declared
from strategy_calc.web import server as web

runner = CliRunner()
# One worker runs this file (``--dist loadgroup``): one server and its warm worker
# processes answer every test, instead of one per xdist worker.
pytestmark = pytest.mark.xdist_group("web-server")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A uvicorn server of the page on a free loopback port, as ``serve`` makes it (commands
    in warm worker processes), stopped after the module."""
    with web.serving(run_captured, declared) as base:  # (what strategy-calc serve runs)
        yield base


def get(base: str, path: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(base + path, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def cli_json(*args: str) -> object:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.slow
def test_the_issues_hand_query_is_the_cli_hand_command(server: str) -> None:
    status, data = get(server, "/api/hand?cards=T,6&vs=T&rules=deluxe&decks=6"
                               "&set=surrender=none&removed=5,5&split_strategy=cdp1")
    assert status == 200
    assert data == cli_json("hand", "T,6", "--vs", "T", "--rules", "deluxe", "--decks", "6",
                            "--set", "surrender=none", "--removed", "5,5",
                            "--split-strategy", "cdp1")


@pytest.mark.slow
@pytest.mark.parametrize(("query", "args"), [
    ("/api/chart?rules=deluxe&decks=2", ["chart", "--rules", "deluxe", "--decks", "2"]),
    ("/api/edge?rules=macau-1983&decks=1&strategy=optimal",
     ["edge", "--rules", "macau-1983", "--decks", "1", "--strategy", "optimal"]),
    ("/api/sweep?rules=deluxe&set=decks=1&vary=surrender=none,late",
     ["sweep", "--rules", "deluxe", "--set", "decks=1", "--vary", "surrender=none,late"]),
    ("/api/baccarat?decks=6&removed=5,5,K", ["baccarat", "--decks", "6", "--removed", "5,5,K"]),
    ("/api/rules?name=deluxe", ["rules", "deluxe"]),
    ("/api/rules?name=macau-1983&decks=2&set=bonus_hands=6-7-8=2",
     ["rules", "macau-1983", "--decks", "2", "--set", "bonus_hands=6-7-8=2"]),
    ("/api/rules", ["rules"]),
])
def test_every_endpoint_answers_what_its_command_prints(server: str, query: str,
                                                        args: list[str]) -> None:
    status, data = get(server, query)
    assert status == 200
    assert data == cli_json(*args)


@pytest.mark.slow
def test_bad_input_is_a_400_with_the_clis_message(server: str) -> None:
    status, data = get(server, "/api/hand?cards=T,X&vs=T")
    cli = runner.invoke(app, ["hand", "T,X", "--vs", "T", "--json"])
    assert status == 400 and cli.exit_code == 2
    assert isinstance(data, dict) and "error: " + data["error"] == cli.stderr.strip()


@pytest.mark.slow
@pytest.mark.parametrize(("query", "status", "message"), [
    ("/api/edge?rules=/etc/passwd", 400, "a built-in ruleset"),
    ("/api/edge?rules=deluxe&out=/tmp/x", 400, "unknown parameter 'out'"),
    ("/api/sweep?rules=deluxe&cache=/tmp/x", 400, "unknown parameter 'cache'"),
    ("/api/edge?decks=100", 400, "decks: a whole number from 1 to 8"),
    ("/api/edge?set=decks=100", 400, "decks: a whole number from 1 to 8"),
    ("/api/sweep?vary=decks=1,2,4,6,8&vary=surrender=none,late,2-9,not_vs_ace&"
     "vary=dealer_hits_soft_17=true,false&vary=double_after_split=true,false",
     400, "a sweep of 80 variants"),
    ("/api/hand?vs=T", 400, "needs the parameter 'cards'"),
    ("/api/count?rules=deluxe", 404, "no such endpoint /api/count"),
    ("/api/edge?set=" + "x" * 3000, 413, "longer than 2000 characters"),
])
def test_what_the_page_may_not_ask_is_refused_in_one_message(
        server: str, query: str, status: int, message: str) -> None:
    got, data = get(server, query)
    assert got == status
    assert isinstance(data, dict) and message in data["error"]


def test_serving_beyond_loopback_says_so_and_a_bad_port_is_one_error_line() -> None:
    assert web.bind_warning("127.0.0.1") is None
    warning = web.bind_warning("0.0.0.0")
    assert warning is not None and "reachable from the network" in warning
    result = runner.invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --port is 0 to 65535")


@pytest.mark.render
def test_the_chart_page_works_in_a_browser_and_a_cell_shows_its_evs(server: str) -> None:
    """Chromium loads the page, draws the Deluxe 6-deck chart from the API, and a click on
    hard 16 against a ten shows T,6's EVs, the same as ``hand T,6 --vs T``; every request
    the page makes goes to this server (its files are in the package: no CDN)."""

    want = cli_json("hand", "T,6", "--vs", "T", "--rules", "deluxe", "--decks", "6")
    assert isinstance(want, dict)
    requests: list[str] = []
    with browser_page(server + "/", on_request=lambda r: requests.append(r.url)) as page:
        page.select_option("#rules", "deluxe")
        page.select_option("#decks", "6")
        page.click("#chart-go")
        page.wait_for_selector("td.code[data-row='16'][data-up='T']", timeout=60_000)
        assert page.inner_text("td.code[data-row='16'][data-up='T']") in ("H", "Rh")
        assert "house edge" in page.inner_text("#chart-out")
        shot = page.locator("#chart-out").screenshot()
        page.click("td.code[data-row='16'][data-up='T']")
        page.wait_for_selector("#cell-out table.hand", timeout=60_000)
        text = page.inner_text("#cell-out")
    import io

    from PIL import Image

    colours = Image.open(io.BytesIO(shot)).convert("RGB").getcolors(maxcolors=1 << 20)
    # the chart's cells in their codes' colours (H white, S yellow, D green, P blue, ...)
    assert colours is not None and len({c for _n, c in colours}) > 50
    big = {c for n, c in colours if n > 500}
    assert {(255, 224, 102), (105, 219, 124), (116, 192, 252)} <= big  # S, Dh, P cells
    assert "16 (T,6) vs T" in text
    for action in ("stand", "hit"):
        assert f"{want['ev'][action]:.6f}" in text
    assert requests and all(url.startswith(server) for url in requests)


@pytest.mark.render
def test_the_decks_control_offers_an_infinite_deck(server: str) -> None:
    """Decks "infinite" draws the chart of ``--decks inf`` (issue 47): its caption is the
    ``infD`` ruleset's, with ``chart --decks inf``'s house edge, asked as decks=inf."""
    want = cli_json("chart", "--rules", "deluxe", "--decks", "inf")
    assert isinstance(want, dict)
    requests: list[str] = []
    with browser_page(server + "/", on_request=lambda r: requests.append(r.url)) as page:
        page.select_option("#rules", "deluxe")
        page.select_option("#decks", "inf")
        page.click("#chart-go")
        page.wait_for_selector("td.code", timeout=60_000)
        caption = page.inner_text("#chart-out p")
    assert caption.startswith("deluxe: infD ")
    assert f"house edge {100 * want['house_edge']:.4f}%" in caption
    assert any("/api/chart?" in url and "decks=inf" in url for url in requests)


@pytest.mark.render
def test_a_bad_hand_in_the_page_shows_the_error_line(server: str) -> None:
    with browser_page(server + "/") as page:
        page.click("nav button[data-tab='hand']")
        page.fill("#hand-cards", "T,X")
        page.click("#hand-go")
        page.wait_for_selector("#hand-status.error", timeout=60_000)
        status = page.inner_text("#hand-status")
    assert status.startswith("error: ") and "X" in status


def test_the_api_maps_query_parameters_to_the_clis_options() -> None:
    api = web.Api(declared)
    assert api.argv("sweep", [("vary", "surrender=none,late"), ("set", "decks=1")]) == [
        "sweep", "--set", "decks=1", "--vary", "surrender=none,late", "--json"]
    assert api.argv("baccarat", [("eor", "true"), ("exact", "false")]) == [
        "baccarat", "--eor", "--json"]
    with pytest.raises(ValueError, match="given twice"):
        api.argv("hand", [("cards", "T,6"), ("vs", "T"), ("vs", "9")])
    assert urllib.parse.quote("surrender=none") == "surrender%3Dnone"  # (the page escapes it)


@pytest.mark.render
def test_the_chart_downloads_are_the_clis_csv_and_a_one_page_pdf(server: str) -> None:
    import io

    import pypdf

    query = "?rules=deluxe&decks=6&set=surrender=none"
    with urllib.request.urlopen(server + "/download/chart.csv" + query, timeout=120) as got:
        csv_text = got.read().decode("utf-8")
        assert got.headers["Content-Type"].startswith("text/csv")
    cli = runner.invoke(app, ["chart", "--rules", "deluxe", "--decks", "6", "--set",
                              "surrender=none", "--format", "csv"])
    assert csv_text == cli.stdout
    with urllib.request.urlopen(server + "/download/chart.pdf" + query, timeout=120) as got:
        pdf = got.read()
    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == 1
    status, data = get(server, "/download/chart.pdf?rules=/etc/passwd")
    assert status == 400 and isinstance(data, dict) and "built-in" in data["error"]


@pytest.mark.render
def test_a_field_edited_in_the_page_is_an_override(server: str) -> None:
    """The fields table comes from ``rules deluxe``; setting surrender to none there draws
    the chart of ``--set surrender=none`` (no surrender code left in it)."""

    with browser_page(server + "/") as page:
        page.select_option("#rules", "deluxe")
        page.click("#fields-box summary")
        page.wait_for_function(
            "document.querySelector(\"#fields input[name='surrender']\")?.value === '2-9'",
            timeout=60_000)
        page.fill("#fields input[name='surrender']", "none")
        page.click("#chart-go")
        page.wait_for_selector("td.code", timeout=60_000)
        codes = page.eval_on_selector_all("td.code", "cells => cells.map(c => c.textContent)")
        caption = page.inner_text("#chart-out p")
        href = page.get_attribute("#dl-csv", "href")
    assert codes and not any(c.startswith("R") for c in codes)
    assert "LS" not in caption.split(":")[1].split("house edge")[0]
    assert href is not None and "set=surrender%3Dnone" in href


@pytest.mark.parallel
def test_concurrent_queries_each_answer_what_a_serial_command_prints(server: str) -> None:
    """Twelve different hands and two charts asked at once: every answer is the CLI's
    own (commands run a few at a time, :data:`strategy_calc.web.server.PROCESSES`)."""
    from concurrent.futures import ThreadPoolExecutor

    hands = [(a, b, up) for a in ("T", "9", "A") for b in ("6", "7") for up in ("T", "5")]
    paths = [f"/api/hand?cards={a},{b}&vs={up}&rules=deluxe&decks=2" for a, b, up in hands]
    paths += ["/api/chart?rules=deluxe&decks=1", "/api/chart?rules=macau-1983&decks=2"]
    with ThreadPoolExecutor(len(paths)) as pool:
        got = list(pool.map(lambda p: get(server, p), paths))
    for (a, b, up), (status, data) in zip(hands, got, strict=False):
        assert status == 200
        assert data == cli_json("hand", f"{a},{b}", "--vs", up, "--rules", "deluxe",
                                "--decks", "2")
    assert got[-2] == (200, cli_json("chart", "--rules", "deluxe", "--decks", "1"))
    assert got[-1] == (200, cli_json("chart", "--rules", "macau-1983", "--decks", "2"))


@pytest.mark.slow
def test_without_workers_each_command_is_a_process_of_its_own_with_the_same_answer() -> None:
    """The fallback runner (no in-process command given): ``python -m strategy_calc``."""
    import asyncio

    args = ["edge", "--rules", "deluxe", "--decks", "1", "--json"]
    status, body = asyncio.run(web.Runner().run(args))
    assert status == 200 and json.loads(body) == cli_json(*args[:-1])
    status, body = asyncio.run(web.Runner().run(["hand", "T,X", "--vs", "T", "--json"]))
    assert status == 400 and json.loads(body)["error"].startswith("unknown card 'X'")


@pytest.mark.render
def test_the_hand_calculator_takes_a_shoe_by_rank_counts(server: str) -> None:
    """One deck's counts typed as the shoe: ``hand 8,8 --vs A --shoe ...``'s split EV."""

    shoe = "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16"
    want = cli_json("hand", "8,8", "--vs", "A", "--rules", "deluxe", "--shoe", shoe)
    assert isinstance(want, dict)
    with browser_page(server + "/") as page:
        page.select_option("#rules", "deluxe")
        page.click("nav button[data-tab='hand']")
        page.fill("#hand-cards", "8,8")
        page.fill("#hand-vs", "A")
        page.fill("#hand-shoe", shoe)
        page.click("#hand-go")
        page.wait_for_selector("#hand-out table.hand", timeout=60_000)
        text = page.inner_text("#hand-out")
    assert f"{want['ev']['split']:.6f}" in text and "1D" in text


@pytest.mark.render
def test_the_hand_calculator_picks_suits_for_macaus_suited_six_seven_eight(server: str) -> None:
    """Macau rule 9 in the page: clicking diamonds for the 6 and the 7 types 6d,7d; its EVs
    are ``/api/hand``'s for 6d,7d, and beside them the mixed suits (6d,7s) and no suits
    (6,7), as the API answers them, the suited hit ahead of the mixed one; with the 6s and
    7h gone from one deck, the comparison takes diamonds and clubs. The help line states the
    payouts of ``rules macau-1983`` (Art. 9: a suited 6-7-8 and a 7-7-7 pay 3); Deluxe (no
    bonus) offers no suits, and under an override's 7-7-7 row of any suits the line states
    that row and offers no suit pickers."""
    def api(cards: str) -> dict[str, object]:
        status, data = get(server, f"/api/hand?cards={cards}&vs=T&rules=macau-1983")
        assert status == 200 and isinstance(data, dict)
        return data

    suited, mixed, unknown = api("6d,7d"), api("6d,7s"), api("6,7")
    evs = [d["ev"] for d in (suited, mixed, unknown)]
    assert all(isinstance(e, dict) for e in evs)
    with browser_page(server + "/") as page:
        page.click("nav button[data-tab='hand']")
        page.fill("#hand-cards", "6,7")
        page.wait_for_selector("#suits-box:not([hidden]) .picker", timeout=60_000)
        page.click(".picker[aria-label='suit of 6'] button[data-suit='d']")
        page.click(".picker[aria-label='suit of 7'] button[data-suit='d']")
        typed = page.input_value("#hand-cards")
        pressed = page.get_attribute(".picker[aria-label='suit of 7'] button[data-suit='d']",
                                     "aria-pressed")
        help_line = page.inner_text("#bonus-help")
        page.click("#hand-go")
        page.wait_for_selector("#suits-out table tr[data-action='hit']", timeout=60_000)
        shown = page.inner_text("#hand-out")
        head = page.eval_on_selector_all("#suits-out th", "cells => cells.map(c => c.textContent)")
        hit = page.eval_on_selector_all("#suits-out tr[data-action='hit'] td",
                                        "cells => cells.map(c => c.textContent)")
        page.click("#suits-mixed")
        remixed = page.input_value("#hand-cards")
        # one deck less the 6s and 7h: the comparison's suits are ones the shoe still holds
        page.select_option("#decks", "1")
        page.fill("#hand-cards", "6,7")
        page.fill("#hand-removed", "6s,7h")
        page.click("#hand-go")
        page.wait_for_selector("#suits-out tr[data-action='hit']", timeout=60_000)
        one_deck = page.eval_on_selector_all("#suits-out th",
                                             "cells => cells.map(c => c.textContent)")
        one_deck_errors = page.locator("#suits-out .error").count()
        page.select_option("#rules", "deluxe")
        page.wait_for_function("document.querySelector('#fields-status').textContent"
                               ".startsWith('deluxe')", timeout=60_000)
        deluxe_hidden = page.eval_on_selector("#suits-box", "box => box.hidden")
        # an override's row: the help line reads the table the request will play
        page.fill("#sets", "bonus_hands=7-7-7=5 not-split")
        page.fill("#hand-cards", "7,7")
        page.wait_for_selector("#suits-box:not([hidden])", timeout=60_000)
        override_help = page.inner_text("#bonus-help")
        override_pickers = page.locator("#suit-pickers .picker").count()
    assert typed == "6d,7d" and pressed == "true"
    assert "3\u00d7 the bet for exactly 6-7-8 of one suit" in help_line
    assert "3\u00d7 the bet for exactly 7-7-7 of any suits" in help_line
    assert override_help.startswith("deluxe pays 5\u00d7 the bet for exactly 7-7-7 of any"
                                    " suits, not on split hands;") and override_pickers == 0
    assert "6d,7d vs T" in shown
    for action in ("stand", "hit", "surrender"):
        assert f"{evs[0][action]:.6f}" in shown  # type: ignore[index]
    assert head[1:4] == ["one suit (6d,7d)", "mixed suits (6d,7s)", "suits not given (6,7)"]
    assert hit[1:4] == [f"{e['hit']:.6f}" for e in evs]  # type: ignore[index]
    gain = evs[0]["hit"] - evs[1]["hit"]  # type: ignore[index, operator]
    assert gain > 0 and hit[4] == f"+{gain:.6f}"
    assert remixed == "6d,7s" and deluxe_hidden is True
    assert one_deck[1:3] == ["one suit (6d,7d)", "mixed suits (6d,7c)"] and one_deck_errors == 0


@pytest.mark.render
def test_a_suited_chart_exception_opens_in_the_hand_calculator_with_its_suits(
        server: str) -> None:
    """Macau at 1 deck: the chart lists suited 7-8 vs T (hit, where the chart surrenders);
    clicking it evaluates 7s,8s vs T in the hand calculator, ``/api/hand``'s EVs, with the
    mixed suits (7s,8h) beside it, whose best play is ``/api/hand``'s own for 7s,8h."""
    status, chart = get(server, "/api/chart?rules=macau-1983&decks=1")
    assert status == 200 and isinstance(chart, dict)
    listed = [d for d in chart["exceptions"] if d["suited"]]
    assert [(d["hand"], d["up"]) for d in listed] == [(["7", "8"], "T")]
    answers = []
    for cards in ("7s,8s", "7s,8h"):
        status, data = get(server, f"/api/hand?cards={cards}&vs=T&rules=macau-1983&decks=1")
        assert status == 200 and isinstance(data, dict)
        answers.append(data)
    with browser_page(server + "/") as page:
        page.select_option("#decks", "1")
        page.click("#chart-go")
        page.click("li.exc-item:has-text('7,8 suited vs T')", timeout=60_000)
        page.wait_for_selector("#suits-out tr[data-action='hit']", timeout=60_000)
        typed = page.input_value("#hand-cards"), page.input_value("#hand-vs")
        shown = page.inner_text("#hand-out")
        bold = page.eval_on_selector_all(
            "#suits-out td.best", "cells => cells.map(c => [c.parentElement.dataset.action,"
            " c.cellIndex])")
    assert typed == ("7s,8s", "T")
    # the exception's play for the suited hand, the chart's (Rh: surrender) for the mixed one
    assert (listed[0]["best"], listed[0]["chart"]) == ("hit", "Rh")
    assert (answers[0]["best"], answers[1]["best"]) == ("hit", "surrender")
    assert "7s,8s vs T" in shown and f"{answers[0]['ev']['hit']:.6f}" in shown
    assert [answers[0]["best"], answers[1]["best"]] == [a for a, col in sorted(
        bold, key=lambda b: b[1]) if col in (1, 2)]


@pytest.mark.slow
def test_the_side_bet_endpoints_answer_what_sidebet_prints(server: str) -> None:
    status, data = get(server, "/api/sidebet?name=buster&rules=deluxe&decks=6&removed=5,5,Kh")
    assert status == 200
    assert data == cli_json("sidebet", "bet", "buster", "--rules", "deluxe", "--decks", "6",
                            "--removed", "5,5,Kh")
    status, listed = get(server, "/api/sidebets?list=true")
    assert status == 200 and listed == cli_json("sidebet", "--list")
    status, error = get(server, "/api/sidebet?name=nope")
    assert status == 400 and "unknown side bet 'nope'" in str(error)


@pytest.mark.render
def test_the_side_bet_view_prices_a_bet_again_as_cards_are_removed(server: str) -> None:
    """Pick 21+3 on deluxe at two decks, remove a queen and a five with the face buttons:
    the lines and the EV are ``sidebet 21+3 --removed Q,5``'s."""

    want = cli_json("sidebet", "bet", "21+3", "--rules", "deluxe", "--decks", "2", "--removed",
                    "Q,5")
    assert isinstance(want, dict)
    with browser_page(server + "/") as page:
        page.select_option("#rules", "deluxe")
        page.select_option("#decks", "2")
        page.click("nav button[data-tab='sidebets']")
        page.wait_for_selector("#sb-name option[value='21+3']", state="attached",
                               timeout=60_000)
        page.select_option("#sb-name", "21+3")
        page.click("#sb-faces button[data-face='Q']")
        page.wait_for_selector("#sb-ev", timeout=60_000)
        page.click("#sb-faces button[data-face='5']")
        page.wait_for_function("document.querySelector('#sb-out p').textContent"
                               ".includes('Q,5')", timeout=60_000)
        text = page.inner_text("#sb-out")
    assert f"EV {want['ev']:.6f}" in text
    for line, figures in want["lines"].items():
        assert f"{figures['probability']:.8f}" in text, line


@pytest.mark.slow
@pytest.mark.render
def test_the_side_bet_view_prices_a_baccarat_bet_under_the_baccarat_ruleset(server: str
                                                                            ) -> None:
    """Pick lucky6 while the page's ruleset is deluxe (a blackjack one) at one deck, remove
    a six: the view asks for it under macau-baccarat at the page's decks, ``sidebet lucky6
    --rules macau-baccarat --decks 1 --removed 6``'s lines and EV (not the other game's
    error)."""

    want = cli_json("sidebet", "bet", "lucky6", "--rules", "macau-baccarat", "--decks", "1",
                    "--removed", "6")
    assert isinstance(want, dict)
    with browser_page(server + "/") as page:
        page.select_option("#rules", "deluxe")
        page.select_option("#decks", "1")
        page.click("nav button[data-tab='sidebets']")
        page.wait_for_selector("#sb-name option[value='lucky6']", state="attached",
                               timeout=60_000)
        page.select_option("#sb-name", "lucky6")
        page.click("#sb-faces button[data-face='6']")
        page.wait_for_function("document.querySelector('#sb-out p') && document"
                               ".querySelector('#sb-out p').textContent.includes('6')",
                               timeout=60_000)
        text = page.inner_text("#sb-out")
    assert f"EV {want['ev']:.6f}" in text
    for line, figures in want["lines"].items():
        assert f"{figures['probability']:.8f}" in text, line
