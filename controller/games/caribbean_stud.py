"""Caribbean Stud Poker with its progressive (seed 003 as written: ``dk``; common casino rules: ``classic``).

Ante (and the progressive chip), five cards each one at a time from the
dealer's left, the dealer's last card face up; fold or raise (twice the
ante); the dealer qualifies with ace-king. In ``dk`` a raise that is not paid
when the dealer does not qualify, and both stakes on a tie, carry into the
next round (``Round.carried``). The progressive is a side bet paid on the
box's five cards whatever the dealer holds: the game emits ``MeterChange``
effects (a contribution per progressive bet, and each hit as a share of the
meter or a fixed prize, from the dealer's right) and the runtime applies them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.events import Bet
from controller.games.banked_poker import DEALER, BankedPokerRound, odds_of, one_at_a_time
from controller.games.contract import (
    ActionSpec, Effect, GameSpec, MeterChange, OptionSpec, Outcome, Reject, RoundConfig, Settlement, SpotSpec,
    VariantSpec, settle_fixed,
)
from controller.games.contract import ReaderSpec
from controller.hands.high import best_high
from controller.hands.qualifiers import ace_king_or_better
from controller.money import Odds

# --------------------------------------------------------------------------- the rules as functions


def hand_key(hand: Any) -> str:
    """The paytable key of a five-card hand: ``royal_flush`` or its category."""
    return "royal_flush" if hand.royal else hand.category


def contest(player: Any, dealer: Any) -> str:
    """``no_qualify`` (dealer below ace-king), ``player_higher``, ``tie`` or ``dealer_higher``."""
    if not ace_king_or_better(dealer):
        return "no_qualify"
    if player.value > dealer.value:
        return "player_higher"
    return "tie" if player.value == dealer.value else "dealer_higher"


def main_results(config: RoundConfig, key: str, versus: str | None) -> dict[str, tuple[str, Odds | None]]:
    """Ante and bet (the raise) of one box: ``{spot: (result, odds)}``; ``versus`` None means folded."""
    table = config.paytable[config.variant]
    if versus is None:
        return {"ante": ("lose", None)}  # 003 "Accept og betaling" 2: the dealer takes the ante
    if versus == "no_qualify":
        not_qualified = table["bet_not_qualified"]
        bet = ("win", odds_of(not_qualified, key)) if key in not_qualified else (table["not_qualified_rest"], None)
        return {"ante": ("win", odds_of(table, "ante")), "bet": bet}
    if versus == "player_higher":
        return {"ante": ("win", odds_of(table, "ante")), "bet": ("win", odds_of(table["bet_qualified"], key))}
    if versus == "tie":
        return {"ante": (table["tie"], None), "bet": (table["tie"], None)}
    return {"ante": ("lose", None), "bet": ("lose", None)}


def progressive_line(config: RoundConfig, key: str) -> Mapping[str, Any] | None:
    """The progressive table line of a hand (``{"share": [n, d]}`` or ``{"fixed": amount}``), or None."""
    line = config.paytable["progressive"].get(key)
    return line if isinstance(line, Mapping) else None


# --------------------------------------------------------------------------- the round


class CaribbeanStudRound(BankedPokerRound):
    """Bets, five cards each (the dealer's fifth face up), fold or raise, showdown, progressive hits."""

    main_spot = "ante"
    side_spots = ("progressive",)
    action_spots = ("bet",)
    decisions = ("fold", "raise")
    game_name = "Caribbean Stud Poker"
    dealer_up = (-1,)  # the dealer's last card is dealt face up

    @property
    def table(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self.config.paytable[self.config.variant]
        return table

    def _first_plan(self, boxes: Sequence[int]) -> list[int]:
        return one_at_a_time(boxes, 5, dealer=True)  # 003 "Uddeling af kort" 2-3

    def _check_bet(self, bet: Bet) -> None:
        if bet.spot == "progressive":
            if not self.config["progressive"]:
                raise Reject("the progressive is not offered at this table")
            if self.bet_of(bet.seat, "ante") is None:
                raise Reject(f"box {bet.seat}: the progressive is placed together with the ante (003 progressive rule 1)")
            stake = self.config["progressive_stake"]
            if bet.amount is not None and bet.amount != stake:
                raise Reject(f"box {bet.seat}: the progressive bet is one chip of exactly {stake} (003 progressive rule 2)")
        if bet.spot == "ante":
            carried = self.bet_of(bet.seat, "bet")
            multiple = int(self.table["raise_multiple"])
            if carried is not None and carried.amount is not None and bet.amount is not None \
                    and carried.amount != multiple * bet.amount:
                raise Reject(f"box {bet.seat} carries a raise of {carried.amount} from the last round: "
                             f"the ante must be {carried.amount // multiple}")

    def _on_close(self) -> list[Effect]:
        effects: list[Effect] = []
        for bet in list(self.bets):
            if bet.spot == "bet" and self.bet_of(bet.seat, "ante") is None:
                self.bets.remove(bet)  # a carried raise whose box does not play this round goes back
                settlement = settle_fixed(bet, "push", note="carried raise returned: the box placed no ante")
                self._settlements.append(settlement)
                effects.append(settlement)
        for bet in self.bets:
            if bet.spot == "progressive":
                effects.append(MeterChange(self.config["meter"], "contribution", seat=bet.seat,
                                           amount=self.config["progressive_contribution"]))
        return effects

    def _decision_stakes(self, seat: int, action: str) -> list[Bet]:
        if action != "raise" or self.bet_of(seat, "bet") is not None:
            return []  # a raise carried from the last round is this round's raise
        ante = self.bet_of(seat, "ante")
        assert ante is not None
        amount = None if ante.amount is None else ante.amount * int(self.table["raise_multiple"])
        if amount is not None:
            self.check_amount("bet", amount)
        return [Bet(seat, "bet", amount)]

    def _settle(self) -> list[Effect]:
        dealer = best_high(self.hand_of(DEALER))
        effects: list[Effect] = []
        hits: list[Effect] = []
        boxes: list[dict[str, Any]] = []
        for seat in sorted(self.boxes_in_play(), reverse=True):  # 003: "fra kortgiverens højre side og mod venstre"
            hand = best_high(self.hand_of(seat))
            key = hand_key(hand)
            raised = self.decided[seat] == "raise"
            versus = contest(hand, dealer) if raised else None
            results = main_results(self.config, key, versus)
            for spot in ("ante", "bet"):
                bet = self.bet_of(seat, spot)
                if bet is None:
                    continue
                if spot in results:
                    effects.append(self.settle(bet, *results[spot]))
                else:  # folded with a raise carried in: the fold takes only the ante (003)
                    effects.append(self.settle(bet, "push", note="carried raise returned: the box folded"))
            progressive = self.bet_of(seat, "progressive")
            if progressive is not None:
                effects.append(self._progressive(progressive, key, hits))
            box = self.box_outcome(seat, hand)
            box["versus"] = versus
            boxes.append(box)
        self.outcome_data = {
            "dealer": {"cards": [str(c) for c in self.hand_of(DEALER)], "up_card": str(self.hand_of(DEALER)[-1]),
                       "hand": dealer.name, "qualifies": bool(ace_king_or_better(dealer))},
            "boxes": boxes,
        }
        return [Outcome(self.outcome_data)] + effects + hits

    def _progressive(self, bet: Bet, key: str, hits: list[Effect]) -> Settlement:
        line = progressive_line(self.config, key)
        if line is None:
            return settle_fixed(bet, "lose")
        stake = self.config["progressive_stake"]
        if "share" in line:
            num, den = (int(x) for x in line["share"])
            hits.append(MeterChange(self.config["meter"], "hit", seat=bet.seat, share=(num, den), hand=key))
            percent = f"{100 * num / den:g} %"
            return Settlement(bet.seat, bet.spot, "win", note=f"progressive {key}: {percent} of the meter, paid from "
                                                               "the meter by the table (the chip is collected)")
        fixed = int(line["fixed"])
        hits.append(MeterChange(self.config["meter"], "hit", seat=bet.seat, fixed=fixed, hand=key))
        odds = Odds(fixed // stake, 1) if fixed % stake == 0 else Odds(fixed, stake)
        return Settlement(bet.seat, bet.spot, "win", odds=odds,
                          note=f"progressive {key}: {fixed} from the meter, at most what it holds after any hit "
                               "before it (the chip is collected)")


# --------------------------------------------------------------------------- the declaration


def _validate(config: RoundConfig) -> None:
    for spot in config["limits"]:
        if spot not in ("ante", "bet"):
            raise ValueError(f"limits: no spot {spot!r} in caribbean-stud (ante, bet; the progressive is one chip)")
    if config["progressive_contribution"] > config["progressive_stake"]:
        raise ValueError(f"progressive_contribution: {config['progressive_contribution']} is more than the "
                         f"progressive stake {config['progressive_stake']}")


SPEC = GameSpec(
    id="caribbean-stud",
    name="Caribbean Stud Poker",
    seeds=("003 CARIBBEAN STUD POKER-regler",),
    variants=(
        VariantSpec("dk", "Danish rules as written: raises carry when the dealer does not qualify, ties carry",
                    "003", defaults={"boxes": 4}),
        VariantSpec("classic", "common casino rules: raise returned when the dealer does not qualify, "
                    "1/2/3/4/5/7/20/50/100", "003 (deal and progressive); common casino payouts",
                    defaults={"boxes": 7}),
    ),
    options=(
        OptionSpec("boxes", 7, "boxes at the table (003: four players)", minimum=1, maximum=7),
        OptionSpec("limits", {}, "per spot [minimum, maximum] stake in minor units (ante, bet)", kind="limits"),
        OptionSpec("progressive", True, "the progressive side bet is offered", kind="bool"),
        OptionSpec("progressive_stake", 50, "the progressive chip in minor units (003: 0.5 euro)", kind="amount",
                   minimum=1),
        OptionSpec("progressive_contribution", 35, "minor units of each progressive chip added to the meter "
                   "(003 is silent; the casino's figure)", kind="amount"),
        OptionSpec("meter", "caribbean-stud", "name of the progressive meter this table feeds", kind="text"),
    ),
    spots=(
        SpotSpec("ante", "the ante, needed to play (003 rule 2.a)", "table limits (003 rule 1)"),
        SpotSpec("bet", "the raise, placed by the raise decision: twice the ante (003 rule 2.c.ii)",
                 "twice the ante"),
        SpotSpec("progressive", "the progressive chip, with the ante (003 progressive rules 1-3)",
                 "exactly one chip (003 progressive rule 2)"),
    ),
    actions=(
        ActionSpec("fold", "give up: the ante is lost (003 'Accept og betaling' 2)"),
        ActionSpec("raise", "play on: a bet of twice the ante is placed (003 rule 2.c.ii)"),
    ),
    devices=("shoe",),
    reader=ReaderSpec("shoe"),
    progressive_spots=("progressive",),
    strategy="poker",
    meters=lambda config: {"meter": config["meter"]} if config["progressive"] else {},
    new_round=lambda config, carried: CaribbeanStudRound(config, carried),
    paytable_file="caribbean-stud.toml",
    interpretations=(
        "dk, dealer not qualifying: a full house or better is paid on the bet from the right-hand column and the "
        "bet is settled; any other raise carries into the next round; the ante is paid 1 to 1 (RULES-NOTES.md).",
        "dk, tie: ante and bet carry into the next round.",
        "A carried raise is the box's raise in the next round: the new ante must be half of it, raising adds "
        "nothing, folding loses the ante and returns the carried raise, and a box that places no ante gets it back.",
        "classic: the dealer not qualifying pays the ante 1 to 1 and returns the raise; a tie pushes both.",
        "003 dealing rule 4 (an automatic raise on a timeout with a pair) is for the online table; at a live "
        "table the croupier enters every decision.",
        "The progressive pays on the box's five cards whatever the dealer holds and whether or not the box "
        "raised (003 names only the bet and the first five cards as conditions).",
        "Progressive hits are paid from the meter from the dealer's right (highest box first), each from what "
        "the hit before left; a fixed prize larger than the meter pays what the meter holds. Both variants use "
        "the seed's progressive table; the contribution per chip is a table option (003 is silent).",
        "Settlements are listed from the dealer's right to left, the order of 003 'Accept og betaling' 4.",
    ),
    validate=lambda config: _validate(config),
)
