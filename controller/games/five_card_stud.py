"""What Oasis Stud and Russian Poker share: five cards each against the dealer, cards drawn for a fee, the dealer
bought a game.

Not a game itself (no ``SPEC``). ``FiveCardStudRound`` holds the antes and
their stakes, deals five cards to every box with an ante and to the dealer
(one card at a time, box 1 first, the dealer last), takes the cards a box or
the dealer is owed after a draw (``owed``: a box and the position the new
card takes, or ``None`` for a card added to the hand), lets the boxes that
played buy the dealer a game when he has none, and answers the round's
contract. The games write what differs: their bets, their decisions and
draws, when the dealer is bought a game and which of his cards he replaces
(``_replacements``), and the settlement (``_settle``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from controller.cards import Card
from controller.events import Action, Bet, CardOut, CloseBets, Void
from controller.games.contract import (
    DispatchedRound, Effect, Outcome, Prompt, Reject, RoundConfig, Settlement, handles, settle_void,
)

DEALER = 0


class FiveCardStudRound(DispatchedRound):
    """The deal, the owed cards, buying the dealer a game and the contract of a five-card game against the dealer.

    Subclasses set ``played`` (the decision that stakes the raise: ``"bet"`` or ``"raise"``), ``played_words``
    (how a box that made it is named: "bet", "raised"), ``no_game`` (how the dealer without a game is named),
    ``decision_words`` (the decisions, as ``waiting_for`` lists them), and implement ``_decide_prompt``,
    ``_replacements``, ``_settle`` and ``suggested``.
    """

    played: str = "raise"
    played_words: str = "raised"
    no_game: str = "has none"
    decision_words: str = "fold or raise"

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.bets: list[Bet] = list(carried)
        self.hands: dict[int, list[Card]] = {}
        self.dealt: list[Card] = []
        self.plan: list[int] = []
        self.decided: dict[int, str] = {}
        self.owed: list[tuple[int, int | None]] = []  # (box, position) of cards still to come; None: one more card
        self.buyers: list[int] = []
        self.dealer_first: list[str] = []
        self.phase = "bets"
        self.betting_open = True
        self._outcome: dict[str, Any] | None = None
        self._settlements: list[Settlement] = []

    # ------------------------------------------------------------------ for the games

    def _decide_prompt(self) -> Prompt:
        raise NotImplementedError

    def _replacements(self) -> list[tuple[int, int | None]]:
        """The dealer's cards owed when he is bought a game."""
        raise NotImplementedError

    def _settle(self) -> list[Effect]:
        raise NotImplementedError

    def suggested(self, seat: int) -> Action:
        """The game's stated strategy for the box's decision (virtual players)."""
        raise NotImplementedError

    def _close_effects(self) -> list[Effect]:
        """What closing the bets does besides the first prompt (the progressive's meter contributions)."""
        return []

    def _check_card(self, card: Card) -> None:
        """Refuse a card that is not part of the game's deck."""

    def _waiting_extra(self) -> str | None:
        """What the round waits for in a phase of the game's own, or ``None``."""
        return None

    # ------------------------------------------------------------------ boxes and stakes

    @property
    def table(self) -> Mapping[str, Any]:
        table: Mapping[str, Any] = self.config.paytable[self.config.variant]
        return table

    def stake_limits(self, spot: str) -> tuple[int, int | None]:
        configured = self.config["limits"].get(spot)
        return (configured[0], configured[1]) if configured else (0, None)

    def boxes(self) -> list[int]:
        return sorted(b.seat for b in self.bets if b.spot == "ante")

    def bet_of(self, seat: int, spot: str) -> Bet | None:
        return next((b for b in self.bets if b.seat == seat and b.spot == spot), None)

    def _ante(self, seat: int) -> Bet:
        ante = self.bet_of(seat, "ante")
        assert ante is not None
        return ante

    def _stake(self, seat: int, spot: str, times: int = 1) -> Bet:
        """A stake of ``times`` the box's ante on ``spot``, for the ante's player."""
        ante = self._ante(seat)
        return Bet(seat, spot, None if ante.amount is None else ante.amount * times, ante.player)

    @staticmethod
    def _who(seat: int) -> str:
        return "the dealer" if seat == DEALER else f"box {seat}"

    # ------------------------------------------------------------------ the deal

    def _close(self) -> list[Effect]:
        if not self.boxes():
            raise Reject("no box has an ante: nothing to deal")
        self.phase = "deal"
        self.betting_open = False
        self.plan = [seat for _ in range(5) for seat in self.boxes() + [DEALER]]
        self.hands = {seat: [] for seat in self.boxes() + [DEALER]}
        return self._close_effects() + [Prompt(f"No more bets. Card 1 to {self._who(self.plan[0])}",
                                               expects=("card",))]

    def _dealt_five(self) -> None:
        """Every hand has its five cards: the decisions begin."""
        self.phase = "decide"
        self.dealer_first = [str(c) for c in self.hands[DEALER]]

    def _card(self, card: Card) -> list[Effect]:
        effects: list[Effect] = []
        if self.phase == "bets":
            effects.extend(self._close())
        self._check_card(card)
        if card in self.dealt:
            raise Reject(f"{card} was already dealt this round: one deck, check the shoe")
        if self.phase == "deal":
            seat = self.plan[len(self.dealt)]
            self.dealt.append(card)
            self.hands[seat].append(card)
            if len(self.dealt) < len(self.plan):
                return effects + [Prompt(f"Card to {self._who(self.plan[len(self.dealt)])}", expects=("card",))]
            self._dealt_five()
            return effects + [self._decide_prompt()]
        if self.owed:
            seat, position = self.owed.pop(0)
            self.dealt.append(card)
            if position is None:
                self.hands[seat].append(card)
            else:
                self.hands[seat][position] = card
            if self.owed:
                return effects + [Prompt(f"Card to {self._who(self.owed[0][0])}", expects=("card",))]
            if self.phase in ("redeal", "exchange"):
                return effects + self._settle()
            return effects + [self._decide_prompt()]
        raise Reject(f"no card expected now: waiting for {self.waiting_for()}")

    def _decider(self, action: Action) -> int:
        """The box of a decision, refused unless the box may decide now and names no stake."""
        if self.phase != "decide" or self.owed:
            raise Reject(f"no decisions now: waiting for {self.waiting_for()}")
        seat = action.seat
        if seat not in self.boxes():
            raise Reject(f"box {seat} has no hand in this round")
        if seat in self.decided:
            raise Reject(f"box {seat} has already decided: {self.decided[seat]}")
        if action.multiple is not None or action.amount is not None or action.hand is not None:
            raise Reject(f"'{action.action}' takes the box only: the stake follows from the rules")
        return seat

    # ------------------------------------------------------------------ buying the dealer a game

    def _buy_dealer(self, action: Action) -> list[Effect]:
        if self.phase != "buy":
            raise Reject(f"buying the dealer a game only when he {self.no_game}" if self.phase in ("decide", "done")
                         else f"no decisions now: waiting for {self.waiting_for()}")
        if self.decided.get(action.seat) != self.played:
            raise Reject(f"box {action.seat} has not {self.played_words}: only a box that {self.played_words} may "
                         "buy the dealer a game")
        if action.seat in self.buyers:
            raise Reject(f"box {action.seat} has bought the dealer a game already")
        self.buyers.append(action.seat)
        self.bets.append(self._stake(action.seat, "buy_dealer"))
        return [Prompt("Bought. More buyers, then the dealer's new card", expects=("action", "card"))]

    def _end_buying(self) -> list[Effect]:
        if not self.buyers:
            return self._settle()
        self.phase = "redeal"
        self.owed = self._replacements()
        return [Prompt("No more buyers: the dealer's new card", expects=("card",))]

    # ------------------------------------------------------------------ events the games take alike

    @handles(Void)
    def _void(self, event: Void) -> list[Effect]:
        self.phase = "done"
        self._outcome = {"void": event.reason}
        effects: list[Effect] = [Outcome(self._outcome)]
        settlements = settle_void(self.bets, event.reason)
        self._settlements.extend(settlements)
        effects.extend(settlements)
        return effects

    @handles(CloseBets)
    def _on_close_bets(self, event: CloseBets) -> list[Effect]:
        if self.phase == "buy":
            return self._end_buying()
        if self.phase != "bets":
            raise Reject("the bets are already closed")
        return self._close()

    @handles(CardOut)
    def _on_card(self, event: CardOut) -> list[Effect]:
        if self.phase == "buy":
            if not self.buyers:
                raise Reject("nobody bought the dealer a game: no more bets to settle")
            self._end_buying()
        return self._card(event.card)

    # ------------------------------------------------------------------ the contract

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    def waiting_for(self) -> str:
        if self.phase == "done":
            return "nothing: the round is settled"
        if self.phase == "bets":
            return "bets, then no more bets"
        if self.owed:
            return f"card to {self._who(self.owed[0][0])}"
        if self.phase == "deal":
            return f"card to {self._who(self.plan[len(self.dealt)])}"
        extra = self._waiting_extra()
        if extra is not None:
            return extra
        if self.phase == "buy":
            return "buyers of the dealer's game (buy_dealer), then no more bets or the dealer's new card"
        waiting = [s for s in self.boxes() if s not in self.decided]
        return f"decision ({self.decision_words}) at box {', '.join(map(str, waiting))}"

    def outcome(self) -> Mapping[str, Any] | None:
        return self._outcome

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)
