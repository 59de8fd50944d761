"""The drill's history: Leitner boxes per question, kept in a JSON file."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strategy_calc.errors import InputError

BOXES = 5
"""Leitner boxes: 1 (missed lately) to 5 (mastered)."""


NEW_BOX = 3
"""The box of a cell never asked."""


HISTORY_VERSION = 1


def default_history_path() -> Path:
    """``$XDG_DATA_HOME/strategy_calc/drill-history.json`` (default ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "strategy_calc" / "drill-history.json"


@dataclass(frozen=True, slots=True)
class History:
    """The drill's memory: per ruleset (its one-line summary, ``str(rules)``), each cell's
    Leitner box, times asked and missed, and one line per session.

    >>> h = History().record("deluxe: 8D", [("hard 16 vs T", False), ("hard 12 vs 4", True)])
    >>> h.boxes("deluxe: 8D")
    {'hard 16 vs T': 1, 'hard 12 vs 4': 4}
    """

    data: Mapping[str, Any] = field(default_factory=lambda: {"version": HISTORY_VERSION,
                                                              "rulesets": {}})

    @classmethod
    def load(cls, path: Path) -> History:
        """The history in ``path`` (an empty one when the file does not exist);
        :class:`InputError` for a file that is not a drill history."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            raise InputError(f"cannot read the drill history {path}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise InputError(f"{path} is not a drill history (not JSON)") from None
        if not _is_history(data):
            raise InputError(f"{path} is not a drill history (version {HISTORY_VERSION}):"
                             " move it away or give another --history FILE")
        return cls(data)

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file in the same folder, then ``os.replace``, so
        an interrupted write never leaves a broken history."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".drill-history-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.data, out, indent=1, allow_nan=False)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def boxes(self, ruleset: str) -> dict[str, int]:
        """Each cell's Leitner box under ``ruleset``."""
        cells = self.data["rulesets"].get(ruleset, {}).get("cells", {})
        return {cell: int(entry["box"]) for cell, entry in cells.items()}

    def record(self, ruleset: str, answers: Iterable[tuple[str, bool]],
               session: Mapping[str, Any] | None = None) -> History:
        """A new history with these (cell, right) answers applied in order: a miss sends a
        cell to box 1, a right answer moves it up one box (at most 5); ``session``: a
        summary line appended to the ruleset's sessions."""
        data = json.loads(json.dumps(self.data))
        entry = data["rulesets"].setdefault(ruleset, {"cells": {}, "sessions": []})
        for cell, right in answers:
            c = entry["cells"].setdefault(cell, {"box": NEW_BOX, "asked": 0, "missed": 0})
            c["asked"] += 1
            if right:
                c["box"] = min(BOXES, c["box"] + 1)
            else:
                c["missed"] += 1
                c["box"] = 1
        if session is not None:
            entry["sessions"].append(dict(session))
        return History(data)

    def stats(self) -> dict[str, Any]:
        """Per ruleset: its sessions, how many cells sit in each box, the cells in box 1."""
        out = {}
        for name, entry in self.data["rulesets"].items():
            cells = entry.get("cells", {})
            boxes = {str(b): sum(1 for c in cells.values() if c["box"] == b)
                     for b in range(1, BOXES + 1)}
            out[name] = {"sessions": list(entry.get("sessions", [])), "boxes": boxes,
                         "weak_cells": sorted(c for c, e in cells.items() if e["box"] == 1)}
        return out


def _is_history(data: object) -> bool:
    """Whether ``data`` has the shape :class:`History` writes (so reading it cannot fail
    halfway through a session).

    >>> _is_history({"version": 1, "rulesets": {"r": {"cells": {"hard 16 vs T": {
    ...     "box": 1, "asked": 1, "missed": 1}}, "sessions": []}}})
    True
    >>> _is_history({"version": 1, "rulesets": {"r": {"cells": {"x": {"box": 9}}}}})
    False
    """
    if not isinstance(data, dict) or data.get("version") != HISTORY_VERSION:
        return False
    rulesets = data.get("rulesets")
    if not isinstance(rulesets, dict):
        return False
    for entry in rulesets.values():
        if not (isinstance(entry, dict) and isinstance(entry.get("cells"), dict)
                and isinstance(entry.get("sessions"), list)):
            return False
        for cell in entry["cells"].values():
            if not (isinstance(cell, dict) and all(
                    type(cell.get(k)) is int for k in ("box", "asked", "missed"))
                    and 1 <= cell["box"] <= BOXES):
                return False
        if not all(isinstance(session, dict) for session in entry["sessions"]):
            return False
    return True
