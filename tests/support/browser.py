"""The browser the print and page tests drive: Debian's Chromium, from the system.

Without it those tests skip, unless ``STRATEGY_CALC_REQUIRE_BROWSER=1`` (set by ``.ci/run``,
which installs it) turns the skip into a failure.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest


@functools.cache
def chromium() -> str:
    """The Chromium executable, or a skip (a failure when CI requires a browser)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("STRATEGY_CALC_REQUIRE_BROWSER") == "1":
        pytest.fail("STRATEGY_CALC_REQUIRE_BROWSER=1 but no chromium on PATH")
    pytest.skip("needs Chromium on PATH (Debian: apt-get install chromium)")


@contextlib.contextmanager
def browser_page(url: str, on_request: Callable[[Any], object] | None = None) -> Iterator[Any]:
    """A Playwright page of Debian's Chromium at ``url`` (``on_request`` sees every request
    it makes, from the first), closed with the browser after the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            if on_request is not None:
                page.on("request", on_request)
            page.goto(url)
            yield page
        finally:
            browser.close()
