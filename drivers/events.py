"""Every event a driver hands to the runtime, in one place: frozen records, safe to pass between threads.

Each device family declares its own events beside its protocol
(drivers/shoe/events.py, drivers/wheel/events.py, drivers/gpio/events.py,
drivers/vision/events.py; the serial links' ``LinkFault``/``LinkRestored`` in
drivers/seriallink.py). This module gathers them: ``DEVICE_EVENTS`` is the
complete list the runtime's translator (controller/runtime/translate.py)
must give a meaning to, and its tests check that it does, kind by kind.
"""

from __future__ import annotations

from drivers.gpio.events import (
    ButtonLongPress, ButtonPressed, ButtonReleased, DeviceFault, DeviceRecovered, PresenceChanged, PuckFault,
    PuckSensed, SlotChanged, SlotLocked, SlotsUnlocked,
)
from drivers.seriallink import LinkFault, LinkRestored
from drivers.shoe.events import (
    CardDealt, CutCard, DeckCheck, DeviceIdentity, DoorClosed, DoorOpen, Jam, ShoeEmpty, ShoeState, ShuffleDone,
    ShuffleStarted, Tamper, Unreadable,
)
from drivers.vision.events import DiceRead, SpinRead
from drivers.wheel.events import WheelFault, WheelNoMoreBets, WheelNumber, WheelState, WheelVoid

__all__ = [
    "ButtonLongPress", "ButtonPressed", "ButtonReleased", "CardDealt", "CutCard", "DeckCheck", "DeviceEvent",
    "DeviceFault", "DeviceIdentity", "DeviceRecovered", "DEVICE_EVENTS", "DiceRead", "DoorClosed", "DoorOpen",
    "Jam", "LinkFault", "LinkRestored", "PresenceChanged", "PuckFault", "PuckSensed", "ShoeEmpty", "ShoeState",
    "ShuffleDone", "ShuffleStarted", "SlotChanged", "SlotLocked", "SlotsUnlocked", "SpinRead", "Tamper",
    "Unreadable", "WheelFault", "WheelNoMoreBets", "WheelNumber", "WheelState", "WheelVoid",
]

DeviceEvent = (
    CardDealt | ShoeState | CutCard | ShoeEmpty | Jam | Unreadable | Tamper | ShuffleStarted | ShuffleDone
    | DeckCheck | DoorOpen | DoorClosed | DeviceIdentity | LinkFault | LinkRestored
    | WheelNumber | WheelNoMoreBets | WheelVoid | WheelFault | WheelState
    | ButtonPressed | ButtonReleased | ButtonLongPress | PuckSensed | PuckFault | PresenceChanged | SlotChanged
    | SlotLocked | SlotsUnlocked | DeviceFault | DeviceRecovered
    | DiceRead | SpinRead
)

DEVICE_EVENTS: tuple[type, ...] = (
    CardDealt, ShoeState, CutCard, ShoeEmpty, Jam, Unreadable, Tamper, ShuffleStarted, ShuffleDone, DeckCheck,
    DoorOpen, DoorClosed, DeviceIdentity, LinkFault, LinkRestored,
    WheelNumber, WheelNoMoreBets, WheelVoid, WheelFault, WheelState,
    ButtonPressed, ButtonReleased, ButtonLongPress, PuckSensed, PuckFault, PresenceChanged, SlotChanged,
    SlotLocked, SlotsUnlocked, DeviceFault, DeviceRecovered,
    DiceRead, SpinRead,
)
"""Every kind of device event, once each."""
