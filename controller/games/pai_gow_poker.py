"""Pai Gow Poker (seed 002 "I Pai Gow Poker strävar spelaren ..."): two hands of seven cards against the bank.

53 cards (the joker completes a straight, flush or straight flush, otherwise
it is an ace). Seven cards to every box with a bet, box by box from box 1
upward, then the dealer's seven. Each player sets a front hand of two cards
and a back hand of five (``set`` with the two front cards; ``set`` without
cards asks for the house way); the front must be weaker than the back or the
hand is a foul and loses. The dealer's hand is set by the house way
(``controller.games.pai_gow_house_way``, the rules as data). Both hands better
than the bank's: a win, 1 to 1 less 5 % commission; one better and one not: a
push; copies (equal hands) go to the bank. With ``player_banking`` a player
banks (spot ``bank``, its amount the dealer's stake against the banker): the
players and the dealer's hand play against the banker's hands, and the
banker's win pays the house 5 %. The rules of one contest are the plain
functions ``contest`` and ``player_net``, which the house-edge tool settles
through.
"""

from __future__ import annotations

from math import gcd
from typing import Any, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, Void
from controller.games.contract import (
    ActionSpec, BetsThenCardsRound, Effect, GameSpec, OptionSpec, Outcome, Prompt, ReaderSpec, Reject, RoundConfig,
    Settlement, SpotSpec, VariantSpec, check_stake, handles, settle_fixed, settle_void,
)
from controller.games.pai_gow_house_way import (
    HouseWay, HouseWayError, back_value, front_value, legal, parse_house_way, set_hand,
)
from controller.hands.joker import pai_gow_high
from controller.hands.small import pai_gow_front
from controller.money import Odds

CARDS = 7
DEALER = 0

# --------------------------------------------------------------------------- the rules as functions


def contest(hand: tuple[int, int] | None, bank: tuple[int, int] | None) -> str:
    """A hand's (front value, back value) against the bank's: ``win``, ``push`` or ``lose``; None is a foul.

    Both hands better: a win; one better: a push; neither: a loss; a copy (equal values) counts for the bank
    (002: 'Om spelarens och bankens händer ... är likvärdiga ... vinner banken'). A fouled hand loses; a fouled
    bank (a player banking who set it wrong) loses to every hand set right.
    """
    if hand is None:
        return "lose"
    if bank is None:
        return "win"
    better = (hand[0] > bank[0]) + (hand[1] > bank[1])
    return ("lose", "push", "win")[better]


def win_odds(table: Mapping[str, Any], key: str = "commission_percent") -> Odds:
    """1 to 1 less the commission, as odds: 5 % is 19 to 20."""
    paid, per = table["win"]
    keep = 100 - int(table[key])
    numerator, denominator = int(paid) * keep, int(per) * 100
    common = gcd(numerator, denominator)
    return Odds(numerator // common, denominator // common)


def player_net(table: Mapping[str, Any], result: str, stake: int) -> int:
    """What a stake nets on ``result`` (the commission off a win, rounded down)."""
    if result == "win":
        return win_odds(table).win(stake)[0]
    return -stake if result == "lose" else 0


def banker_net(table: Mapping[str, Any], gross: int) -> int:
    """The banker's net after the house's commission on a win (002: 'tas en kommission om fem procent ut')."""
    if gross <= 0:
        return gross
    return gross * (100 - int(table["banker_commission_percent"])) // 100


def values_of(front: Sequence[Card], back: Sequence[Card]) -> tuple[int, int] | None:
    """(front value, back value), or None for a foul (the front not weaker than the back)."""
    return (front_value(front), back_value(back)) if legal(front, back) else None


def house_way_of(config: RoundConfig, check: bool = False) -> HouseWay:
    """The table's house way: the ``house_way`` option (a casino's own), else the seed's from the paytable;
    ``check`` also sets the fixed sample hands by it (the configuration check does). A casino's house way that
    is empty is refused, not taken for the seed's."""
    own = config.get("house_way")
    return parse_house_way(own if own is not None else config.paytable["house_way"], check=check)


# --------------------------------------------------------------------------- the round


class PaiGowRound(BetsThenCardsRound):
    game_name = "Pai Gow Poker"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = list(carried)
        self.banker: Bet | None = None
        self.hands: dict[int, list[Card]] = {}
        self.order: list[int] = []
        self.sets: dict[int, tuple[tuple[Card, ...], tuple[Card, ...], str]] = {}
        self.phase = "bets"  # bets -> deal -> set -> done
        self.betting_open = True
        self._outcome: dict[str, Any] | None = None
        self._settlements: list[Settlement] = []

    @property
    def table(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self.config.paytable[self.config.variant]
        return table

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        configured = self.config["limits"].get(spot)
        return (configured[0], configured[1]) if configured else (0, None)

    # ------------------------------------------------------------------ events

    @handles(Bet)
    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the cards are being dealt")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        if bet.spot == "bank":
            if not self.config["player_banking"]:
                raise Reject("players do not bank at this table (option player_banking)")
            if self.banker is not None:
                raise Reject(f"box {self.banker.seat} banks this round: one banker a round")
            if any(b.seat == bet.seat for b in self.bets):
                raise Reject(f"box {bet.seat} has a bet: the banker's box plays only the bank")
        elif bet.spot == "bet":
            if any(b.seat == bet.seat for b in self.bets):
                raise Reject(f"box {bet.seat} already has a bet")
            if self.banker is not None and self.banker.seat == bet.seat:
                raise Reject(f"box {bet.seat} banks: it cannot bet against itself")
        else:
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: bet"
                         f"{', bank' if self.config['player_banking'] else ''})")
        low, high = self.stake_limits(bet.spot)
        check_stake(bet.spot, bet.amount, low, high)
        if bet.spot == "bank":
            self.banker = bet
        else:
            self.bets.append(bet)
        return []

    def _close(self) -> list[Effect]:
        if not self.bets and self.banker is None:
            raise Reject("no bets: nothing to deal")
        if self.banker is not None and not self.bets and not self.banker.amount:
            raise Reject("the banker has nobody to play: a bet, or the dealer's stake on the bank")
        self.phase = "deal"
        self.betting_open = False
        seats = {b.seat for b in self.bets} | ({self.banker.seat} if self.banker else set())
        self.order = sorted(seats) + [DEALER]
        self.hands = {s: [] for s in self.order}
        return [Prompt(f"No more bets. Seven cards to {self._who(self.order[0])}", expects=("card",))]

    @staticmethod
    def _who(seat: int) -> str:
        return "the dealer" if seat == DEALER else f"box {seat}"

    def _next_hand(self) -> int | None:
        return next((s for s in self.order if len(self.hands[s]) < CARDS), None)

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if self.phase == "bets":
            effects.extend(self._close())
        if self.phase != "deal":
            raise Reject("every hand has its seven cards; no card expected now")
        out = [c for h in self.hands.values() for c in h]
        if card in out:
            raise Reject(f"{card} is already out in this deal: one deck and a joker (misdeal?)")
        seat = self._next_hand()
        assert seat is not None
        self.hands[seat].append(card)
        following = self._next_hand()
        if following is not None:
            if following != seat:
                effects.append(Prompt(f"Seven cards to {self._who(following)}", expects=("card",)))
            return effects
        dealt = set_hand(house_way_of(self.config), self.hands[DEALER])
        self.sets[DEALER] = (dealt.front, dealt.back, dealt.rule)
        self.phase = "set"
        return effects + [self._set_prompt()]

    def _waiting(self) -> list[int]:
        return [s for s in self.order if s != DEALER and s not in self.sets]

    def _set_prompt(self) -> Prompt:
        waiting = self._waiting()
        return Prompt(f"Box {waiting[0]}: set the hands (the two front cards, or the house way)", seat=waiting[0],
                      expects=("action",))

    @handles(Action)
    def _set(self, action: Action) -> list[Effect]:
        if action.action != "set":
            raise Reject(f"'{action.action}' is not a decision at Pai Gow Poker (set, with the two front cards)")
        if self.phase != "set":
            raise Reject(f"no hands to set now (waiting for {self.waiting_for()})")
        seat = action.seat
        if seat not in self.hands or seat == DEALER:
            raise Reject(f"box {seat} has no hand in this deal")
        if seat in self.sets:
            raise Reject(f"box {seat} has set its hands already")
        if action.hand is not None or action.multiple is not None or action.amount is not None:
            raise Reject("set takes the box and the two front cards only")
        held = self.hands[seat]
        if action.cards is None:
            way = set_hand(house_way_of(self.config), held)
            self.sets[seat] = (way.front, way.back, f"house way: {way.rule}")
        else:
            front = tuple(action.cards)
            if len(front) != 2 or len(set(front)) != 2 or any(c not in held for c in front):
                raise Reject(f"box {seat}: name two of its own seven cards for the front hand")
            self.sets[seat] = (front, tuple(c for c in held if c not in front), "the player's")
        if self._waiting():
            return [self._set_prompt()]
        return self._settle()

    def _hand_data(self, seat: int) -> dict[str, Any]:
        front, back, how = self.sets[seat]
        data: dict[str, Any] = {"cards": [str(c) for c in self.hands[seat]], "front": [str(c) for c in front],
                                "back": [str(c) for c in back], "front_hand": pai_gow_front(front).name,
                                "back_hand": pai_gow_high(back).name, "set": how}
        if not legal(front, back):
            data["foul"] = "the front hand is not weaker than the back hand"
        return data

    def _settle(self) -> list[Effect]:
        self.phase = "done"
        values = {s: values_of(f, b) for s, (f, b, _) in self.sets.items()}
        bank_seat = self.banker.seat if self.banker is not None else DEALER
        bank = values[bank_seat]
        effects: list[Effect] = []
        boxes = []
        gross = 0
        for bet in sorted(self.bets, key=lambda b: b.seat):
            result = contest(values[bet.seat], bank)
            note = "foul: the front hand must be weaker than the back" if values[bet.seat] is None else None
            effects.append(settle_fixed(bet, result, win_odds(self.table) if result == "win" else None, note=note))
            if bet.amount is not None:
                gross += {"win": -bet.amount, "lose": bet.amount}.get(result, 0)
            boxes.append({"box": bet.seat, "result": result} | self._hand_data(bet.seat))
        outcome: dict[str, Any] = {"dealer": self._hand_data(DEALER), "boxes": boxes,
                                   "house_way": house_way_of(self.config).name}
        if self.banker is not None:
            dealer_result = contest(values[DEALER], bank) if self.banker.amount else None
            if dealer_result is not None and self.banker.amount is not None:
                gross += {"win": -self.banker.amount, "lose": self.banker.amount}.get(dealer_result, 0)
            outcome["banker"] = {"box": self.banker.seat, "dealer_result": dealer_result,
                                 "dealer_stake": self.banker.amount} | self._hand_data(self.banker.seat)
            effects.append(self._bank_settlement(gross))
        self._outcome = outcome
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        return [Outcome(outcome)] + effects

    def _bank_settlement(self, gross: int) -> Settlement:
        assert self.banker is not None
        exposure = sum(b.amount or 0 for b in self.bets) + (self.banker.amount or 0)
        net = banker_net(self.table, gross)
        result = "win" if net > 0 else "lose" if net < 0 else "push"
        note = f"the bank took {gross:+d}" + (f", {gross - net} commission to the house" if gross > net else "")
        return Settlement(self.banker.seat, "bank", result, stake=exposure, net=net, player=self.banker.player,
                          rounded=gross > 0 and gross * int(self.table["banker_commission_percent"]) % 100 != 0,
                          note=note)

    @handles(Void)
    def _void(self, event: Void) -> list[Effect]:
        self.phase = "done"
        self._outcome = {"void": event.reason}
        effects: list[Effect] = [Outcome(self._outcome)]
        settlements = settle_void(self.bets + ([self.banker] if self.banker else []), event.reason)
        self._settlements.extend(settlements)
        effects.extend(settlements)
        return effects

    # ------------------------------------------------------------------ the contract

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    def waiting_for(self) -> str:
        if self.phase == "done":
            return "nothing: the round is settled"
        if self.phase == "bets":
            return "bets, then no more bets"
        if self.phase == "deal":
            seat = self._next_hand()
            assert seat is not None
            return f"seven cards to {self._who(seat)}"
        return f"box {self._waiting()[0]} to set its hands"

    def outcome(self) -> Mapping[str, Any] | None:
        return self._outcome

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)


# --------------------------------------------------------------------------- the declaration


def validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("bet", "bank"):
            raise ValueError(f"limits: no spot {spot!r} in pai-gow-poker (bet, bank)")
    if config.get("house_way") is not None:
        try:
            house_way_of(config, check=True)
        except HouseWayError as exc:
            raise ValueError(f"option 'house_way': {exc}") from None


SPEC = GameSpec(
    id="pai-gow-poker",
    name="Pai Gow Poker",
    seeds=("002 Pai Gow Poker",),
    variants=(VariantSpec("fi", "Finnish casino rules: 53 cards, 5 % commission, the seed's house way",
                          "002 Pai Gow Poker"),),
    options=(
        OptionSpec("boxes", 6, "boxes at the table: seven cards to each and to the dealer from 53 (at most 6)",
                   minimum=1, maximum=6),
        OptionSpec("decks", 1, "one deck (002)", minimum=1, maximum=1),
        OptionSpec("jokers", 1, "one joker (002: 'en vanlig kortlek som man har utökat med en joker')",
                   minimum=1, maximum=1),
        OptionSpec("player_banking", False, "a player may bank (spot bank; 002: 'varje spelare kan välja att på "
                                            "sin tur agera bank')", kind="bool"),
        OptionSpec("house_way", None, "the dealer's house way as a table of rules (none: the seed's); a table "
                                      "configuration names a TOML file", kind="rules"),
        OptionSpec("limits", {}, "[minimum, maximum] of a stake in minor units (bet, bank)", kind="limits"),
    ),
    spots=(
        SpotSpec("bet", "the box's bet against the bank", "table limits"),
        SpotSpec("bank", "player banking: the banker's box; its amount is the dealer's stake against the banker "
                         "(at most the banker's stake of the round before, 002)", "the croupier's count"),
    ),
    actions=(ActionSpec("set", "the player's split: the two cards of the front hand (none: the house way)"),),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    strategy="pai-gow",
    new_round=lambda config, carried: PaiGowRound(config, carried),
    paytable_file="pai-gow-poker.toml",
    interpretations=(
        "A copy (equal front or equal back hands) goes to the bank (002).",
        "A foul (the front not weaker than the back) loses the bet; a banker's foul loses to every hand set right.",
        "The win pays 1 to 1 less 5 %, rounded down to the minor unit (the house keeps the rounding).",
        "Player banking: the banker collects the lost stakes and pays the won ones in full; the house takes 5 % "
        "of the banker's net win of the round; the dealer's hand plays against the banker for the bank amount.",
        "The house way's lost sections (three of a kind alone, three pairs, full house, straight, flush, four "
        "aces) follow the common casino practice: docs/games/pai-gow-poker.md.",
    ),
    validate=validate,
)
