"""Punto Banco (seed 000 rules 1-32, seed 001, seed 002 "Punto Banco").

The drawing tableau and the settlement of one spot are plain functions
(``punto_draws``, ``banco_draws``, ``spot_result``) so that the exact
house-edge tool runs the very same rules as the ``Round``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Event
from controller.games.contract import (
    BoardSpec, Effect, GameSpec, OptionSpec, Outcome, Prompt, Reject, Round, RoundConfig,
    Settlement, SpotSpec, VariantSpec, check_stake, settle_fixed,
)
from controller.games.contract import ReaderSpec, ResultMark
from controller.hands.baccarat import card_points, hand_points
from controller.money import Odds, fraction_of

SIDES = ("punto", "banco")

# --------------------------------------------------------------------------- the rules as functions


def punto_draws(punto_points: int) -> bool:
    """Punto takes a third card on 0-5 and stands on 6-7 (000 rules 17-18; 001; 002)."""
    return punto_points <= 5


def banco_draws(banco_points: int, punto_third: int | None) -> bool:
    """Banco's tableau; ``punto_third`` is the point value of Punto's third card, None if Punto stood.

    000 rules 20-26 read with RULES-NOTES.md (rule 21 lost a "not"): the standard
    tableau of seeds 001 and 002.
    """
    if punto_third is None:
        return banco_points <= 5  # 000 rule 26
    if banco_points <= 2:
        return True  # rule 20
    if banco_points == 3:
        return punto_third != 8  # rule 21
    if banco_points == 4:
        return 2 <= punto_third <= 7  # rule 22
    if banco_points == 5:
        return 4 <= punto_third <= 7  # rule 23
    if banco_points == 6:
        return punto_third in (6, 7)  # rule 24
    return False  # rule 25: 7 stands


def is_natural(points: int) -> bool:
    """8 or 9 on the first two cards ends the deal (000 rule 14)."""
    return points >= 8


def winner_of(punto: int, banco: int) -> str:
    return "punto" if punto > banco else "banco" if banco > punto else "tie"


def _odds(table: Mapping[str, Any], key: str) -> Odds:
    paid, per = table[key]
    return Odds(int(paid), int(per))


def spot_result(config: RoundConfig, spot: str, punto: int, banco: int) -> tuple[str, Odds | None]:
    """The result of one unit on ``spot`` given both final points: (result, odds of a win)."""
    table = config.paytable[config.variant]
    winner = winner_of(punto, banco)
    if config.variant == "se":
        if winner == "tie":
            return ("lose", None) if punto in table["tie_loses_on"] else ("carry", None)  # 000 rules 29-30
        return ("win", _odds(table, spot)) if spot == winner else ("lose", None)
    if spot == "tie":
        return ("win", _odds(table, "tie")) if winner == "tie" else ("lose", None)
    if winner == "tie":
        return "push", None  # 001, 002: punto and banco stakes neither win nor lose
    if spot != winner:
        return "lose", None
    if spot == "banco" and config.variant == "fi-no-commission" and banco == config["banco_half_on"]:
        return "win", _odds(table, "banco_on_point")
    return "win", _odds(table, spot)


# --------------------------------------------------------------------------- the round


@dataclass
class _Hand:
    cards: list[Card] = field(default_factory=list)

    @property
    def points(self) -> int:
        return hand_points(self.cards)


class PuntoBancoRound(Round):
    """One coup: bets, no more bets, then the cards in shoe order until the tableau is done."""

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = list(carried)
        self.betting_open = True
        self.punto = _Hand()
        self.banco = _Hand()
        self.done = False
        self._settlements: list[Settlement] = []

    # -- bets

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        limits = self.config.get("limits") or {}
        return (limits[spot][0] if spot in limits else 0), self._maximum(spot)

    def _maximum(self, spot: str) -> int | None:
        limit = self.config["limits"].get(spot)
        maximum = limit[1] if limit else None
        if self.config.variant == "se":
            legal = fraction_of(self.config["price_base_amount"], 1, 600)  # 000 rule 2
            maximum = legal if maximum is None else min(maximum, legal)
        return maximum

    def _place(self, bet: Bet) -> Iterable[Effect]:
        if not self.betting_open:
            raise Reject("no more bets: the bets are closed for this coup")
        spots = SPEC.variant(self.config.variant).spots or ("punto", "banco", "tie")
        if bet.spot not in spots:
            raise Reject(f"there is no {bet.spot!r} bet at this table (bets: {', '.join(spots)})")
        if not 1 <= bet.seat <= self.config["boxes"]:
            raise Reject(f"there is no box {bet.seat} at this table (boxes 1 to {self.config['boxes']})")
        if self.config.variant == "se" and bet.player is not None:
            for other in self.bets:
                if other.player == bet.player and other.seat != bet.seat:
                    raise Reject(f"player {bet.player} already plays at box {other.seat}; one box per player (rule 6)")
                if other.player == bet.player and other.spot != bet.spot:
                    raise Reject(f"player {bet.player} already bets on {other.spot}; Punto or Banco, not both (rule 7)")
        limit = self.config["limits"].get(bet.spot)
        same = [b for b in self.bets if (b.seat, b.spot, b.player) == (bet.seat, bet.spot, bet.player)]
        if bet.amount is not None:
            if any(b.amount is None for b in same):
                raise Reject(f"box {bet.seat} {bet.spot} is already marked as playing without an amount")
            total = bet.amount + sum(b.amount or 0 for b in same)
            check_stake(bet.spot, total, limit[0] if limit else 0, self._maximum(bet.spot), self.config.get("chip_unit", 1))
        elif same:
            raise Reject(f"box {bet.seat} already has a bet on {bet.spot}")
        if same and bet.amount is not None:
            merged = Bet(bet.seat, bet.spot, sum(b.amount or 0 for b in same) + bet.amount, bet.player)
            self.bets = [b for b in self.bets if b not in same] + [merged]
        else:
            self.bets.append(bet)
        return ()

    # -- cards

    def _expected(self) -> str | None:
        """Which hand takes the next card, or None when the tableau is done."""
        p, b = len(self.punto.cards), len(self.banco.cards)
        order = ("punto", "banco", "punto", "banco")
        if p + b < 4:
            return order[p + b]
        pp, bp = hand_points(self.punto.cards[:2]), hand_points(self.banco.cards[:2])
        if is_natural(pp) or is_natural(bp):
            return None
        if p == 2 and punto_draws(pp):
            return "punto"
        if b == 2:
            third = card_points(self.punto.cards[2]) if p == 3 else None
            if banco_draws(bp, third):
                return "banco"
        return None

    def _card(self, card: Card) -> Iterable[Effect]:
        if card.is_joker:
            raise Reject("a joker is not part of a Punto Banco shoe")
        effects: list[Effect] = []
        if self.betting_open:
            self.betting_open = False
            effects.append(Prompt("No more bets: the deal has started"))
        target = self._expected()
        assert target is not None  # the round completes as soon as no card is expected
        (self.punto if target == "punto" else self.banco).cards.append(card)
        following = self._expected()
        if following is None:
            effects.extend(self._finish())
        else:
            effects.append(self._prompt(following))
        return effects

    def _prompt(self, target: str) -> Prompt:
        p, b = len(self.punto.cards), len(self.banco.cards)
        if p + b < 4:
            return Prompt(f"Card {p + b + 1} to {target.capitalize()}", expects=("card",))
        hand = self.punto if target == "punto" else self.banco
        return Prompt(f"{target.capitalize()} draws on {hand.points}: third card to {target.capitalize()}",
                      expects=("card",))

    def _finish(self) -> list[Effect]:
        self.done = True
        pp, bp = self.punto.points, self.banco.points
        effects: list[Effect] = [Outcome(self.outcome() or {})]
        for bet in self.bets:
            result, odds = spot_result(self.config, bet.spot, pp, bp)
            settlement = settle_fixed(bet, result, odds, carry=result == "carry")
            if result == "win" and bet.spot == "banco" and bet.amount is not None and self.config.get("min_commission", 0):
                settlement = self._with_minimum_commission(settlement)
            self._settlements.append(settlement)
            effects.append(settlement)
        return effects

    def _with_minimum_commission(self, settlement: Settlement) -> Settlement:
        """FI: the commission on a Banco win is at least ``min_commission`` (seed 002, last line of the tableau)."""
        assert settlement.stake is not None and settlement.net is not None
        floor_net = max(0, settlement.stake - self.config.get("min_commission", 0))
        if settlement.net <= floor_net:
            return settlement
        return Settlement(settlement.seat, settlement.spot, "win", settlement.odds, settlement.stake, floor_net,
                          settlement.player, None, False, None, note="minimum commission")

    # -- the contract

    def _apply(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Bet):
            return self._place(event)
        if isinstance(event, CloseBets):
            if not self.betting_open:
                raise Reject("the bets are already closed")
            self.betting_open = False
            return (Prompt("No more bets. Card 1 to Punto", expects=("card",)),)
        if isinstance(event, CardOut):
            return self._card(event.card)
        if isinstance(event, Action):
            raise Reject("Punto Banco has no player decisions: the cards follow the tableau")
        raise Reject(f"a {type(event).__name__.lower()} event has no place in Punto Banco")

    @property
    def complete(self) -> bool:
        return self.done

    def closed_reason(self, event: Event) -> str:
        if isinstance(event, CardOut):
            return (f"no more cards: the coup is decided (Punto {self.punto.points}, Banco {self.banco.points}); "
                    "this card is not part of it")
        return "the coup is settled; bets go on the next coup"

    def waiting_for(self) -> str:
        if self.done:
            return "nothing: the coup is settled"
        if self.betting_open:
            return "bets, then no more bets"
        target = self._expected()
        return self._prompt(target).text if target else "nothing"

    def outcome(self) -> Mapping[str, Any] | None:
        if not self.done:
            return None
        pp, bp = self.punto.points, self.banco.points
        return {
            "winner": winner_of(pp, bp),
            "punto": pp,
            "banco": bp,
            "punto_cards": [str(c) for c in self.punto.cards],
            "banco_cards": [str(c) for c in self.banco.cards],
            "naturals": [side for side, hand in (("punto", self.punto), ("banco", self.banco))
                         if is_natural(hand_points(hand.cards[:2]))],
            "drew": [side for side, hand in (("punto", self.punto), ("banco", self.banco)) if len(hand.cards) == 3],
        }

    def settlements(self) -> tuple[Settlement, ...]:
        return tuple(self._settlements)

    def carried(self) -> tuple[Bet, ...]:
        carried = {(s.seat, s.spot, s.player) for s in self._settlements if s.result == "carry"}
        return tuple(b for b in self.bets if (b.seat, b.spot, b.player) in carried)


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    if config.variant == "se":
        legal = fraction_of(config["price_base_amount"], 1, 600)
        for spot, (low, high) in config["limits"].items():
            if high is not None and high > legal:
                raise ValueError(f"limits.{spot}: maximum {high} is above the legal 1/600 of the price base "
                                 f"amount ({legal}; seed 000 Punto Banco rule 2)")
    for spot in config["limits"]:
        if spot not in (SPEC.variant(config.variant).spots or ("punto", "banco", "tie")):
            raise ValueError(f"limits: no spot {spot!r} in punto-banco {config.variant}")


BOARD_MARKS = {"punto": "P", "banco": "B", "tie": "T"}


def board_mark(outcome: Mapping[str, Any]) -> ResultMark | None:
    """The winner on the results board: P, B or T."""
    winner = outcome.get("winner")
    return (BOARD_MARKS[winner], None) if isinstance(winner, str) and winner in BOARD_MARKS else None


SPEC = GameSpec(
    id="punto-banco",
    name="Punto Banco",
    seeds=("000 Punto Banco rules 1-32", "001 Spielregeln", "002 Punto Banco"),
    variants=(
        VariantSpec("se", "Swedish restaurant casino: 1 to 1 both sides, ties on 6-8 lose, other ties stand off",
                    "000 Punto Banco rules 1-32",
                    defaults={"decks": 6, "chip_unit": 1000},
                    options=("decks", "boxes", "limits", "price_base_amount", "chip_unit"),
                    spots=("punto", "banco")),
        VariantSpec("de", "German: Banco 0.95 to 1, tie 8 to 1, Punto and Banco push on a tie", "001",
                    options=("decks", "boxes", "limits")),
        VariantSpec("fi", "Finnish: 5 % commission on Banco, tie 8 to 1", "002 Punto Banco",
                    options=("decks", "boxes", "limits", "min_commission")),
        VariantSpec("fi-no-commission", "Finnish no-commission: Banco pays 1 to 2 when it wins with 6 (or 5)",
                    "002 Punto Banco (the alternative version)",
                    options=("decks", "boxes", "limits", "banco_half_on")),
    ),
    options=(
        OptionSpec("decks", 8, "decks in the shoe (000 rule 1: 6; 002: 6 or 8)", choices=(6, 8)),
        OptionSpec("boxes", 14, "boxes at the table", minimum=1, maximum=20),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units", kind="limits"),
        OptionSpec("price_base_amount", 5_920_000, "the year's prisbasbelopp in öre (59 200 SEK for 2026)",
                   kind="amount", minimum=1),
        OptionSpec("chip_unit", 1, "every stake is a whole number of this many minor units (000 rule 5: 10 kr)",
                   kind="amount", minimum=1),
        OptionSpec("min_commission", 0, "least commission on a winning Banco bet, minor units (002)", kind="amount"),
        OptionSpec("banco_half_on", 6, "the Banco point that pays 1 to 2 in the no-commission version (002)",
                   choices=(5, 6)),
    ),
    spots=(
        SpotSpec("punto", "Punto (the player hand) wins", "SE: at most 1/600 of the price base amount (000 rule 2)"),
        SpotSpec("banco", "Banco (the bank hand) wins", "SE: at most 1/600 of the price base amount (000 rule 2)"),
        SpotSpec("tie", "Égalité: both hands equal (not offered in SE, 000 rule 7)", "table limits"),
    ),
    actions=(),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    result_mark=board_mark,
    strategy="baccarat",
    new_round=lambda config, carried: PuntoBancoRound(config, carried),
    paytable_file="punto-banco.toml",
    interpretations=(
        "000 rule 21 lost a 'not' and rules 21-24 mean Punto's third card: the standard tableau of 001 and 002.",
        "A card out of the shoe while bets are open closes the bets: the deal has started.",
        "A stand-off (SE tie on 0-5 or 9) settles as 'carry': the stake stays into the next coup, "
        "where a new bet on the same box and side adds to it.",
        "FI minimum commission: the Banco win is the smaller of 19/20 of the stake (rounded down) and the stake "
        "less the minimum commission, never below 0.",
    ),
    validate=lambda config: _validate(config),
    board=BoardSpec("road", lambda o: {"winner": o["winner"], "punto": o.get("punto"), "banco": o.get("banco")}
                    if "winner" in o else None),
)
