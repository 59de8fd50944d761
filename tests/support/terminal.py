"""The CLI on a pseudo-terminal in tests (the shell's and the drill's sessions)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def on_terminal(args: list[str], env: dict[str, str], cwd: Path, **popen: Any
                ) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``python -m strategy_calc ARGS`` with a new pseudo-terminal as its stdin, stdout
    and stderr: ``(the process, the terminal's master end)``; after the block the process
    is killed if still running and the terminal closed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "strategy_calc", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=env, cwd=cwd, close_fds=True,
                            **popen)
    os.close(slave)
    try:
        yield proc, master
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


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
