"""Hand evaluators shared by every game: the games only ever call these.

``high`` (best five, hold'em with own cards, Omaha), ``three`` (three-card
ranks), ``qualifiers``, ``low`` (ace-to-five, deuce-to-seven, eight-or-better),
``soko``, ``joker`` (Pai Gow, Oasis), ``small`` (two-card and Chinese front
hands), ``russian`` (two combinations), ``batch`` (numpy, for math tools),
``baccarat``. See docs/hands.md.

The rankings, as the evaluators see them (these examples are run as tests):

>>> from controller.cards import parse_cards
>>> from controller.hands.high import best_high
>>> royal = best_high(parse_cards("Ts Js Qs Ks As 2c 3d"))
>>> royal.name, royal.category, royal.royal
('Royal flush', 'straight_flush', True)
>>> [str(card) for card in royal.cards]
['As', 'Ks', 'Qs', 'Js', 'Ts']

A higher hand compares greater; the category decides before the ranks:

>>> full = best_high(parse_cards("2c 2d 2h Kc Kd"))
>>> trips = best_high(parse_cards("Ac Ad Ah Ks Qd"))
>>> full.name, trips.name, full > trips
('Full house, twos over kings', 'Three of a kind, aces', True)
>>> hands = [best_high(parse_cards(h)) for h in ("2c 2d 5h 9s Kd", "Ac Kc Qc Jc 9c", "7c 8d 9h Ts Jd")]
>>> [h.category for h in sorted(hands)]
['pair', 'straight', 'flush']

The ace plays low in the wheel, the lowest straight:

>>> wheel, six_high = best_high(parse_cards("5c 4d 3h 2s Ad")), best_high(parse_cards("6c 5d 4h 3s 2d"))
>>> wheel.name, wheel < six_high
('Straight, five high', True)

Equal hands tie, whatever the suits:

>>> best_high(parse_cards("Ah Kd 9c 7s 3h")).value == best_high(parse_cards("As Kc 9d 7h 3c")).value
True

Three cards rank a straight above a flush (Three Card Poker):

>>> from controller.hands.three import three_card
>>> straight, flush = three_card(parse_cards("Ah 2d 3c")), three_card(parse_cards("2h 7h Kh"))
>>> straight.name, straight.value > flush.value
('Straight, three high', True)

Baccarat counts the last digit, blackjack a soft ace:

>>> from controller.hands.baccarat import hand_points
>>> from controller.hands.blackjack import hand_total
>>> hand_points(parse_cards("9h Kd 5s")), hand_total(parse_cards("Ah 6d"))
(4, (17, True))
"""
