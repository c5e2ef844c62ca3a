"""One hand at a poker-room table, under the project's Round contract.

Between hands (the round opens here) the croupier enters the table as it is:
buy-ins (``bet`` spot ``buy_in`` with the amount), a player leaving
(``action leave``), the button where the floor puts it (``action button``),
the time charge (``action time_charge``). ``close_bets`` (or the first card
out of the shoe) deals the hand to every seat with chips; from then on the
hand takes the cards in the order PokerKit deals them and each player's
action at their turn. When the hand is over every seat dealt in is settled
(spot ``pot``: its stake is what it put in, its net what it got back less
that), the rake and the bad beat drop go to their meters, a bad beat hit
is paid from the jackpot meter, and the stacks and the button are carried
into the next round (spots ``stack`` and ``button``).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from controller.events import Action, Bet, CardOut, CloseBets, Event, Void
from controller.games.contract import (
    Alert,
    CardChoice,
    Effect,
    MeterChange,
    Outcome,
    Prompt,
    Reject,
    Round,
    RoundConfig,
    Settlement,
)
from controller.games.poker_room.engine import EngineError, HouseTake, PokerHand, Setup, clone, from_pk, streets_for
from controller.games.poker_room.jackpot import BadBeatRule, bad_beat, label_rank, sequential_shares
from controller.games.poker_room.variants import BY_ID, GameRule
from controller.hands.high import best_high
from controller.hands.qualifiers import pair_or_better

BETTING_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in", "bring_in", "complete")
DRAW_ACTIONS = ("draw", "stand_pat")
TABLE_ACTIONS = ("leave", "button", "time_charge")


def _names(seats: Sequence[int]) -> str:
    return ", ".join(f"box {s}" for s in seats)


class PokerRoomRound(Round):
    """Seats, then one hand through the PokerKit adapter, then the settlement."""

    def __init__(self, config: RoundConfig, carried: tuple[Bet, ...] = ()) -> None:
        super().__init__(config)
        self.rule: GameRule = BY_ID[config.game]
        self.stacks: dict[int, int] = {}
        self.players: dict[int, str | None] = {}
        self.button: int | None = None
        self.carried_button: int | None = None
        for bet in carried:
            if bet.spot == "stack" and bet.amount:
                self.stacks[bet.seat] = bet.amount
                self.players[bet.seat] = bet.player
            elif bet.spot == "button":
                self.carried_button = bet.seat
        self.charged: dict[int, int] = {}  # time charges taken before this hand
        self.left: dict[int, int] = {}  # seats that left before the hand, with the stack they took
        self.bought: dict[int, int] = {}
        self.hand: PokerHand | None = None
        self.order: list[int] = []  # PokerKit player index -> seat
        self.start_stacks: dict[int, int] = {}
        self._settlements: list[Settlement] = []
        self._outcome: dict[str, Any] | None = None
        self._complete = False
        self._next: list[Bet] = []
        self.opened = False  # five card draw with openers: somebody opened the first betting round

    # ------------------------------------------------------------------ the contract

    @property
    def complete(self) -> bool:
        return self._complete

    def outcome(self) -> Mapping[str, Any] | None:
        return self._outcome

    def settlements(self) -> Sequence[Settlement]:
        return tuple(self._settlements)

    def carried(self) -> tuple[Bet, ...]:
        return tuple(self._next)

    def closed_reason(self, event: Event) -> str:
        return "the hand is over and settled; the next hand opens a new round"

    def _snapshot(self) -> dict[str, Any]:
        """The round as it is, cheaply: the hand through ``PokerHand.clone``, the rest container by container."""
        out: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key == "config" or key == "rule":
                out[key] = value
            elif isinstance(value, PokerHand):
                out[key] = value.clone()
            else:
                out[key] = clone(value)
        return out

    def _apply(self, event: Event) -> Iterable[Effect]:
        self.__dict__.pop("_legal_now", None)  # what the round allows is worked out afresh during an event
        effects = self._dispatch(event)
        self.betting_open = self.hand is None and not self.complete  # buy-ins are taken between hands
        last = self.__dict__.pop("_last_prompt", None)
        if last is not None and isinstance(effects, list) and effects and effects[-1] is last[0]:
            # the event ended on that prompt, worked out after the last change: it is what the round allows
            # now, until the next event (the dealer terminal and the players ask again at once)
            self._legal_now = last[1]
        return effects

    def _dispatch(self, event: Event) -> Iterable[Effect]:
        if isinstance(event, Void):
            return self._void(event)
        if self.hand is None:
            return self._between_hands(event)
        return self._in_hand(event)

    # ------------------------------------------------------------------ between hands

    def _between_hands(self, event: Event) -> list[Effect]:
        if isinstance(event, Bet):
            return self._buy_in(event)
        if isinstance(event, Action):
            return self._table_action(event)
        if isinstance(event, CloseBets):
            return self._deal()
        if isinstance(event, CardOut):
            return self._deal() + self._in_hand(event)
        raise Reject("between hands the table takes buy-ins, the button, the time charge, a player leaving, "
                     "then no more bets (or the first card) to deal")

    def _buy_in(self, bet: Bet) -> list[Effect]:
        if bet.spot != "buy_in":
            raise Reject(f"box {bet.seat}: chips come to the table as a buy-in (spot buy_in), not {bet.spot!r}")
        self._check_seat(bet.seat)
        if bet.amount is None or bet.amount <= 0:
            raise Reject(f"box {bet.seat}: a buy-in needs its amount in minor units")
        if bet.seat in self.left:
            raise Reject(f"box {bet.seat} has left this hand; the player buys in again at the next hand")
        have = self.stacks.get(bet.seat, 0)
        minimum, maximum = self.config["buy_in"], self.config["max_buy_in"]
        if have == 0 and bet.amount < minimum:
            raise Reject(f"box {bet.seat}: the buy-in is at least {minimum}, not {bet.amount}")
        if maximum is not None and have + bet.amount > maximum:
            raise Reject(f"box {bet.seat}: at most {maximum} on the table; {have} is there already")
        occupied = set(self.stacks) | {bet.seat}
        if len(occupied) > self.config["seats"]:
            raise Reject(f"the table has {self.config['seats']} seats and they are taken")
        self.stacks[bet.seat] = have + bet.amount
        if bet.player is not None or bet.seat not in self.players:
            self.players[bet.seat] = bet.player
        self.bought[bet.seat] = self.bought.get(bet.seat, 0) + bet.amount
        return [self._prompt()]

    def _table_action(self, action: Action) -> list[Effect]:
        seat = action.seat
        if action.action == "leave":
            if seat not in self.stacks:
                raise Reject(f"box {seat} has no player")
            self.left[seat] = self.stacks.pop(seat)
            self.players.pop(seat, None)
            if self.button == seat:
                self.button = None
            return [self._prompt()]
        if action.action == "button":
            if self.rule.family == "stud":
                raise Reject("stud has no button: the cards decide who acts first")
            if seat not in self.stacks:
                raise Reject(f"box {seat} has no player; the button goes to a seated player")
            self.button = seat
            return [self._prompt()]
        if action.action == "time_charge":
            fee = self.config["time_charge"]
            if not fee:
                raise Reject("this table takes no time charge (option time_charge)")
            if seat not in self.stacks:
                raise Reject(f"box {seat} has no player")
            if seat in self.charged:
                raise Reject(f"box {seat} has paid the time charge already")
            if self.stacks[seat] < fee:
                raise Reject(f"box {seat} has {self.stacks[seat]}, less than the time charge of {fee}")
            self.stacks[seat] -= fee
            self.charged[seat] = fee
            effects: list[Effect] = [Settlement(seat, "time_charge", "lose", stake=fee, net=-fee,
                                                player=self.players.get(seat), note="time charge")]
            self._settlements.append(effects[0])  # type: ignore[arg-type]
            if self.config["rake_meter"]:
                effects.append(MeterChange(self.config["rake_meter"], "contribution", seat=seat, amount=fee))
            return effects + [self._prompt()]
        raise Reject(f"between hands box {seat} can only buy in, leave, take the button or pay the time charge; "
                     f"{action.action!r} waits for the cards")

    def _check_seat(self, seat: int) -> None:
        if not 1 <= seat <= self.config["seats"]:
            raise Reject(f"there is no box {seat} (the table has {self.config['seats']})")

    # ------------------------------------------------------------------ dealing

    def _deal(self) -> list[Effect]:
        seated = sorted(s for s, chips in self.stacks.items() if chips > 0)
        if len(seated) < 2:
            raise Reject("a hand needs at least two players with chips")
        if self.rule.family == "stud":
            self.order = seated
        else:
            button = self.button if self.button in seated else self._next_button(seated)
            self.button = button
            at = seated.index(button)
            self.order = seated[at + 1:] + seated[:at + 1]  # first to the button's left, the button last
        self.start_stacks = {s: self.stacks[s] for s in self.order}
        try:
            self.hand = PokerHand(self._setup())
        except EngineError as exc:
            raise Reject(f"the hand cannot be dealt: {exc}") from None
        return [self._prompt()]

    def _next_button(self, seated: list[int]) -> int:
        last = self.carried_button
        if last is None:
            return seated[0]
        after = [s for s in seated if s > last]
        return after[0] if after else seated[0]

    def _setup(self) -> Setup:
        c, rule = self.config, self.rule
        n = len(self.order)
        structure = c.variant
        if rule.family == "stud":
            small, big = c["small_bet"], c["big_bet"]
            blinds: tuple[int, ...] = (0,) * n
            bring_in = c["bring_in"]
        else:
            small = c["big_blind"]
            big = 2 * small if structure == "limit" else small
            blinds = (c["small_blind"], c["big_blind"]) + (0,) * (n - 2)
            if c.get("openers") == "jacks":
                blinds = (0,) * n  # antes only: the first bet is an opener's
            bring_in = 0
        streets = streets_for(rule.family, rule.hole, small, big, structure, c["burn_cards"],
                              draws=c.get("draws", 1), low=c["scale"] == "low", flop=rule.flop,
                              first_board=rule.first_board, bring_in=c.get("bring_in", 0), blinds=any(blinds))
        house = HouseTake(c["rake_bp"], c["rake_cap"], c["rake_unit"], c["no_flop_no_drop"],
                          c["bad_beat_drop"] if c["bad_beat"] else 0, c["bad_beat_players"])
        antes = [c["ante"]] * n
        big_blind_ante = c.get("big_blind_ante", 0)
        if big_blind_ante:
            antes[1] += big_blind_ante  # PokerKit's second player is the big blind (heads up too: it swaps both)
        return Setup(streets, rule.hand_types(c["scale"], c.get("low_qualifier", "eight"), c.get("lowball", "")),
                     structure, tuple(antes), blinds, bring_in, tuple(self.stacks[s] for s in self.order),
                     rule.boards, house, tuple(sorted(rule.discards.items())), ante_trimming=not big_blind_ante)

    # ------------------------------------------------------------------ the hand

    def _in_hand(self, event: Event) -> list[Effect]:
        hand = self.hand
        assert hand is not None
        try:
            if isinstance(event, CardOut):
                if hand.card_step() == "discard":
                    raise Reject(f"{_names([self.order[i] for i in hand.must_discard()])} must throw a card away "
                                 "before the next card")
                if hand.card_step() is None:
                    raise Reject(self._who_acts_reason())
                hand.card(event.card)
            elif isinstance(event, Action):
                self._act(hand, event)
            elif isinstance(event, Bet):
                raise Reject(f"box {event.seat}: no buy-in during a hand; chips on the table before the deal play "
                             "the hand (004)")
            else:
                raise Reject(self._who_acts_reason())
        except EngineError as exc:
            raise Reject(self._croupier_words(str(exc), event)) from None
        if hand.done:
            return self._settle()
        if self._openers() and not self.opened and (hand.state.street_index or 0) > 0:
            return self._passed_out()
        return [self._prompt()]

    def _openers(self) -> bool:
        return bool(self.config.get("openers") == "jacks")

    def _passed_out(self) -> list[Effect]:
        """Nobody could open: the hand is not played, the antes go back, the button moves on."""
        self._outcome = {"game": self.rule.id, "passed_out": "nobody opened with jacks or better; the antes are "
                         "returned", "button": self.button,
                         "seats": [{"seat": s, "stack": self.start_stacks[s]} for s in self.order]}
        self._complete = True
        self._next = [Bet(s, "stack", chips, self.players.get(s)) for s, chips in sorted(self.stacks.items()) if chips]
        if self.button is not None:
            self._next.append(Bet(self.button, "button"))
        return [Outcome(self._outcome)]

    def _act(self, hand: PokerHand, action: Action) -> None:
        seat = action.seat
        if seat not in self.order:
            raise Reject(f"box {seat} is not in this hand")
        player = self.order.index(seat)
        name = action.action
        if name == "discard":
            hand.discard(player, action.cards or ())
            return
        if name in DRAW_ACTIONS:
            if hand.drawer != player:
                raise Reject(self._who_acts_reason(seat))
            if name == "draw" and not action.cards:
                raise Reject(f"box {seat}: a draw names the cards thrown away; a box that keeps all five stands pat")
            hand.act(name, None, action.cards or ())
            return
        if name not in BETTING_ACTIONS:
            raise Reject(f"box {seat}: no action {name!r} here (the actions: {', '.join(BETTING_ACTIONS)})")
        if hand.actor != player:
            raise Reject(self._who_acts_reason(seat))
        # before anybody has opened nothing is bet: a bet, a raise or a completion named so, or every chip, opens
        opening = self._openers() and not self.opened and name in ("bet", "raise", "complete", "all_in")
        if opening and self._cannot_open(player):
            raise Reject(f"box {seat} cannot open: it takes a pair of jacks or better to open; check")
        hand.act(name, action.amount)
        if opening:
            self.opened = True

    def _cannot_open(self, player: int) -> bool:
        """Jacks or better, before anybody has opened: ``player`` (PokerKit's index) holds less than a pair of jacks.

        Every hole card is read from the shoe and all five are dealt before the first bet, so the round knows the
        hand of every player to act; ``_legal`` (what the round offers) and ``_act`` (what it takes) ask this one
        question.
        """
        hand = self.hand
        assert hand is not None
        return self._openers() and not self.opened and not pair_or_better(best_high(hand.hole_now(player)), 11)

    def _who_acts_reason(self, seat: int | None = None) -> str:
        waiting = self.waiting_for()
        return f"not box {seat}'s turn: {waiting}" if seat is not None else f"not now: {waiting}"

    def _croupier_words(self, message: str, event: Event) -> str:
        if isinstance(event, CardOut):
            if "not recommended to be dealt" in message:
                return f"{event.card} is already out in this hand; check the shoe (misdeal?)"
            return f"{event.card} cannot be dealt now: {message}"
        seat = getattr(event, "seat", None)
        return f"box {seat}: {message}" if seat is not None else message

    # ------------------------------------------------------------------ prompts

    def legal(self) -> dict[str, Any]:
        """What the round waits for, for the dealer terminal: the box, the actions and their amounts."""
        known: dict[str, Any] | None = self.__dict__.get("_legal_now")
        if known is not None:
            return {k: clone(v) for k, v in known.items()}  # a copy: the caller may change it
        return self._legal()

    def _legal(self) -> dict[str, Any]:
        hand = self.hand
        if self._complete:
            return {"waiting": "nothing"}
        if hand is None:
            return {"waiting": "table", "actions": list(TABLE_ACTIONS) + ["buy_in", "close_bets"],
                    "seats": {str(s): self.stacks[s] for s in sorted(self.stacks)}}
        step = hand.card_step()
        if step == "discard":
            return {"waiting": "discard", "boxes": [self.order[i] for i in hand.must_discard()],
                    "cards": dict(hand.setup.discards)[hand.discard_phase() or 0]}
        if step is not None:
            out: dict[str, Any] = {"waiting": "card", "card": step}
            if step == "hole":
                dealee = hand.hole_dealee()
                out["box"] = self.order[dealee] if dealee is not None else None
            return out
        options = hand.options()
        player = options.pop("player")
        if player is not None and "bet" in options["actions"] and self._cannot_open(player):
            options["actions"] = [a for a in options["actions"] if a != "bet"]  # check only: no openers
            options.pop("min_to", None)
            options.pop("max_to", None)
        return {"waiting": "action", "box": self.order[player] if player is not None else None, **options}

    def amounts(self, seat: int, action: str) -> tuple[int, int] | None:
        """A bet, raise or completion of the box to act: what it makes the box's stake in the street, least
        and most (equal in a limit game: the fixed bet)."""
        legal = self.legal()
        if legal.get("waiting") != "action" or legal.get("box") != seat or action not in legal.get("actions", ()):
            return None
        least, most = legal.get("min_to"), legal.get("max_to")
        if action not in ("bet", "raise", "complete") or not isinstance(least, int) or not isinstance(most, int):
            return None
        return least, most

    def card_choice(self, seat: int, action: str) -> CardChoice | None:
        """The draw of the box to draw (one to all of its cards; keeping all is a stand pat) and the discard
        of a box that must throw cards away (exactly as many as the game throws)."""
        hand = self.hand
        if hand is None or self._complete or seat not in self.order:
            return None
        player = self.order.index(seat)
        legal = self.legal()
        if action == "draw" and legal.get("waiting") == "action" and legal.get("box") == seat \
                and "draw" in legal.get("actions", ()):
            held = tuple(hand.hole_now(player))
            return CardChoice(held, 1, len(held)) if held else None
        if action == "discard" and legal.get("waiting") == "discard" and seat in legal.get("boxes", ()):
            count = int(legal["cards"])
            return CardChoice(tuple(hand.hole_now(player)), count, count)
        return None

    def layout(self) -> Mapping[str, Any] | None:
        """The table as the croupier sees it: each box's cards (a card dealt face down is ``down``, a stud up
        card as it is), its stack and its bet in the street, the button and the folds; the board(s) face up.
        Between hands: the seated boxes and their stacks."""
        hand = self.hand
        boxes: list[dict[str, Any]] = []
        if hand is None or self._complete:
            for seat, chips in sorted(self.stacks.items()):
                entry: dict[str, Any] = {"seat": seat, "hands": [], "stack": chips}
                if self.players.get(seat):
                    entry["player"] = self.players[seat]
                if seat == (self.button if self.button is not None else self.carried_button) \
                        and self.rule.family != "stud":
                    entry["button"] = True
                boxes.append(entry)
            return {"boxes": boxes, "boards": []}
        state = hand.state
        folded = hand.folded()
        for i, seat in enumerate(self.order):
            held = [str(from_pk(c)) if up else "down"
                    for c, up in zip(state.hole_cards[i], state.hole_card_statuses[i])]
            one: dict[str, Any] = {"cards": held}
            if i in folded:
                one["note"] = "folded"
            entry = {"seat": seat, "hands": [one], "stack": state.stacks[i], "bet": state.bets[i]}
            if self.players.get(seat):
                entry["player"] = self.players[seat]
            if seat == self.button and self.rule.family != "stud":
                entry["button"] = True
            boxes.append(entry)
        boards = [[str(c) for c in hand.board_now(b)] for b in range(state.board_count)]
        return {"boxes": sorted(boxes, key=lambda b: b["seat"]), "boards": boards if any(boards) else []}

    def _prompt(self) -> Prompt:
        legal = self._legal()
        prompt = self._prompt_for(legal)
        self._last_prompt = (prompt, legal)
        return prompt

    def _prompt_for(self, legal: dict[str, Any]) -> Prompt:
        waiting = legal["waiting"]
        text = self._words(legal)
        if waiting == "table":
            return Prompt(text, None, ("bet", "leave", "button", "time_charge", "close_bets", "card"))
        if waiting == "card" or waiting == "discard":
            return Prompt(text, legal.get("box"), ("card",) if waiting == "card" else ("discard",))
        acts = tuple(legal.get("actions", ()))
        if any(a in acts for a in ("bet", "raise", "complete", "call")):
            acts += ("all_in",)  # every chip: a bet or raise of the whole stack, or a call with all that is left
        return Prompt(text, legal.get("box"), acts)

    def waiting_for(self) -> str:
        if self._complete:
            return "the hand is settled"
        return self._words(self.legal())

    def _words(self, legal: dict[str, Any]) -> str:
        """What ``legal`` waits for, in the croupier's words."""
        waiting = legal["waiting"]
        if waiting == "table":
            seated = ", ".join(f"box {s} {chips}" for s, chips in sorted(self.stacks.items())) or "nobody"
            return f"seats and buy-ins (seated: {seated}); no more bets to deal"
        if waiting == "discard":
            return f"{_names(legal['boxes'])} to throw away {legal['cards']} card(s)"
        if waiting == "card":
            step = legal["card"]
            if step == "hole":
                return f"card to box {legal['box']}"
            return "burn card" if step == "burn" else "board card"
        box = legal["box"]
        acts = legal["actions"]
        if acts == ["draw", "stand_pat"]:
            return f"box {box} to draw (the cards thrown) or stand pat"
        words = []
        for act in acts:
            if act == "call":
                words.append(f"call {legal['call']}")
            elif act in ("bet", "raise", "complete"):
                words.append(f"{act} to {legal['min_to']}..{legal['max_to']}")
            elif act == "bring_in":
                words.append(f"bring in {legal['bring_in']}")
            else:
                words.append(act)
        return f"box {box} to act: {', '.join(words)}"

    # ------------------------------------------------------------------ the end of the hand

    def _settle(self) -> list[Effect]:
        hand = self.hand
        assert hand is not None
        payoffs = hand.payoffs()
        stacks = hand.stacks()
        won = [0] * len(self.order)
        for push in hand.pushes():
            for i, amount in enumerate(push.amounts):
                won[i] += amount
        rake, drop = hand.house_take()
        effects: list[Effect] = []
        seats_out = []
        for i, seat in enumerate(self.order):
            net = payoffs[i]
            put_in = won[i] - net
            result = "win" if net > 0 else "lose" if net < 0 else "push"
            settlement = Settlement(seat, "pot", result, stake=put_in, net=net, player=self.players.get(seat))
            self._settlements.append(settlement)
            effects.append(settlement)
            self.stacks[seat] = stacks[i]
            seats_out.append({"seat": seat, "player": self.players.get(seat), "cards": [str(c) for c in hand.dealt[i]],
                              "thrown": [str(c) for c in hand.discards[i]],
                              "stack_before": self.start_stacks[seat], "put_in": put_in, "won": won[i],
                              "stack_after": stacks[i]})
        shown = self._shown()
        for entry in seats_out:
            if entry["seat"] in shown:
                entry["hand"] = shown[entry["seat"]]
        staked = [won[i] - payoffs[i] for i in range(len(self.order))]
        pots = [{"amount": amount, "boxes": [self.order[i] for i in players]}
                for amount, players in hand.contribution_pots(staked)]
        paid = [{"amount": p["amount"], "taken": p["taken"], "boxes": [self.order[i] for i in p["players"]],
                 "won": {str(self.order[i]): a for i, a in sorted(p["won"].items(), key=lambda kv: self.order[kv[0]])}}
                for p in hand.final_pots()]
        self._outcome = {
            "game": self.rule.id, "betting": self.config.variant, "scale": self.config["scale"],
            "button": self.button, "order": list(self.order),
            "board": [str(c) for c in hand.board], "burned": [str(c) for c in hand.burned],
            "pots": pots, "paid": paid, "rake": rake, "drop": drop, "seats": seats_out,
            "time_charge": {str(s): fee for s, fee in sorted(self.charged.items())},
        }
        if self.config["bad_beat"]:
            self._outcome["bad_beat"] = self._bad_beat(effects, drop)
        meter = self.config["rake_meter"]
        if meter and rake:
            effects.append(MeterChange(meter, "contribution", amount=rake))
        self._complete = True
        self._next = [Bet(s, "stack", chips, self.players.get(s)) for s, chips in sorted(self.stacks.items()) if chips]
        if self.button is not None:
            self._next.append(Bet(self.button, "button"))
        return [Outcome(self._outcome)] + effects

    def _shown(self) -> dict[int, str]:
        """The best hand of every player still in at the showdown (empty when the hand ended on a fold)."""
        hand = self.hand
        assert hand is not None
        state = hand.state
        out = {}
        for i in hand.at_showdown():
            names = []
            for b in range(state.board_count):
                for t in range(state.hand_type_count):
                    best = hand.best_hand(i, b, t)
                    label = getattr(best, "name", None) or (best.entry.label.lower() if best is not None else "")
                    names.append(f"{label} {''.join(map(repr, best.cards))}" if best is not None
                                 else "no low" if t else "no hand")
            out[self.order[i]] = " / ".join(names)
        return out

    def _bad_beat(self, effects: list[Effect], drop: int) -> dict[str, Any]:
        hand = self.hand
        assert hand is not None
        c = self.config
        state = hand.state
        reached = state.reached_second_round()
        out: dict[str, Any] = {"dealt_in": len(self.order), "reached_second_round": reached, "drop": drop}
        if drop:
            effects.append(MeterChange(c["drop_meter"], "contribution", amount=drop))
        rule = BadBeatRule(c["bad_beat_qualifier"], c["bad_beat_players"], c["bad_beat_losing"],
                           c["bad_beat_winning"], c["bad_beat_table"])
        shown: dict[int, tuple[Any, int]] = {}
        for i in hand.at_showdown():
            best = hand.best_hand(i, 0, 0)
            if best is not None:
                shown[self.order[i]] = (best, label_rank(best.entry.label))
        hit = bad_beat(rule, self.order, shown, reached)
        if hit is None:
            out["hit"] = None
            return out
        out["hit"] = hit.to_json()
        order = [s for s in hit.losing] + [s for s in hit.winning] + [s for s in self.order
                                                                        if s not in hit.losing + hit.winning]
        for seat, share in sequential_shares([(s, hit.shares[s]) for s in order]):
            role = "losing hand" if seat in hit.losing else "winning hand" if seat in hit.winning else "table share"
            effects.append(MeterChange(c["jackpot_meter"], "hit", seat=seat, share=share, hand=f"bad beat: {role}"))
        effects.append(Alert("jackpot", f"bad beat jackpot hit: losing hand {_names(hit.losing)}, winning hand "
                                        f"{_names(hit.winning)}; a supervisor checks the hands and confirms"))
        return out

    def _void(self, event: Void) -> list[Effect]:
        """A misdeal: the hand is called off and every stack goes back to what it was before the deal."""
        if self.hand is None:
            raise Reject("no hand has been dealt; nothing to void")
        self._outcome = {"game": self.rule.id, "void": event.reason, "button": self.button,
                         "seats": [{"seat": s, "stack": self.start_stacks[s]} for s in self.order]}
        self._complete = True
        back = dict(self.stacks)
        self._next = [Bet(s, "stack", chips, self.players.get(s)) for s, chips in sorted(back.items()) if chips]
        if self.carried_button is not None:
            self._next.append(Bet(self.carried_button, "button"))  # a misdealt hand does not move the button
        return [Outcome(self._outcome)]
