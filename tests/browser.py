"""The browser the print and page tests drive: Debian's Chromium, from the system.

Without it those tests skip, unless ``STRATEGY_CALC_REQUIRE_BROWSER=1`` (set by ``.ci/run``,
which installs it) turns the skip into a failure.
"""

from __future__ import annotations

import functools
import os
import shutil

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
