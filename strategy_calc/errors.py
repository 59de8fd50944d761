"""The one exception a user's input raises.

Every refusal of bad input (an unknown card, an impossible shoe, a rules file that does
not parse, a flag out of range) raises :class:`InputError` or a subclass of it
(:class:`~strategy_calc.cards.CardError`, :class:`~strategy_calc.rules.RulesError`,
:class:`~strategy_calc.parallel.ExecutionError`). The CLI prints those as one
``error:`` line. Any other ``ValueError`` is a broken invariant inside the library or
the engine, a bug, and keeps its traceback.

>>> issubclass(InputError, ValueError)
True
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be analysed, with a message that says why and what to give.

    A ``ValueError``, so callers that caught ``ValueError`` before keep working.
    """


def missing_engine(exc: ImportError) -> ImportError:
    """The error for a package without its compiled engine, saying what to do.

    The usual cause: Python runs in the source tree (the repository root), whose
    ``strategy_calc/`` folder shadows the installed package and has no build.
    """
    from pathlib import Path

    here = Path(__file__).resolve().parent
    source_tree = (here.parent / "pyproject.toml").is_file()
    why = (f"Python is importing the source folder {here}, which shadows the installed"
           " package and has no build: run from another folder, or build in place for"
           " development with pip install -e . (README, 'Development')") if source_tree \
        else f"the package at {here} was installed without it: reinstall with pip install ."
    return ImportError(f"strategy_calc's compiled engine (strategy_calc._engine) cannot be"
                       f" imported ({exc}): {why}")
