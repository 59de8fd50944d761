"""Side bets as data: a named event on the cards of a round with a pay table, exact for
any shoe.

- :mod:`~strategy_calc.sidebets.events`: the events (which cards of the round each looks
  at, the lines it can settle on, the rule that settles them);
- :mod:`~strategy_calc.sidebets.paytables`: side bets as TOML (the built-ins in
  ``builtin/``, a user's file), read and validated;
- :mod:`~strategy_calc.sidebets.exact`: the exact probability of every line for a shoe of
  cards counted per face and suit, the EV, SD and effects of removal.
"""
