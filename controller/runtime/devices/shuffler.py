"""The shuffler: the shoe's family of device on its own serial line (docs/devices/shoe-protocol.md).

It is built and read as the shoe is (shoe.py), with ``kind = "shuffler"`` so the driver checks that a
shuffler answers. A card it reads while shuffling is only noted; its deck check either journals
``deck_check_ok`` or latches ``deck_check.shuffler``, which refuses the next shoe until a supervisor clears it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.runtime.devices import shoe
from controller.runtime.devices.base import Context

if TYPE_CHECKING:
    from controller.config import DeviceConfig


def emulator(context: Context, device: "DeviceConfig") -> None:
    """The shuffler's emulator on a pty, as the shoe's; the croupier deals from the shoe, not from it."""
    shoe.emulate(context, device)


KIND = replace(shoe.KIND, name="shuffler", emulator=emulator, order=21,
               built_as={"serial": "`drivers.shoe.link.ShoeLink` on `port` (the driver checks that a shuffler "
                                   "answers); `port = \"pty\"`: against the emulator on a pseudo-terminal"})
