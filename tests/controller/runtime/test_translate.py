"""The translator, kind by kind: every device event of drivers/events.py and what it means at the table.

Each row is (source, event, the table as the translator sees it, the intents expected). A device event kind
without a row fails ``test_every_device_event_kind_has_a_row``; a row whose meaning changes (a tamper that is
only noted, a jam that no longer latches) fails its own case.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller.cards import parse_card
from controller.events import Action, Bet, CardOut, CloseBets, Dice, Puck, Void, Wheel
from controller.runtime.interfaces import Command
from controller.runtime.translate import (
    Clear, Hold, Latch, Memory, Noted, Run, ShoeNote, Submit, TableView, Wiring, translate,
)
from drivers import events as ev
from tests.controller.runtime.helpers import open_table, progressive_config, punto_config

PANEL = Wiring("blackjack", {"nmb": "close_bets", "stand": "stand", "burn": "burn", "void": "void",
                             "ok": "confirm", "clear": "clear_fault", "shoe": "new_shoe", "key": "supervisor_key"},
               "progressive", {"camera": {"fail_limit": 2}})
KEY = Memory(key_held=True)
V = TableView(PANEL)

CASES: list[tuple[str, str, object, TableView, tuple[Any, ...]]] = [
    # -- the shoe and the shuffler
    ("card", "shoe", ev.CardDealt("Ah"), V, (Submit(CardOut(parse_card("Ah"))),)),
    ("card unparsable", "shoe", ev.CardDealt("Zz"), V,
     (Latch("reader_failing", "unreadable card: bad card 'Zz': unknown suit 'z' (use c, d, h, s)"),)),
    ("card at the shuffler", "shuffler", ev.CardDealt("Ah"), V,
     (Noted("shuffler: a card read while shuffling (not dealt)"),)),
    ("shoe lid", "shoe", ev.ShoeState(closed=False), V, (Noted("shoe: ShoeState noted"),)),
    ("cut card", "shoe", ev.CutCard(), V, (ShoeNote("cut_card"),)),
    ("shoe empty", "shoe", ev.ShoeEmpty(), V, (ShoeNote("shoe_empty"),)),
    ("jam", "shoe", ev.Jam("card stuck"), V, (Latch("device_fault", "shoe jammed: card stuck"),)),
    ("jam without words", "shuffler", ev.Jam(), V, (Latch("device_fault", "shuffler jammed"),)),
    ("unreadable", "shoe", ev.Unreadable("smudged"), V,
     (Latch("reader_failing", "a card left the shoe unread: smudged; enter it by hand"),)),
    ("tamper", "shoe", ev.Tamper("cover opened"), V, (Latch("device_fault", "shoe reports tampering: cover opened"),)),
    ("shuffle started", "shuffler", ev.ShuffleStarted(), V, (Noted("shuffler: ShuffleStarted noted"),)),
    ("shuffle done", "shuffler", ev.ShuffleDone(416), V, (ShoeNote("shuffle_done"),)),
    ("deck check ok", "shuffler", ev.DeckCheck(counted=52), V, (ShoeNote("deck_check_ok"),)),
    ("deck check bad", "shuffler", ev.DeckCheck(missing=("Ah",), extra=("Kd", "Kd"), foreign=("Zz",)), V,
     (Latch("deck_check", "missing Ah; extra Kd,Kd; foreign Zz"),)),
    ("door open", "shuffler", ev.DoorOpen(), V, (Noted("shuffler: DoorOpen noted"),)),
    ("door closed", "shuffler", ev.DoorClosed(), V, (Noted("shuffler: DoorClosed noted"),)),
    ("identity", "shoe", ev.DeviceIdentity("shoe", "S1", "1.0", 1), V, (Noted("shoe: DeviceIdentity noted"),)),
    ("link fault", "shoe", ev.LinkFault("no heartbeat"), V, (Latch("link_down", "shoe: no heartbeat"),)),
    ("link restored, fault latched", "shoe", ev.LinkRestored(),
     replace(V, faults=frozenset({"link_down.shoe"}),
             memory=Memory(down={"link_down.shoe": frozenset({"shoe"})})),
     (Clear("link_down.shoe", "shoe is back", "shoe (device)"), Noted("shoe is back; link_down.shoe cleared"))),
    ("link restored, latched before a restart", "shoe", ev.LinkRestored(),
     replace(V, faults=frozenset({"link_down.shoe"})),
     (Clear("link_down.shoe", "shoe is back", "shoe (device)"), Noted("shoe is back; link_down.shoe cleared"))),
    ("link restored, nothing latched", "shoe", ev.LinkRestored(), V, (Noted("shoe is back"),)),
    ("sequence gap", "shoe", ev.SequenceGap("shoe sequence gap: expected 06, got 07; a frame may be missing"), V,
     (Latch("device_fault", "shoe sequence gap: expected 06, got 07; a frame may be missing"),)),
    ("unknown frame", "shoe", ev.UnknownFrame("XYZ", "future"), V,
     (Noted("shoe: a frame of type XYZ this driver does not know"),)),
    # -- the wheel reader
    ("wheel number", "wheel", ev.WheelNumber(17, 3), V, (Submit(Wheel(17)),)),
    ("wheel no more bets", "wheel", ev.WheelNoMoreBets(3), V, (Submit(CloseBets()),)),
    ("wheel no more bets, closed", "wheel", ev.WheelNoMoreBets(3), replace(V, betting_open=False),
     (Noted("wheel: no more bets (bets already closed)"),)),
    ("wheel void", "wheel", ev.WheelVoid("ball not sensed", 3), V,
     (Submit(Void("the wheel voided spin 3: ball not sensed", "wheel")),)),
    ("wheel fault", "wheel", ev.WheelFault("rotor sensor", 3), V, (Latch("device_fault", "wheel: rotor sensor"),)),
    ("wheel state", "wheel", ev.WheelState(2, 3), V, (Noted("wheel: WheelState noted"),)),
    # -- buttons
    ("close bets", "gpio", ev.ButtonPressed("nmb"), V, (Submit(CloseBets()),)),
    ("no action", "gpio", ev.ButtonPressed("x"), V, (Noted("button 'x' has no action in blackjack"),)),
    ("decision for the prompt's box", "gpio", ev.ButtonPressed("stand"), replace(V, prompt_seat=3),
     (Submit(Action(3, "stand")),)),
    ("decision, nobody waits", "gpio", ev.ButtonPressed("stand"), V,
     (Noted("stand: no box is waiting for a decision"),)),
    ("burn at the puck's box", "gpio", ev.ButtonPressed("burn"), replace(V, puck=5), (Submit(Action(5, "burn")),)),
    ("void needs a long press", "gpio", ev.ButtonPressed("void"), V, (Noted("hold void to void"),)),
    ("void", "gpio", ev.ButtonLongPress("void"), V, (Submit(Void("the croupier's void button", "gpio button void")),)),
    ("long press of a short button", "gpio", ev.ButtonLongPress("nmb"), V, (Noted(""),)),
    ("key turned", "gpio", ev.ButtonPressed("key"), V, (Noted("supervisor key turned"),)),
    ("clear without the key", "gpio", ev.ButtonLongPress("clear"), V,
     (Noted("clearing a fault needs the supervisor key"),)),
    ("clear with the key", "gpio", ev.ButtonLongPress("clear"), replace(V, memory=KEY),
     (Run(Command("clear_fault", {}, "gpio button clear with key")),)),
    ("confirm a held result", "gpio", ev.ButtonLongPress("ok"), replace(V, result_pending=True),
     (Run(Command("confirm_result", {}, "gpio button ok")),)),
    ("confirm a jackpot without the key", "gpio", ev.ButtonLongPress("ok"), replace(V, jackpot_pending=True),
     (Noted("a jackpot confirmation needs the supervisor key"),)),
    ("confirm a jackpot", "gpio", ev.ButtonLongPress("ok"), replace(V, jackpot_pending=True, memory=KEY),
     (Run(Command("confirm_jackpot", {}, "gpio button ok with key")),)),
    ("confirm, nothing waits", "gpio", ev.ButtonLongPress("ok"), V, (Noted("nothing waits for a confirmation"),)),
    ("new shoe", "gpio", ev.ButtonLongPress("shoe"), V, (Run(Command("new_shoe", {}, "gpio button shoe")),)),
    ("released", "gpio", ev.ButtonReleased("nmb"), V, (Noted("gpio: ButtonReleased noted"),)),
    # -- the burn puck, bet sensors, progressive slots, the expanders
    ("puck", "puck", ev.PuckSensed(4), V, (Submit(Puck(4)),)),
    ("puck back", "puck", ev.PuckSensed(4), replace(V, faults=frozenset({"sensor_fault.puck"})),
     (Clear("sensor_fault.puck", "puck is back", "puck (device)"), Submit(Puck(4)))),
    ("puck fault", "puck", ev.PuckFault("no circle senses the puck"), V,
     (Latch("sensor_fault", "no circle senses the puck"),)),
    ("bet sensed", "gpio", ev.PresenceChanged(2, "banco", True), V, (Submit(Bet(2, "banco")),)),
    ("bet taken away", "gpio", ev.PresenceChanged(2, "banco", False), V,
     (Noted("box 2 banco: the chip was taken away (the bet stays; void it if it was withdrawn before no more "
            "bets)"),)),
    ("slot changed", "gpio", ev.SlotChanged(2, True, False), V, (Noted("gpio: SlotChanged noted"),)),
    ("slots locked", "gpio", ev.SlotLocked((1, 3)), V, (Submit(Bet(1, "progressive")), Submit(Bet(3, "progressive")))),
    ("slots locked, no progressive", "gpio", ev.SlotLocked((1,)), replace(V, wiring=Wiring("punto-banco")),
     (Noted("gpio: the slots locked, but punto-banco has no progressive spot"),)),
    ("slots unlocked", "gpio", ev.SlotsUnlocked(), V, (Noted("gpio: SlotsUnlocked noted"),)),
    ("expander down", "gpio", ev.DeviceFault("mcp23017@0x20", "no ack"), V,
     (Latch("link_down", "mcp23017@0x20: no ack"),)),
    ("one expander of two back", "gpio", ev.DeviceRecovered("mcp23017@0x20"),
     replace(V, faults=frozenset({"link_down.gpio"}),
             memory=Memory(down={"link_down.gpio": frozenset({"mcp23017@0x20", "mcp23017@0x21"})})),
     (Noted("mcp23017@0x20 is back"),)),
    # -- the cameras
    ("dice ok", "camera", ev.DiceRead("ok", (2, 5), ("red", "green")), V, (Submit(Dice((2, 5), ("red", "green"))),)),
    ("dice ok, colours not read", "camera", ev.DiceRead("ok", (2, 5), ("red",)), V, (Submit(Dice((2, 5), None)),)),
    ("dice void", "camera", ev.DiceRead("void", (), (), "a die off the table"), V,
     (Submit(Void("the camera voided the throw: a die off the table", "camera")),)),
    ("dice unsure", "camera", ev.DiceRead("unsure", (2, None), ("red", "green"), "pips not read"), V,
     (Hold((2, None), ("red", "green"), "pips not read"), Noted("camera: unsure, held for the croupier"))),
    ("dice unsure, the limit", "camera", ev.DiceRead("unsure", (2, None), ("red", "green"), "pips not read"),
     replace(V, memory=Memory(unsure={"camera": 1})),
     (Hold((2, None), ("red", "green"), "pips not read"),
      Latch("reader_failing", "the camera was unsure of 2 throws in a row (last: pips not read); confirm the dice "
                              "by hand"))),
    ("dice nonsense", "camera", ev.DiceRead("ok", (), ()), V,
     (Hold((), (), "ok: no reason given"), Noted("camera: unsure, held for the croupier"))),
    ("spin ok", "camera", ev.SpinRead("ok", 17), V, (Submit(Wheel(17)),)),
    ("spin void", "camera", ev.SpinRead("void", None, "no spin"), V,
     (Submit(Void("the camera voided the spin: no spin", "camera")),)),
    ("spin unsure", "camera", ev.SpinRead("unsure", 17, "ball hidden"), V,
     (Hold((17,), (), "ball hidden", "wheel"), Noted("camera: unsure, held for the croupier"))),
    # -- game events (the simulated panel, the console) pass through; anything else is only noted
    ("a game event", "buttons", CloseBets(), V, (Submit(CloseBets()),)),
    ("not an event", "buttons", object(), V, (Noted("buttons: unknown event object"),)),
]


@pytest.mark.parametrize("source, raw, view, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_device_event_means_what_the_table_expects(source: str, raw: object, view: TableView,
                                                         expected: tuple[Any, ...]) -> None:
    assert translate(source, raw, view).intents == expected


def test_every_device_event_kind_has_a_row() -> None:
    covered = {type(c[2]) for c in CASES}
    assert [k.__name__ for k in ev.DEVICE_EVENTS if k not in covered] == []


def test_a_latched_fault_is_one_its_device_kind_declares() -> None:
    """Each kind says which faults its events latch (its ``faults``); a row that latches another fails here."""
    from controller.runtime.devices import registry
    from controller.runtime.faults import FAULTS

    for name, source, raw, view, expected in CASES:
        owners = registry.owners(type(raw))
        for intent in expected:
            if isinstance(intent, Latch) and owners:
                assert intent.kind in FAULTS, name
                assert any(intent.kind in registry.by_name()[o].faults for o in owners), (name, owners)


def test_the_translator_is_pure() -> None:
    """Same event and view, same answer; the view is not changed; the memory comes back as a new value."""
    view = replace(V, memory=Memory(unsure={"camera": 1}))
    raw = ev.DiceRead("unsure", (2, None), ("red", "green"), "pips not read")
    first, second = translate("camera", raw, view), translate("camera", raw, view)
    assert first == second and view.memory.unsure == {"camera": 1} and first.memory.unsure == {"camera": 2}
    assert translate("gpio", ev.ButtonPressed("key"), V).memory.key_held and not V.memory.key_held
    released = translate("gpio", ev.ButtonReleased("key"), replace(V, memory=KEY))
    assert not released.memory.key_held
    down = translate("shoe", ev.LinkFault("gone"), V).memory.down
    assert down == {"link_down.shoe": frozenset({"shoe"})}


def test_an_input_of_several_intents_is_one_transaction(tmp_path: Path) -> None:
    """The camera's second unsure throw: the held result and the fault commit together, the outputs told once."""
    from tests.controller.runtime.test_camera import bet_and_close, tarning_table

    table = tarning_table(tmp_path, fail_limit=2)
    bet_and_close(table)
    told: list[list[str]] = []
    table.listeners.append(lambda t, records: told.append([r.kind for r in records]))
    unsure = ev.DiceRead("unsure", (2, None), ("red", "green"), "pips not read")
    assert table.submit("camera", unsure) == "ignored"
    assert told == [["pending"]]
    assert table.command(Command("confirm_result", {"values": [2, 3]}, "croupier")) == "done"
    told.clear()
    assert table.submit("camera", unsure) == "fault"  # the second in a row
    assert told == [["pending", "fault"]]
    assert "reader_failing.camera" in table.faults
    pending = [r for r in table.journal.records(kinds=("pending", "fault"))][-2:]
    assert [r.kind for r in pending] == ["pending", "fault"] and pending[1].seq == pending[0].seq + 1
    assert table.faults["reader_failing.camera"].seq == pending[1].seq  # the fault knows its committed record


def test_a_transaction_that_cannot_commit_leaves_the_table_as_it_was(tmp_path: Path) -> None:
    table = open_table(progressive_config(tmp_path))
    table.wiring = replace(table.wiring, progressive_spot="progressive")
    before = (table.round.waiting_for(), dict(table.faults), table.journal.last_seq)
    table.journal.set_query_only()
    assert table.submit("gpio", ev.SlotLocked((1, 2))) == "dropped"
    assert (table.round.waiting_for(), table.journal.last_seq) == before[::2]
    assert set(table.faults) == {"journal"}


def test_the_slots_bet_the_progressive_spot_of_the_game(tmp_path: Path) -> None:
    table = open_table(progressive_config(tmp_path))
    assert table.wiring.progressive_spot == "progressive"
    assert table.submit("gpio", ev.SlotLocked((1, 2))) == "accepted"
    bets = [r.body["event"] for r in table.journal.records(kinds=("event",))]
    assert bets == [{"type": "bet", "seat": 1, "spot": "progressive"}, {"type": "bet", "seat": 2, "spot": "progressive"}]
    plain = open_table(punto_config(tmp_path / "punto"))
    assert plain.wiring.progressive_spot is None


def test_the_dealer_panel_says_each_button_once_and_every_game_takes_it() -> None:
    """hw/dealer-panel.toml names no game: each game takes the table's buttons, and `confirm` where its camera
    can hold a result (the game's declared reader); a game added later needs no edit of the pin map."""
    from controller.games import all_games
    from controller.runtime.translate import button_actions
    from drivers.gpio.config import load_device_config
    from tests.controller.runtime.progressive_game import SPEC as TEST_GAME
    from tests.tablectl import ROOT

    panel = load_device_config(ROOT / "hw" / "dealer-panel.toml")
    assert all(not b.actions for b in panel.buttons)
    table_wide = {"no_more_bets": "close_bets", "clear_fault": "clear_fault", "jackpot_confirm": "jackpot_confirm"}
    for spec in [*all_games(), TEST_GAME]:
        camera = spec.reader is not None and spec.reader.camera is not None
        decides = any(a.who == "player" for a in spec.actions)  # the decision keypad, and fold and play buttons
        keys = {f"key_{n}": f"decision_{n}" for n in range(1, 5)} if decides else {}
        keys.update({name: name for name in ("fold", "play") if any(a.name == name for a in spec.actions)})
        assert button_actions(panel, spec) == {**table_wide, **({"confirm_result": "confirm"} if camera else {}),
                                               **keys}, spec.id
    assert sorted(s.id for s in all_games() if s.reader and s.reader.camera) == ["roulette", "sic-bo", "tarning"]
