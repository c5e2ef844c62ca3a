"""What the hold'em games against the house share: two own cards, a board, a decision on each street.

Not a game itself (no ``SPEC``). ``StreetsRound`` extends ``BankedPokerRound``
(bets, the deal in shoe order, the dealing plan) with several rounds of
decisions: the own cards go out two each, one at a time, boxes from box 1 and
the dealer last in each turn (RULES-NOTES.md, seed 002); then each street in
``streets`` deals its board cards (a burn card before each group where the
table's ``burn_cards`` option is on) and asks the boxes that still decide
(``_deciders``) for one of the street's decisions; ``board_after`` cards follow
the last decisions; then the game's ``_settle``. When every box has folded no
further card is dealt.

The progressive of Texas Hold'em Bonus Progressive and Texas Hold'em
Progressive (seed 002) is settled here too, as Caribbean Stud's is: one chip
of ``progressive_stake``, a ``MeterChange`` contribution per chip when the bets
close, and a hit per winning chip at the showdown, a share of the meter or a
fixed prize, applied and journaled by the runtime. With the ``special_prizes``
option the progressive also has the seed's random special prizes: at the
showdown the round asks for one number per progressive chip in play
(``DrawRequest``), the runtime draws them from its own random source and
journals them as a ``Draw`` event, and a number from 1 to the paytable's
``special.wins`` takes the special prize from the meter, as another hit.
The round never draws: the same ``Draw`` gives the same prizes on every replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, Draw, Event
from controller.games.banked_poker import BOARD, BURN, DEALER, BankedPokerRound, one_at_a_time, target_name
from controller.games.contract import (
    DrawRequest, Effect, MeterChange, OptionSpec, Outcome, Prompt, Reject, RoundConfig, Settlement, settle_fixed,
)
from controller.money import Odds


@dataclass(frozen=True)
class Street:
    """One betting round: the board cards dealt before it (groups, each after a burn) and its decisions."""

    name: str
    board: tuple[int, ...]
    decisions: tuple[str, ...]
    words: str  # what the croupier asks: "play 4x or 3x, or check"
    when: str  # "before the flop", "on the flop", ...


def hand_key(hand: Any) -> str:
    """The paytable key of a five-card hand: ``royal_flush`` or its category."""
    return "royal_flush" if hand.royal else hand.category


def progressive_line(config: RoundConfig, key: str) -> Mapping[str, Any] | None:
    """The progressive table line of a hand (``{"share": [n, d]}`` or ``{"fixed": amount}``), or None."""
    line = config.paytable["progressive"].get(key)
    return line if isinstance(line, Mapping) else None


def progressive_settlement(config: RoundConfig, bet: Bet, key: str | None, hits: list[Effect]) -> Settlement:
    """The settlement of one progressive chip (``key`` None: the box gave up its hand), adding its hit to ``hits``."""
    line = progressive_line(config, key) if key is not None else None
    if line is None:
        return settle_fixed(bet, "lose", note=None if key is not None else "folded")
    stake = config["progressive_stake"]
    if "share" in line:
        num, den = (int(x) for x in line["share"])
        hits.append(MeterChange(config["meter"], "hit", seat=bet.seat, share=(num, den), hand=key))
        return Settlement(bet.seat, bet.spot, "win", note=f"progressive {key}: {100 * num / den:g} % of the meter, "
                                                          "paid from the meter by the table (the chip is collected)")
    fixed = int(line["fixed"])
    hits.append(MeterChange(config["meter"], "hit", seat=bet.seat, fixed=fixed, hand=key))
    odds = Odds(fixed // stake, 1) if fixed % stake == 0 else Odds(fixed, stake)
    return Settlement(bet.seat, bet.spot, "win", odds=odds,
                      note=f"progressive {key}: {fixed} from the meter, at most what it holds after any hit "
                           "before it (the chip is collected)")


def special_prize(config: RoundConfig, bet: Bet, hand: Settlement, number: int, hits: list[Effect]) -> Settlement:
    """The chip's settlement once its drawn ``number`` took the special prize (``hand``: what its hand won),
    adding the prize's hit to ``hits`` after the hand's."""
    prize = config.paytable["special"]["prize"]
    stake = config["progressive_stake"]
    odds: Odds | None = None
    if "share" in prize:
        num, den = (int(x) for x in prize["share"])
        hits.append(MeterChange(config["meter"], "hit", seat=bet.seat, share=(num, den), hand="special_prize"))
        words = f"{100 * num / den:g} % of the meter, paid from the meter by the table"
    else:
        fixed = int(prize["fixed"])
        hits.append(MeterChange(config["meter"], "hit", seat=bet.seat, fixed=fixed, hand="special_prize"))
        words = f"{fixed} from the meter, at most what it holds after any hit before it"
        if hand.result != "win":
            odds = Odds(fixed // stake, 1) if fixed % stake == 0 else Odds(fixed, stake)
        elif hand.odds is not None:  # two fixed prizes: the odds of their sum
            total = hand.odds.paid * stake // hand.odds.per + fixed
            odds = Odds(total // stake, 1) if total % stake == 0 else Odds(total, stake)
    note = f"special prize, drawn number {number}: {words} (the chip is collected)"
    if hand.result == "win":
        first = (hand.note or "").removesuffix(" (the chip is collected)")
        return Settlement(bet.seat, bet.spot, "win", odds=odds, note=f"{first}; and the {note}")
    return Settlement(bet.seat, bet.spot, "win", odds=odds, note=note)


def check_special_table(config: RoundConfig) -> None:
    """The ``special`` paytable table: whole ``wins`` of ``faces`` numbers and a share or fixed prize."""
    table = config.paytable.get("special")
    if not isinstance(table, Mapping):
        raise ValueError("special_prizes: the paytable has no [special] table")
    wins, faces, prize = table.get("wins"), table.get("faces"), table.get("prize")
    if not (isinstance(wins, int) and isinstance(faces, int) and 1 <= wins < faces):
        raise ValueError(f"special_prizes: [special] wins {wins!r} of faces {faces!r} must be whole, 1 <= wins < faces")
    if not isinstance(prize, Mapping) or not (("share" in prize) ^ ("fixed" in prize)):
        raise ValueError("special_prizes: [special] prize is one of { share = [n, d] } or { fixed = amount }")


def progressive_cards(config: RoundConfig, hole: Sequence[Card], board: Sequence[Card]) -> tuple[Card, ...] | None:
    """The cards the progressive pays on: the own two and the flop (``flop``), or all seven (``seven``)."""
    if config["progressive_cards"] == "flop":
        return tuple(hole) + tuple(board[:3]) if len(board) >= 3 else None
    return tuple(hole) + tuple(board) if len(board) == 5 else None


def progressive_meters(config: RoundConfig) -> dict[str, str]:
    """The meter a hold'em table feeds (``GameSpec.meters``): the ``meter`` option's, with the progressive on."""
    return {"meter": config["meter"]} if config["progressive"] else {}


def progressive_options(meter: str) -> tuple[OptionSpec, ...]:
    """The options of a hold'em progressive (the game's paytable file holds its prize table)."""
    return (
        OptionSpec("progressive", False, "the progressive side bet is offered (002: the Progressive version)",
                   kind="bool"),
        OptionSpec("progressive_stake", 100, "the progressive chip in minor units (002 is silent; the casino's figure)",
                   kind="amount", minimum=1),
        OptionSpec("progressive_contribution", 70, "minor units of each progressive chip added to the meter "
                   "(002: 'en viss, fast procentandel'; the casino's figure)", kind="amount"),
        OptionSpec("progressive_cards", "flop", "the cards the progressive pays on: the own two and the flop "
                   "(flop), or the best five of all seven (seven)", kind="choice", choices=("flop", "seven")),
        OptionSpec("meter", meter, "name of the progressive meter this table feeds", kind="text"),
        OptionSpec("special_prizes", False, "the progressive's random special prizes, drawn at the showdown by the "
                   "table's random-draw apparatus (002: 'slumpmässigt lottade specialvinster'); the chance and the "
                   "prize are the paytable's [special]", kind="bool"),
    )


def check_progressive_options(config: RoundConfig) -> None:
    if config["progressive_contribution"] > config["progressive_stake"]:
        raise ValueError(f"progressive_contribution: {config['progressive_contribution']} is more than the "
                         f"progressive stake {config['progressive_stake']}")
    if config["special_prizes"]:
        if not config["progressive"]:
            raise ValueError("special_prizes: the special prizes are the progressive's: turn the progressive on too")
        check_special_table(config)


class StreetsRound(BankedPokerRound):
    """Bets, two own cards each and the dealer's two, then street after street of board cards and decisions."""

    streets: tuple[Street, ...] = ()
    equal_spots: tuple[str, ...] = ()  # side spots that must be staked with the main bet, equal to it (the blind)
    board_after: tuple[int, ...] = ()  # board cards after the last decisions (Texas Hold'em Bonus: the river)

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config, carried)
        self.street = 0
        self.waiting: list[int] = []
        self.folded: set[int] = set()
        self.history: dict[int, list[str]] = {}  # per box: "street:decision", in order
        self.drawn: tuple[int, ...] | None = None  # the special prize draw's numbers, one per chip in the draw

    # ------------------------------------------------------------------ for the games

    def _deciders(self) -> list[int]:
        """The boxes that decide on the current street (default: every box still in)."""
        return [s for s in self.boxes_in_play() if s not in self.folded]

    def _street_stakes(self, action: Action, street: Street) -> list[Bet]:
        """The bets a decision adds (raise ``Reject`` for a decision that does not fit)."""
        return []

    def suggested(self, seat: int) -> Action:
        """The decision the game's stated strategy takes for ``seat`` now (for the virtual players; not a rule)."""
        return Action(seat, self.streets[self.street].decisions[-1])

    def _special_seats(self) -> list[int]:
        """The boxes whose progressive chip takes part in the special prize draw: the chips the hand table still
        plays for (here: the boxes that have not folded)."""
        return [s for s in self.boxes_in_play() if self.bet_of(s, "progressive") is not None and s not in self.folded]

    # ------------------------------------------------------------------ the special prize draw

    def special_request(self) -> DrawRequest | None:
        """The draw the showdown needs: one number per chip of ``_special_seats``, or None (no special prizes)."""
        if not self.config.get("progressive") or not self.config.get("special_prizes"):
            return None
        seats = self._special_seats()
        if not seats:
            return None
        faces = int(self.config.paytable["special"]["faces"])
        return DrawRequest(len(seats), faces, "special prize: one number from 1 to "
                                              f"{faces} per progressive chip, box " + ", ".join(map(str, seats)))

    def special_numbers(self) -> dict[int, int]:
        """Per box in the draw: its drawn number (empty before the draw)."""
        return dict(zip(self._special_seats(), self.drawn or ()))

    def _apply(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Draw):
            return self._draw(event)
        return super()._apply(event)

    def _draw(self, event: Draw) -> list[Effect]:
        request = self.special_request() if self.phase == "draw" else None
        if request is None:
            raise Reject(f"no special prize draw now: waiting for {self.waiting_for()}")
        if len(event.numbers) != request.count:
            raise Reject(f"the special prize draw needs {request.count} number{'s' if request.count > 1 else ''}, "
                         f"one per progressive chip, not {len(event.numbers)}")
        wrong = [n for n in event.numbers if not 1 <= n <= request.faces]
        if wrong:
            raise Reject(f"a special prize number is from 1 to {request.faces}, not {wrong[0]}")
        self.drawn = tuple(event.numbers)
        return self._finish()

    def _finish(self) -> list[Effect]:
        if self.drawn is None:
            request = self.special_request()
            if request is not None:
                self.phase = "draw"
                return [request, Prompt(self.waiting_for(), expects=("draw",))]
        effects = super()._finish()
        if self.drawn is None:
            return effects
        wins = int(self.config.paytable["special"]["wins"])
        numbers = self.special_numbers()
        assert self.outcome_data is not None  # the game's _settle sets it
        self.outcome_data = {**self.outcome_data, "special_draw": {
            "numbers": list(self.drawn), "boxes": {str(s): n for s, n in numbers.items()},
            "winners": [s for s, n in numbers.items() if n <= wins]}}
        return [Outcome(self.outcome_data) if isinstance(e, Outcome) else e for e in effects]

    # ------------------------------------------------------------------ dealing

    def _board_cards(self, groups: tuple[int, ...]) -> list[int]:
        plan: list[int] = []
        for n in groups:
            if self.config["burn_cards"]:
                plan.append(BURN)
            plan.extend([BOARD] * n)
        return plan

    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        return one_at_a_time(boxes, 2, dealer=True) + self._board_cards(self.streets[0].board)

    def in_hand(self) -> list[int]:
        return [s for s in self.boxes_in_play() if s not in self.folded]

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if card.is_joker:
            raise Reject(f"a joker is not part of the {self.game_name} deck")
        if self.phase == "bets":
            effects.extend(self._close())
        if self.phase != "deal":
            raise Reject(f"no card expected now: waiting for {self.waiting_for()}")
        if any(c == card for _, c in self.cards):
            raise Reject(f"{card} was already dealt this round: one deck, check the shoe")
        self.cards.append((self.plan[len(self.cards)], card))
        if len(self.cards) < len(self.plan):
            effects.append(Prompt(f"Card to {target_name(self.plan[len(self.cards)])}", expects=("card",)))
            return effects
        effects.extend(self._street_open())
        return effects

    def _street_open(self) -> list[Effect]:
        """The cards of the current street are out: ask its deciders, or go on."""
        if self.street == len(self.streets):
            return self._finish()
        self.waiting = self._deciders()
        if self.waiting:
            self.phase = "decide"
            return [Prompt(self.waiting_for(), expects=("action",))]
        return self._next_street()

    def _next_street(self) -> list[Effect]:
        self.street += 1
        if not self.in_hand():
            return self._finish()  # every box folded: no more cards
        groups = self.board_after if self.street == len(self.streets) else self.streets[self.street].board
        more = self._board_cards(groups)
        if more:
            self.plan = self.plan + more
            self.phase = "deal"
            return [Prompt(f"Card to {target_name(self.plan[len(self.cards)])}", expects=("card",))]
        return self._street_open()

    # ------------------------------------------------------------------ decisions

    def _decide(self, action: Action) -> list[Effect]:
        if self.phase != "decide":
            raise Reject(f"no decisions now: waiting for {self.waiting_for()}")
        street = self.streets[self.street]
        if action.seat not in self.boxes_in_play():
            raise Reject(f"box {action.seat} has no hand in this round")
        if action.seat in self.folded:
            raise Reject(f"box {action.seat} has folded")
        if action.seat not in self.waiting:
            raise Reject(f"box {action.seat} has no decision to make {street.when}: "
                         f"its decision is made ({self.decided.get(action.seat)})")
        if action.action not in street.decisions:
            raise Reject(f"'{action.action}' is not a decision {street.when} (box {action.seat}: "
                         f"{street.words})")
        if action.player is not None or action.hand is not None or action.amount is not None \
                or action.cards is not None:
            raise Reject(f"'{action.action}' takes only the box here: the stake follows from the rules")
        self.bets.extend(self._street_stakes(action, street))
        self.waiting.remove(action.seat)
        self.decided[action.seat] = action.action
        self.history.setdefault(action.seat, []).append(f"{street.name}:{action.action}")
        if action.action == "fold":
            self.folded.add(action.seat)
        if self.waiting:
            return [Prompt(self.waiting_for(), expects=("action",))]
        return self._next_street()

    # ------------------------------------------------------------------ the contract

    def waiting_for(self) -> str:
        if self.done:
            return "nothing: the round is settled"
        if self.phase == "bets":
            return "bets, then no more bets"
        if self.phase == "deal":
            return f"card to {target_name(self.plan[len(self.cards)])}"
        if self.phase == "draw":
            request = self.special_request()
            assert request is not None
            return (f"the special prize draw by the table's apparatus ({request.count} number"
                    f"{'s' if request.count > 1 else ''} from 1 to {request.faces})")
        street = self.streets[self.street]
        return f"decision {street.when} ({street.words}) at box " + ", ".join(map(str, self.waiting))

    def box_outcome(self, seat: int, hand: Any) -> dict[str, Any]:
        out = super().box_outcome(seat, hand)
        out["decisions"] = list(self.history.get(seat, []))
        return out

    def dealer_outcome(self, hand: Any) -> dict[str, Any]:
        return {"cards": [str(c) for c in self.hand_of(DEALER)], "hand": getattr(hand, "name", None)}

    def progressive_effects(self, seat: int, key: str | None, hits: list[Effect]) -> Iterable[Settlement]:
        bet = self.bet_of(seat, "progressive")
        if bet is not None:
            settlement = progressive_settlement(self.config, bet, key, hits)
            number = self.special_numbers().get(seat)
            if number is not None and number <= int(self.config.paytable["special"]["wins"]):
                settlement = special_prize(self.config, bet, settlement, number, hits)
            yield settlement

    def _check_progressive(self, bet: Bet, needs: str) -> None:
        if not self.config["progressive"]:
            raise Reject("the progressive is not offered at this table")
        if self.bet_of(bet.seat, self.main_spot) is None:
            raise Reject(f"box {bet.seat}: the progressive needs {needs} first (002: not the progressive alone)")
        stake = self.config["progressive_stake"]
        if bet.amount is not None and bet.amount != stake:
            raise Reject(f"box {bet.seat}: the progressive bet is one chip of exactly {stake}")

    def _progressive_contributions(self) -> list[Effect]:
        return [MeterChange(self.config["meter"], "contribution", seat=bet.seat,
                            amount=self.config["progressive_contribution"])
                for bet in self.bets if bet.spot == "progressive"]
