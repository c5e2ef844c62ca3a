"""Virtual players of the simulated table: one small, stated strategy per game family.

Strategies, not rules. A strategy proposes moves (bets at the start of a
round, decisions when the round asks for one) in the order it prefers; the
virtual croupier tries each on a copy of the round and sends the first the
game takes. Limits, chips, turn order and settlement stay in the games: a
strategy reads the stake range from the round (``Round.stake_limits``) and
never settles anything. A game names its strategy family in its declaration
(``GameSpec.strategy``); ``STRATEGIES`` finds it; a game without one gets the
base strategy and the croupier's generic tries.

The strategies (docs/simulation.md repeats them):

- Punto Banco: one to five players, each on punto or banco (tie where
  offered, one time in ten).
- Roulette, Tärning, Sic Bo: one to five players, each with a chip colour
  (Swedish tables: one colour per player and seat, seed 000 rule 7), one to
  three bets each, a kind of bet picked at random and then a spot of it, so
  inside and outside bets both come up.
- Blackjack: a main bet per box, sometimes Over/Under 13 where offered;
  never insurance; split aces and eights, double on 10 and 11 where allowed,
  hit below 17 (soft: below 18), else stand; the burn puck goes to the box the
  round expects it at, and the puck box burns when the dealer shows a ten or
  an ace.
- The poker room (players against each other): two to six players buy in
  at the first hand (the table's minimum to three times it), a player who
  went broke buys in again half the time; at their turn a player folds one
  time in eight (never when a check is free), bets or raises one time in
  five (the least raise up to three times it, within what the round allows),
  goes all in one time in forty, and otherwise checks or calls; a draw
  throws zero to three cards, a Pineapple discard the lowest card.
- Chinese Poker: two to four players sit in; each sets its lowest three
  cards in front, the next five in the middle, the highest five at the back.
- Open Face Chinese Poker: each card, highest first, to the back until it is
  full, then to the middle, then to the front.
- Banked poker (Caribbean Stud, Three Card Poker, Fast Poker, Hold em):
  a main bet per box, side bets (progressive, Pair Plus, bonus) about a third
  of the time; play, raise or call with a pair or better, ace-king (five
  cards) or queen high (three cards), else fold.
- Hold'em with several streets (Ultimate Texas Hold'em, Texas Hold'em Bonus,
  Dynamic Poker Pro): the main bet and the bets that must equal it (the
  blind), side bets about a third of the time; each decision is the one the
  game's round suggests (``suggested``: the stated strategy on its docs page).
- Red Dog, Bulldog: one to three spots, now and then one or two more players
  on a spot (each named, one spot each); each raises the whole bet where the
  round says the strategy would (``wants_raise``: a spread of seven or more).
- Baccara (chemin de fer): a seat banks a few chips' worth; one to four
  others stake against it within the bank, one round in eight a banco solo,
  one in ten a banco avec beside the banker; at a choice punto draws on 5
  and banco draws on 3 against a 9 (``wants``), and so against a banco solo.
- Oasis Stud Poker: an ante on one to four boxes, the bonus about a third
  of the time; bet with a pair or better or ace-king, else switch the odd
  card of four to a flush where switching is allowed, else fold where the
  dealer opens with ace-king and bet where he needs a pair; buy the dealer
  a game with two pair or better (``suggested``, ``buys``).
- Russian Poker: an ante on one to four boxes, the bonus about a third of
  the time; raise with a pair or better, buy a sixth card with four to a
  flush or four in sequence, else exchange the cards below a queen (as many
  as the version allows; where it allows only two, fold instead), and after
  it raise with a pair or better or fold;
  insure the ante with three of a kind or better; buy the dealer a game when
  the raise's line pays 4 to 1 or more (``suggested``, ``buys_dealer``).
- Pai Gow Poker: one to four boxes bet; where players bank, one box banks one
  round in three (the dealer's stake against it about the box's usual bet);
  every player, the banker too, asks for the house way (``set`` without cards).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence, Union

from controller.cards import Card
from controller.events import Action, Bet, CloseBets, Event, Puck
from controller.games.banked_poker import BOARD, BankedPokerRound
from controller.games.blackjack.round import BlackjackRound
from controller.games.contract import GameSpec, Prompt, Round, chip_unit
from controller.games.holdem_streets import StreetsRound
from controller.games.baccara import BaccaraRound
from controller.games.layout_game import LayoutRound
from controller.games.five_card_stud import FiveCardStudRound
from controller.games.oasis_stud import OasisRound, buys, rank_hand
from controller.games.pai_gow_poker import PaiGowRound
from controller.games.russian_poker import RussianRound, buys_dealer, insures
from controller.games.red_dog import RedDogRound
from controller.hands.blackjack import ACE, card_value
from controller.hands.high import best_high

CARD = "card"  # a move: the croupier draws the next card from the shoe (a blackjack hit)
Move = Union[Event, str]
COLOURS = ("red", "green", "blue", "yellow", "white", "pink", "orange", "purple", "brown", "grey")


def stake_range(round_: Round, spot: str) -> tuple[int, int | None]:
    """The [minimum, maximum] of one stake on ``spot``, as the round itself reads its limits."""
    return round_.stake_limits(spot)


class Players:
    """The base strategy: amounts within the round's limits in whole chips; no decisions."""

    def __init__(self, spec: GameSpec, rng: random.Random, unit: int = 100) -> None:
        self.spec = spec
        self.rng = rng
        self.unit = unit

    def spots(self, round_: Round) -> list[str]:
        """The bet spots the table's variant offers (from the game's declaration)."""
        return [s.name for s in self.spec.spots_for(round_.config.variant)]

    def amount(self, round_: Round, spot: str, scale: int = 1) -> int:
        """A stake a player would put down: a few chips, at least the minimum, at most the maximum."""
        unit = chip_unit(round_, self.unit)
        low, high = stake_range(round_, spot)
        low = -(-max(low, unit) // unit) * unit
        amount = max(low, unit * self.rng.choice((1, 1, 2, 2, 3, 5, 10)) * scale)
        if high is not None and amount > high:
            amount = max(low, high - high % unit)
        return amount

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        """The bets of a new round, in the order the players put them down (here: any declared spot)."""
        spots = self.spots(round_)
        return [Bet(self.rng.randint(1, boxes), spot, self.amount(round_, spot))
                for spot in (self.rng.choice(spots) for _ in range(self.rng.randint(1, 5)))] if spots else []

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        """What the players want now, most wanted first (the croupier sends the first the round takes)."""
        return []


class BaccaratPlayers(Players):
    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        spots = [s for s in ("punto", "banco", "tie") if s in self.spots(round_)]
        out = []
        for seat in self.rng.sample(range(1, boxes + 1), self.rng.randint(1, min(5, boxes))):
            spot = "tie" if "tie" in spots and self.rng.random() < 0.1 else self.rng.choice(spots[:2])
            out.append(Bet(seat, spot, self.amount(round_, spot)))
        return out


class LayoutPlayers(Players):
    """Roulette, Tärning, Sic Bo: colours, a kind of bet at random, then one of its spots."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        assert isinstance(round_, LayoutRound)
        by_kind: dict[str, list[str]] = {}
        for shape in round_.rules.table:
            by_kind.setdefault(shape.kind, []).append(shape.name)
        seats = int(round_.config.get("seats", 10) or 10)
        players = self.rng.randint(1, min(5, seats, len(COLOURS)))
        out = []
        for seat, colour in zip(self.rng.sample(range(1, seats + 1), players), self.rng.sample(COLOURS, players)):
            for _ in range(self.rng.randint(1, 3)):
                spot = self.rng.choice(by_kind[self.rng.choice(sorted(by_kind))])
                out.append(Bet(seat, spot, self.amount(round_, spot), colour))
        return out


class PokerPlayers(Players):
    """The banked poker games: a main bet per box, side bets now and then, play with a qualifying hand."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        assert isinstance(round_, BankedPokerRound)
        boxes = min(boxes, int(round_.config.get("boxes", boxes)))
        main = round_.main_spot
        out: list[Bet] = []
        carried = {b.seat: b.amount for b in round_.bets if b.spot in round_.action_spots and b.amount}
        for seat, amount in carried.items():  # a raise carried from the last round: the ante that matches it
            assert amount is not None
            out.extend(Bet(seat, main, amount // m) for m in (2, 3, 1) if amount % m == 0)
        free = [s for s in range(1, boxes + 1) if s not in carried]
        for seat in sorted(self.rng.sample(free, self.rng.randint(min(1, len(free)), min(4, len(free))))):
            out.append(Bet(seat, main, self.amount(round_, main)))
        for seat in sorted({b.seat for b in out}):
            for side in round_.side_spots:
                if self.rng.random() < 0.35:
                    out.append(Bet(seat, side, self._side_amount(round_, side)))
        return out

    def _side_amount(self, round_: BankedPokerRound, spot: str) -> int:
        if spot == "progressive" and round_.config.get("progressive_stake"):
            return int(round_.config["progressive_stake"])  # one chip of the progressive's own value
        return self.amount(round_, spot)

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, BankedPokerRound) or not prompt or "action" not in prompt.expects:
            return []
        play = next(d for d in round_.decisions if d != "fold")
        out: list[Move] = []
        for seat in round_.boxes_in_play():
            if seat in round_.decided:
                continue
            cards = round_.hand_of(seat) + round_.hand_of(BOARD)
            out.append(Action(seat, play if qualifies(cards) else "fold"))
            out.append(Action(seat, "fold"))  # if the stake of the play does not fit the limits
        return out


class StreetsPlayers(PokerPlayers):
    """Hold'em with several streets: the main bet with its equal bets, side bets now and then, the suggested play."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        assert isinstance(round_, StreetsRound)
        out = []
        for bet in super().bets(round_, boxes):
            if bet.spot in round_.equal_spots:
                continue
            out.append(bet)
            if bet.spot == round_.main_spot:
                out.extend(Bet(bet.seat, spot, bet.amount) for spot in round_.equal_spots)
        return out

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, StreetsRound) or not prompt or "action" not in prompt.expects:
            return []
        out: list[Move] = []
        for seat in round_.waiting:
            out.append(round_.suggested(seat))
            out.extend(Action(seat, name) for name in ("check", "fold"))  # if the suggested stake does not fit
        return out


class RedDogPlayers(Players):
    """Red Dog and Bulldog: a bet per spot, back bettors now and then, raise the whole bet on a wide spread."""

    NAMES = ("anna", "bo", "eva", "cid", "dan", "liv")

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        boxes = min(boxes, int(round_.config.get("boxes", boxes)))
        names = list(self.NAMES)
        self.rng.shuffle(names)
        out = []
        for seat in sorted(self.rng.sample(range(1, boxes + 1), self.rng.randint(1, min(3, boxes)))):
            out.append(Bet(seat, "bet", self.amount(round_, "bet")))
            for _ in range(self.rng.choice((0, 0, 0, 1, 2))):
                out.append(Bet(seat, "bet", self.amount(round_, "bet"), names.pop()))
        return out

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, RedDogRound) or not prompt or "action" not in prompt.expects:
            return []
        raised = {(r.seat, r.player) for r in round_.raises}
        out: list[Move] = [Action(b.seat, "raise", player=b.player) for b in round_.bets
                           if (b.seat, b.player) not in raised and round_.wants_raise(b.seat, b.player)]
        return out + [CARD]


class CheminDeFerPlayers(Players):
    """Baccara, chemin de fer: a banker, stakes against the bank within it, now and then banco solo or avec."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        seats = int(round_.config.get("seats", boxes))
        order = self.rng.sample(range(1, seats + 1), min(seats, self.rng.randint(2, 5)))
        banker, others = order[0], order[1:]
        bank = self.amount(round_, "bank", 4) * 2  # even, so that half the bank is a stake
        out = [Bet(banker, "bank", bank)]
        if self.rng.random() < 1 / 8:
            return out + [Bet(others[0], "banco_solo", bank)]
        if len(others) > 1 and self.rng.random() < 1 / 10:
            out.append(Bet(others.pop(), "banco_avec", bank // 2))
        room = bank
        for seat in others:
            amount = min(room, self.amount(round_, "punto"))
            if amount > 0:
                out.append(Bet(seat, "punto", amount))
                room -= amount
        return out

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, BaccaraRound) or not prompt or "action" not in prompt.expects:
            return [CARD] if prompt and "card" in prompt.expects else []
        side = round_.pending
        return [Action(prompt.seat, round_.wants(side))] if side and prompt.seat is not None else []


class StudPlayers(Players):
    """Oasis Stud and Russian Poker: antes, a bonus now and then, the stated decisions (the game's ``suggested``),
    buying the dealer a game and (Russian Poker) insurance where the game's stated strategy says so."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        boxes = min(boxes, int(round_.config.get("boxes", boxes)))
        out = []
        for seat in sorted(self.rng.sample(range(1, boxes + 1), self.rng.randint(1, min(4, boxes)))):
            out.append(Bet(seat, "ante", self.amount(round_, "ante")))
            if self.rng.random() < 0.35:
                out.append(Bet(seat, "bonus", self.amount(round_, "bonus")))
        return out

    def buys(self, round_: FiveCardStudRound, seat: int) -> bool:
        """Whether the box buys the dealer a game (the game's stated strategy)."""
        if isinstance(round_, OasisRound):
            return buys(round_.table, rank_hand(round_.config, round_.hands[seat]))
        return isinstance(round_, RussianRound) and buys_dealer(round_.line_of(seat))

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, FiveCardStudRound) or not prompt:
            return []
        if round_.owed or "action" not in prompt.expects:
            return [CARD] if "card" in prompt.expects else []
        if round_.phase == "buy":
            wanted: list[Move] = [Action(s, "buy_dealer") for s in round_.boxes()
                                  if round_.decided.get(s) == round_.played and s not in round_.buyers
                                  and self.buys(round_, s)]
            return wanted + [CloseBets()]
        if round_.phase == "insure" and isinstance(round_, RussianRound):
            insuring: list[Move] = [Action(s, "insurance") for s in round_.boxes()
                                    if round_.decided.get(s) == "raise" and s not in round_.insured
                                    and insures(best_high(round_.hands[s]))]
            return insuring + [CloseBets()]
        out: list[Move] = []
        for seat in [s for s in round_.boxes() if s not in round_.decided]:
            out += [round_.suggested(seat), Action(seat, "fold")]
        return out


class PaiGowPlayers(Players):
    """Pai Gow Poker: a bet on one to four boxes, a banker now and then, every hand set the house way."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        boxes = min(boxes, int(round_.config.get("boxes", boxes)))
        seats = sorted(self.rng.sample(range(1, boxes + 1), self.rng.randint(1, min(4, boxes))))
        out = []
        if round_.config.get("player_banking") and self.rng.random() < 1 / 3:
            banker = seats.pop(0) if len(seats) > 1 else seats[0]
            out.append(Bet(banker, "bank", self.amount(round_, "bank")))
            seats = [s for s in seats if s != banker]
        return out + [Bet(seat, "bet", self.amount(round_, "bet")) for seat in seats]

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, PaiGowRound) or not prompt or "action" not in prompt.expects:
            return []
        return [Action(prompt.seat, "set")] if prompt.seat is not None else []


def qualifies(cards: Sequence[Card]) -> bool:
    """The players' rule: a pair or better; with five or more cards ace-king; with three, queen high."""
    ranks = [c.rank for c in cards]
    if not ranks:
        return False
    if max(Counter(ranks).values()) >= 2:
        return True
    if len(ranks) >= 5:
        return 14 in ranks and 13 in ranks
    return len(ranks) <= 3 and max(ranks) >= 12


class PokerRoomPlayers(Players):
    """Players against each other: buy-ins between hands, then a loose, seeded betting style.

    The poker room's rounds (and PokerKit under them) are imported where these players play, so that a
    daemon of another game does not load them before it is ready.
    """

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        from controller.games.poker_room.round import PokerRoomRound

        assert isinstance(round_, PokerRoomRound)
        if round_.hand is not None:
            return []
        minimum = int(round_.config["buy_in"])
        maximum = round_.config["max_buy_in"]
        unit = max(1, self.unit)
        seats = int(round_.config["seats"])
        out = []
        if not round_.stacks:
            for seat in sorted(self.rng.sample(range(1, seats + 1), self.rng.randint(2, min(6, seats)))):
                amount = -(-minimum // unit) * unit * self.rng.choice((1, 2, 3))
                out.append(Bet(seat, "buy_in", amount if maximum is None else min(amount, maximum)))
        else:
            empty = [seat for seat in range(1, seats + 1) if seat not in round_.stacks]
            self.rng.shuffle(empty)
            want = max(0, 2 - len(round_.stacks)) + (1 if len(round_.stacks) < 6 and self.rng.random() < 0.5 else 0)
            for seat in sorted(empty[:want]):
                out.append(Bet(seat, "buy_in", -(-minimum // unit) * unit))
        return out

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        from controller.games.poker_room.round import PokerRoomRound

        if not isinstance(round_, PokerRoomRound) or round_.complete:
            return []
        legal = round_.legal()
        waiting = legal["waiting"]
        if waiting == "table":
            return [CloseBets()]
        if waiting == "card":
            return [CARD]
        hand = round_.hand
        assert hand is not None
        if waiting == "discard":
            out: list[Move] = []
            for seat in legal["boxes"]:
                cards = hand.hole_now(round_.order.index(seat))
                out.append(Action(seat, "discard", cards=tuple(sorted(cards)[:legal["cards"]])))
            return out
        seat = legal["box"]
        acts = legal["actions"]
        if acts == ["draw", "stand_pat"]:
            cards = hand.hole_now(round_.order.index(seat))
            count = self.rng.choice((0, 1, 2, 3))
            thrown = tuple(self.rng.sample(cards, count)) if count else ()
            keep = Action(seat, "stand_pat")
            return [Action(seat, "draw", cards=thrown) if thrown else keep, keep]
        roll = self.rng.random()
        wants: list[Move] = []
        if "bring_in" in acts:
            wants.append(Action(seat, "bring_in"))
        raise_name = next((a for a in ("bet", "raise", "complete") if a in acts), None)
        if roll < 1 / 40 and (raise_name or "call" in acts):  # every chip: as the round's prompt offers it
            wants.append(Action(seat, "all_in"))
        elif roll < 0.2 and raise_name:
            low, high = legal["min_to"], legal["max_to"]
            amount = min(high, self.rng.randint(low, 3 * low))
            wants.append(Action(seat, raise_name, amount=amount))
        elif roll < 0.325 and "call" in acts:
            wants.append(Action(seat, "fold"))
        wants += [Action(seat, "check"), Action(seat, "call"), Action(seat, "fold")]
        return wants


class ChinesePokerPlayers(Players):
    """Chinese Poker: two to four players sit in; each sets the lowest three cards in front, the next five in the
    middle and the highest five at the back (often right, sometimes a foul, as at a real table)."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        seats = int(round_.config["seats"])
        return [Bet(s, "points") for s in sorted(self.rng.sample(range(1, seats + 1), self.rng.randint(2, seats)))]

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        from controller.games.poker_room.chinese import ChinesePokerRound

        assert isinstance(round_, ChinesePokerRound)
        if not round_.dealing:
            return [CloseBets()]
        if prompt is not None and "card" in prompt.expects:
            return [CARD]
        out: list[Move] = []
        for seat, cards in round_.hands.items():
            if seat not in round_.sets:
                ordered = sorted(cards, key=lambda c: (c.rank, c.suit))
                out.append(Action(seat, "set", cards=tuple(ordered[:8])))
        return out


class OpenFacePlayers(ChinesePokerPlayers):
    """Open Face Chinese Poker: each card to the back until it is full, then the middle, then the front."""

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        from controller.games.poker_room.open_face import OpenFaceRound

        assert isinstance(round_, OpenFaceRound)
        if not round_.dealing:
            return [CloseBets()]
        if prompt is not None and "card" in prompt.expects:
            return [CARD]
        out: list[Move] = []
        for seat in round_.to_place():
            card = sorted(round_.unplaced(seat), key=lambda c: (c.rank, c.suit), reverse=True)[0]
            row = next(r for r in ("back", "middle", "front") if len(round_.rows[seat][r]) < {"front": 3}.get(r, 5))
            out.append(Action(seat, row, cards=(card,)))
        return out


class BlackjackPlayers(Players):
    """Basic-ish blackjack: never insure, split aces and eights, double 10-11, hit below 17 (soft 18)."""

    def bets(self, round_: Round, boxes: int) -> list[Bet]:
        boxes = min(boxes, int(round_.config.get("boxes", boxes)))
        spots = self.spots(round_)
        out = []
        for seat in sorted(self.rng.sample(range(1, boxes + 1), self.rng.randint(1, min(5, boxes)))):
            out.append(Bet(seat, "main", self.amount(round_, "main")))
            side = [s for s in ("over13", "under13") if s in spots]
            if side and self.rng.random() < 0.2:
                spot = self.rng.choice(side)
                out.append(Bet(seat, spot, self.amount(round_, spot)))
        return out

    def moves(self, round_: Round, prompt: Prompt | None) -> list[Move]:
        if not isinstance(round_, BlackjackRound) or prompt is None:
            return []
        expects = prompt.expects
        if "puck" in expects:  # no more bets once the puck lies right, else move it (to a box raising no alert)
            seen = getattr(round_, "puck_seen", None)
            moves: list[Move] = [CloseBets()]
            return moves + [Puck(seat) for seat in sorted(round_.boxes) if seat != seen]
        if "burn" in expects and prompt.seat is not None:
            up = card_value(round_.dealer[0]) if round_.dealer else 0
            return [Action(prompt.seat, "burn")] if up in (10, ACE) else [CARD]
        if "insurance" in expects and "close_bets" in expects:
            return [CloseBets()] + self._play(round_, prompt)  # no insurance: no more insurance, then play
        return self._play(round_, prompt)

    def _play(self, round_: BlackjackRound, prompt: Prompt) -> list[Move]:
        seat = prompt.seat
        box = round_.boxes.get(seat) if seat is not None else None
        hand = next((h for h in box.hands if not h.done), None) if box else None
        deciding = CARD in prompt.expects or "stand" in prompt.expects
        if seat is None or hand is None or len(hand.cards) < 2 or not deciding:
            return [CARD] if CARD in prompt.expects else []
        total, soft = hand.total
        values = hand.values
        wants: list[Move] = []
        if len(values) == 2 and values[0] == values[1] and values[0] in (ACE, 8):
            wants.append(Action(seat, "split"))
        if total in (10, 11) and not soft:
            wants.append(Action(seat, "double"))
        wants.append(CARD if total < (18 if soft else 17) else Action(seat, "stand"))
        wants.append(Action(seat, "stand"))
        return [w for w in wants if w == CARD and CARD in prompt.expects or isinstance(w, Action)]


STRATEGIES: dict[str, type[Players]] = {
    "baccarat": BaccaratPlayers,
    "layout": LayoutPlayers,
    "poker": PokerPlayers,
    "holdem-streets": StreetsPlayers,
    "blackjack": BlackjackPlayers,
    "red-dog": RedDogPlayers,
    "pai-gow": PaiGowPlayers,
    "oasis": StudPlayers,
    "russian": StudPlayers,
    "chemin-de-fer": CheminDeFerPlayers,
    "poker-room": PokerRoomPlayers,
    "chinese-poker": ChinesePokerPlayers,
    "open-face-chinese": OpenFacePlayers,
}
"""Strategy family (``GameSpec.strategy``) -> the virtual players of that family."""


def players_for(spec: GameSpec, round_: Round, rng: random.Random, unit: int = 100) -> Players:
    """The strategy the game names; a game without one (or of a family not known here) gets the base."""
    return STRATEGIES.get(spec.strategy or "", Players)(spec, rng, unit)


__all__ = ["CARD", "STRATEGIES", "Move", "Players", "players_for", "qualifies", "stake_range"]
