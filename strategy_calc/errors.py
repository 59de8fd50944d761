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
