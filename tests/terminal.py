"""Reading a program's pseudo-terminal in tests (the shell's and the drill's sessions)."""

from __future__ import annotations

import os
import select
import time


def read_until(fd: int, marker: bytes, timeout: float = 60.0) -> bytes:
    """Bytes from the terminal ``fd`` until ``marker`` appears (or the timeout: an
    assertion), or until it closes."""
    data = b""
    end = time.monotonic() + timeout
    while marker not in data:
        left = end - time.monotonic()
        assert left > 0, f"no {marker!r} in {data!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data
