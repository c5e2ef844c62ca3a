"""Hand evaluators shared by every game: the games only ever call these.

``high`` (best five, hold'em with own cards, Omaha), ``three`` (three-card
ranks), ``qualifiers``, ``low`` (ace-to-five, deuce-to-seven, eight-or-better),
``soko``, ``joker`` (Pai Gow, Oasis), ``small`` (two-card and Chinese front
hands), ``russian`` (two combinations), ``batch`` (numpy, for math tools),
``baccarat``. See docs/hands.md.
"""
