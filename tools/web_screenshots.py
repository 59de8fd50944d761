"""Screenshots of each page of ``strategy-calc serve`` (docs/web-*.png), taken by Playwright
driving Debian's Chromium against a real server on loopback.

    python tools/web_screenshots.py [OUT_DIR] [PAGE ...]

PAGE: chart, hand, effects, baccarat (default: all four).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from strategy_calc.cli import run_captured
from strategy_calc.cli.serve import declared
from strategy_calc.web import server as web


def chart(page: Any, out: Path) -> None:
    """Deluxe at 6 decks, hard 16 against a ten clicked."""
    page.select_option("#rules", "deluxe")
    page.select_option("#decks", "6")
    page.click("#chart-go")
    page.wait_for_selector("td.code", timeout=60_000)
    page.click("td.code[data-row='16'][data-up='T']")
    page.wait_for_selector("#cell-out table.hand", timeout=60_000)
    page.screenshot(path=str(out / "web-chart.png"), full_page=True)


def hand(page: Any, out: Path) -> None:
    """Macau at 6 decks: 7,8 against a ten, suits picked (spades), the suited hand beside
    the mixed one (hit against surrender)."""
    page.select_option("#rules", "macau-1983")
    page.select_option("#decks", "")
    page.click("nav button[data-tab='hand']")
    page.fill("#hand-cards", "7,8")
    page.fill("#hand-vs", "T")
    page.wait_for_selector("#suits-box:not([hidden]) .picker", timeout=60_000)
    page.click(".picker[aria-label='suit of 7'] button[data-suit='s']")
    page.click(".picker[aria-label='suit of 8'] button[data-suit='s']")
    page.click("#hand-go")
    page.wait_for_selector("#suits-out table", timeout=60_000)
    page.screenshot(path=str(out / "web-hand.png"), full_page=True)


def effects(page: Any, out: Path) -> None:
    page.select_option("#rules", "deluxe")
    page.select_option("#decks", "6")
    page.click("nav button[data-tab='effects']")
    page.fill("#vary", "surrender=none,late; double_after_split=true,false;"
                       " dealer_hits_soft_17=true,false")
    page.click("#effects-go")
    page.wait_for_selector("#effects-out table", timeout=300_000)
    page.screenshot(path=str(out / "web-effects.png"), full_page=True)


def baccarat(page: Any, out: Path) -> None:
    page.select_option("#decks", "6")
    page.click("nav button[data-tab='baccarat']")
    page.fill("#bac-removed", "5,5,K")
    page.click("#bac-go")
    page.wait_for_selector("#bac-out table", timeout=60_000)
    page.screenshot(path=str(out / "web-baccarat.png"), full_page=True)


PAGES = {"chart": chart, "hand": hand, "effects": effects, "baccarat": baccarat}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    names = sys.argv[2:] or list(PAGES)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with web.serving(run_captured, declared) as url, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name in names:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url + "/")
            PAGES[name](page, out)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
