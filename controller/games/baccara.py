"""Baccara, chemin de fer (seed 002 "Baccara är ett kortspel där spelarna spelar mot varandra ..."): the players bank.

The banker stakes the bank (spot ``bank``) before anyone else; the others
stake against it (``punto``), at most the bank in all, or one player takes the
whole bank alone (``banco_solo``), or half of it (``banco_avec_la_table``, the
others may stake the rest); a player may also stake half the bank beside the
banker (``banco_avec``), sharing the bank's result. Cards: punto, banco, punto,
banco; punto's cards go to the biggest stake against the bank. The drawing
table is fixed except where the seed leaves a choice: punto on 5, banco on 3
when punto's third card is a 9, and every two-card total below 8 for both
sides against a banco solo: those are ``draw`` / ``stand`` actions. The house
takes 5 % of what the bank side wins. The rules are the plain functions
``punto_must``, ``banco_must`` and ``settle_sides``, which the house-edge tool
uses.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, Void
from controller.games.contract import (
    ActionSpec, BetsThenCardsRound, Effect, GameSpec, OptionSpec, Outcome, Prompt, ReaderSpec, Reject, ResultMark,
    RoundConfig, Settlement, SpotSpec, VariantSpec, check_stake, handles, settle_fixed, settle_void,
)
from controller.games.punto_banco import is_natural
from controller.hands.baccarat import card_points, hand_points
from controller.money import Odds

AGAINST = ("punto", "banco_solo", "banco_avec_la_table")  # stakes against the bank
CHOICE = "choice"

# --------------------------------------------------------------------------- the rules as functions


def punto_must(points: int, solo: bool) -> str:
    """Punto on two cards: ``draw``, ``stand`` or ``choice`` (002: 0-4 draw, 5 punto's choice, 6-7 stand;
    against a banco solo every total below 8 is a free choice)."""
    if solo:
        return CHOICE
    return "draw" if points <= 4 else CHOICE if points == 5 else "stand"


def banco_must(points: int, punto_third: int | None, solo: bool) -> str:
    """Banco on two cards, ``punto_third`` the value of punto's third card (None: punto stood).

    002: 0-2 draw; 3 draws unless the third card is an 8, and chooses when it is a 9; 7 stands. The lines for
    4 to 6 were lost from the seed's text: the classic chemin de fer table (RULES-NOTES.md), 4 draws on a third
    card of 2-7, 5 on 4-7, 6 on 6-7. Punto stood: banco draws on 0-5 and stands on 6-7. Against a banco solo
    every total below 8 is a free choice.
    """
    if solo:
        return CHOICE
    if punto_third is None:
        return "draw" if points <= 5 else "stand"
    if points <= 2:
        return "draw"
    if points == 3:
        return "stand" if punto_third == 8 else CHOICE if punto_third == 9 else "draw"
    lowest = {4: 2, 5: 4, 6: 6}.get(points)
    return "draw" if lowest is not None and lowest <= punto_third <= 7 else "stand"


def winner_of(punto: int, banco: int) -> str:
    return "punto" if punto > banco else "banco" if banco > punto else "tie"


def share_of(gross: int, part: int, whole: int) -> int:
    """``part``'s share of the bank side's gross result (rounded toward zero; the banker takes the rest)."""
    share = abs(gross) * part // whole
    return share if gross >= 0 else -share


def after_commission(table: Mapping[str, Any], won: int) -> int:
    """A bank-side win less the house's commission (002: 'fem procent från puntos insatser'), rounded down."""
    if won <= 0:
        return won
    return won * (100 - int(table["commission_percent"])) // 100


def settle_sides(table: Mapping[str, Any], winner: str, bank: int, avec: int, against: int) -> tuple[int, int]:
    """The banker's and the banco avec partner's net: the bank side wins or pays ``against`` (a tie: nothing),
    shared by their stakes, each win less the commission."""
    gross = {"banco": against, "punto": -against}.get(winner, 0)
    partner = share_of(gross, avec, bank + avec) if avec else 0
    return after_commission(table, gross - partner), after_commission(table, partner)


# --------------------------------------------------------------------------- the round


class BaccaraRound(BetsThenCardsRound):
    game_name = "Baccara"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bank: Bet | None = None
        self.stakes: list[Bet] = []
        self.punto: list[Card] = []
        self.banco: list[Card] = []
        self.phase = "bets"  # bets -> deal -> punto -> banco -> done
        self.pending: str | None = None  # "punto" / "banco": whose choice is awaited
        self.drawing: str | None = None  # the side a card is expected for after a draw
        self.choices: list[dict[str, Any]] = []
        self.betting_open = True
        self._outcome: dict[str, Any] | None = None
        self._settlements: list[Settlement] = []
        for bet in carried:
            self._place(bet)

    @property
    def table(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self.config.paytable[self.config.variant]
        return table

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        configured = self.config["limits"].get(spot)
        low, high = (configured[0], configured[1]) if configured else (0, None)
        if spot != "bank" and self.bank is not None and self.bank.amount is not None:
            room = self.bank.amount - self.against_total()
            high = room if high is None else min(high, room)
        return low, high

    def against_total(self) -> int:
        return sum(b.amount or 0 for b in self.stakes if b.spot in AGAINST)

    def of(self, spot: str) -> list[Bet]:
        return [b for b in self.stakes if b.spot == spot]

    @property
    def solo(self) -> bool:
        return bool(self.of("banco_solo"))

    def punto_holder(self) -> int:
        """The seat that holds punto's cards: the biggest stake against the bank (the first of equals)."""
        against = [b for b in self.stakes if b.spot in AGAINST]
        return max(against, key=lambda b: (b.amount or 0, -against.index(b))).seat

    # ------------------------------------------------------------------ bets

    @handles(Bet)
    def _place(self, bet: Bet) -> list[Effect]:
        if self.phase != "bets":
            raise Reject("no more bets: the cards are being dealt")
        if not 1 <= bet.seat <= self.config["seats"]:
            raise Reject(f"there is no seat {bet.seat} at this table (seats 1 to {self.config['seats']})")
        if bet.spot not in ("bank",) + AGAINST + ("banco_avec",):
            raise Reject(f"there is no {bet.spot!r} bet at Baccara (bank, punto, banco_solo, banco_avec, "
                         "banco_avec_la_table)")
        if bet.amount is None:
            raise Reject("chemin de fer needs the amount of every stake: the players pay each other")
        low, high = self.config["limits"].get(bet.spot, (0, None))
        check_stake(bet.spot, bet.amount, low, high)
        if bet.spot == "bank":
            if self.bank is not None:
                raise Reject(f"seat {self.bank.seat} holds the bank: one bank a round")
            self.bank = bet
            return [Prompt(f"Bank {bet.amount} at seat {bet.seat}: stakes against it", expects=("bet",))]
        if self.bank is None or self.bank.amount is None:
            raise Reject("the bank is staked first; then the stakes against it (002)")
        bank = self.bank.amount
        if bet.seat == self.bank.seat:
            raise Reject(f"seat {bet.seat} holds the bank: it cannot stake against itself")
        if any(b.seat == bet.seat for b in self.stakes):
            raise Reject(f"seat {bet.seat} has a stake already")
        if self.solo:
            raise Reject("banco solo: one player has the whole bank; no other stakes")
        if bet.spot == "banco_solo":
            if self.stakes:
                raise Reject("banco solo takes the whole bank alone: there are other stakes already")
            if bet.amount != bank:
                raise Reject(f"banco solo is the whole bank: {bank}, not {bet.amount}")
        elif bet.spot in ("banco_avec", "banco_avec_la_table"):
            if self.of(bet.spot):
                raise Reject(f"{bet.spot} is taken already (seat {self.of(bet.spot)[0].seat})")
            if 2 * bet.amount != bank:
                raise Reject(f"{bet.spot} is half the bank: {bank / 2:g}, not {bet.amount}"
                             if bank % 2 == 0 else f"{bet.spot} is half the bank, and a bank of {bank} has no half")
        if bet.spot in AGAINST and self.against_total() + bet.amount > bank:
            raise Reject(f"the stakes against the bank may total at most the bank ({bank}); {bank - self.against_total()}"
                         " is still open")
        self.stakes.append(bet)
        return []

    def _close(self) -> list[Effect]:
        if self.bank is None or not any(b.spot in AGAINST for b in self.stakes):
            raise Reject("a bank and at least one stake against it before the deal")
        self.phase = "deal"
        self.betting_open = False
        return [Prompt(f"No more bets. Punto's cards to seat {self.punto_holder()}; first card to punto",
                       expects=("card",))]

    # ------------------------------------------------------------------ cards and choices

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if card.is_joker:
            raise Reject("a joker is not part of the baccara shoe")
        if self.phase == "bets":
            effects.extend(self._close())
        if self.phase == "done":
            raise Reject("no card expected now")
        if self.pending is not None:
            raise Reject(f"{self.pending} chooses first: draw or stand")
        if sum(1 for c in self.punto + self.banco if c == card) >= self.config["decks"]:
            raise Reject(f"{card} is out once more than the {self.config['decks']}-deck shoe holds: check the shoe")
        if self.phase == "deal":
            (self.punto if len(self.punto) == len(self.banco) else self.banco).append(card)
            if len(self.banco) < 2:
                side = "punto" if len(self.punto) == len(self.banco) else "banco"
                return effects + [Prompt(f"Card to {side}", expects=("card",))]
            return effects + self._after_deal()
        if self.drawing == "punto":
            self.punto.append(card)
            self.drawing = None
            return effects + self._banco_turn()
        if self.drawing == "banco":
            self.banco.append(card)
            self.drawing = None
            return effects + self._finish()
        raise Reject("no card expected now")

    def _after_deal(self) -> list[Effect]:
        if is_natural(hand_points(self.punto)) or is_natural(hand_points(self.banco)):
            return self._finish()
        self.phase = "punto"
        rule = punto_must(hand_points(self.punto), self.solo)
        return self._side_turn("punto", rule)

    def _side_turn(self, side: str, rule: str) -> list[Effect]:
        if rule == "draw":
            self.drawing = side
            return [Prompt(f"{side.capitalize()} draws: third card to {side}", expects=("card",))]
        if rule == CHOICE:
            self.pending = side
            seat = self.punto_holder() if side == "punto" else self.bank.seat if self.bank else None
            points = hand_points(self.punto if side == "punto" else self.banco)
            return [Prompt(f"{side.capitalize()} on {points}: draw or stand (seat {seat})", seat=seat,
                           expects=("action",))]
        return self._banco_turn() if side == "punto" else self._finish()

    def _banco_turn(self) -> list[Effect]:
        self.phase = "banco"
        third = card_points(self.punto[2]) if len(self.punto) == 3 else None
        return self._side_turn("banco", banco_must(hand_points(self.banco), third, self.solo))

    @handles(Action)
    def _choose(self, action: Action) -> list[Effect]:
        if action.action not in ("draw", "stand"):
            raise Reject(f"'{action.action}' is not a choice at Baccara (draw or stand)")
        if self.pending is None:
            raise Reject(f"nobody has a choice now (waiting for {self.waiting_for()})")
        seat = self.punto_holder() if self.pending == "punto" else self.bank.seat if self.bank else None
        if action.seat != seat:
            raise Reject(f"the choice is {self.pending}'s: seat {seat}, not seat {action.seat}")
        if action.cards is not None or action.amount is not None or action.multiple is not None:
            raise Reject("draw or stand takes the seat only")
        side, self.pending = self.pending, None
        points = hand_points(self.punto if side == "punto" else self.banco)
        self.choices.append({"side": side, "seat": seat, "points": points, "choice": action.action})
        if action.action == "draw":
            self.drawing = side
            return [Prompt(f"{side.capitalize()} draws: third card to {side}", expects=("card",))]
        return self._banco_turn() if side == "punto" else self._finish()

    # ------------------------------------------------------------------ settlement

    def _finish(self) -> list[Effect]:
        assert self.bank is not None and self.bank.amount is not None
        self.phase = "done"
        p, b = hand_points(self.punto), hand_points(self.banco)
        winner = winner_of(p, b)
        bank, against = self.bank.amount, self.against_total()
        avec = self.of("banco_avec")
        banker, partner = settle_sides(self.table, winner, bank, avec[0].amount or 0 if avec else 0, against)
        effects: list[Effect] = []
        result = {"punto": "win", "banco": "lose", "tie": "push"}[winner]
        for bet in [s for s in self.stakes if s.spot in AGAINST]:
            effects.append(settle_fixed(bet, result, Odds(1, 1) if result == "win" else None))
        side = {"punto": "lose", "banco": "win", "tie": "push"}[winner]
        effects.append(self._bank_side(self.bank, side, banker, against))
        if avec:
            effects.append(self._bank_side(avec[0], side, partner, against))
        seats = int(self.config["seats"])
        if winner == "punto":
            following = {"passes_to": self.bank.seat % seats + 1, "why": "punto won: the bank passes counter-clockwise"}
        else:
            following = {"seat": self.bank.seat, "bank": bank + banker,
                         "why": "to keep the bank, the banker stakes the bank and his win (or passes it on)"}
        self._outcome = {"punto": [str(c) for c in self.punto], "banco": [str(c) for c in self.banco],
                         "punto_points": p, "banco_points": b, "winner": winner, "punto_hand": self.punto_holder(),
                         "banker": self.bank.seat, "bank": bank, "against": against, "solo": self.solo,
                         "choices": self.choices, "next_bank": following}
        self._settlements.extend(e for e in effects if isinstance(e, Settlement))
        return [Outcome(self._outcome)] + effects

    def _bank_side(self, bet: Bet, result: str, net: int, against: int) -> Settlement:
        note = None
        if net > 0:
            note = f"{self.table['commission_percent']} % commission to the house"
        elif net < 0:
            note = f"the bank side paid the stakes against it ({against})"
        result = "win" if net > 0 else "lose" if net < 0 else "push"
        return Settlement(bet.seat, bet.spot, result, stake=bet.amount, net=net, player=bet.player, note=note)

    @handles(Void)
    def _void(self, event: Void) -> list[Effect]:
        self.phase = "done"
        self._outcome = {"void": event.reason}
        effects: list[Effect] = [Outcome(self._outcome)]
        settlements = settle_void(([self.bank] if self.bank else []) + self.stakes, event.reason)
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
            return "the bank, then the stakes against it" if self.bank is None else "stakes, then no more bets"
        if self.pending is not None:
            return f"{self.pending}'s choice: draw or stand"
        if self.drawing is not None:
            return f"the third card to {self.drawing}"
        return "the next card"

    def outcome(self) -> Mapping[str, Any] | None:
        return self._outcome

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)

    def wants(self, side: str) -> str:
        """The stated strategy (virtual players, math): at a choice, what the table's players do.

        Punto draws on 5 and below, stands on 6 and 7; banco follows the fixed table and draws on 3 against a
        third card of 9; against a banco solo both play as if the choice were the fixed table's (docs page)."""
        if side == "punto":
            return "draw" if hand_points(self.punto) <= 5 else "stand"
        third = card_points(self.punto[2]) if len(self.punto) == 3 else None
        rule = banco_must(hand_points(self.banco), third, False)
        return "draw" if rule in ("draw", CHOICE) else "stand"


# --------------------------------------------------------------------------- the declaration


def result_mark(outcome: Mapping[str, Any]) -> ResultMark | None:
    winner = outcome.get("winner")
    if winner is None:
        return None
    text = {"punto": "P", "banco": "B", "tie": "T"}[winner]
    return f"{text}{outcome['punto_points'] if winner == 'punto' else outcome['banco_points']}", None


def validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("bank", "punto", "banco_solo", "banco_avec", "banco_avec_la_table"):
            raise ValueError(f"limits: no spot {spot!r} in baccara (bank, punto, banco_solo, banco_avec, "
                             "banco_avec_la_table)")


SPEC = GameSpec(
    id="baccara",
    name="Baccara (chemin de fer)",
    seeds=("002 Baccara",),
    variants=(VariantSpec("fi", "Finnish casino rules: the players bank, 5 % to the house", "002 Baccara"),),
    options=(
        OptionSpec("decks", 6, "decks in the shoe (002: six or eight)", choices=(6, 8)),
        OptionSpec("seats", 10, "seats at the table, numbered counter-clockwise (the way the bank passes)",
                   minimum=2, maximum=14),
        OptionSpec("limits", {}, "[minimum, maximum] of a stake in minor units (bank, punto, ...)", kind="limits"),
    ),
    spots=(
        SpotSpec("bank", "the banker's stake, staked first (002: the highest bid banks the first round)",
                 "table limits"),
        SpotSpec("punto", "a stake against the bank; all stakes against it together at most the bank",
                 "the bank"),
        SpotSpec("banco_solo", "one player against the whole bank, alone", "exactly the bank"),
        SpotSpec("banco_avec", "half the bank beside the banker, against punto: shares the bank's result",
                 "exactly half the bank"),
        SpotSpec("banco_avec_la_table", "half the bank against it; the others may stake the rest",
                 "exactly half the bank"),
    ),
    actions=(
        ActionSpec("draw", "at a choice the seed leaves open: take a third card"),
        ActionSpec("stand", "at a choice the seed leaves open: no third card"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    result_mark=result_mark,
    strategy="chemin-de-fer",
    new_round=lambda config, carried: BaccaraRound(config, carried),
    paytable_file="baccara.toml",
    interpretations=(
        "The banker's lines for 4 to 6 were lost: the classic chemin de fer table (RULES-NOTES.md).",
        "A tie (égalité) is a stand-off: every stake stays (push); the seed is silent, the classic rule.",
        "Punto's cards go to the biggest stake against the bank (a banco solo or avec la table counts); the "
        "first of equal stakes.",
        "Banco avec shares the bank's result in proportion to the stakes (the banker takes the rounding).",
    ),
    validate=validate,
)
