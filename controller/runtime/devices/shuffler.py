"""The shuffler: the shoe's family of device on its own serial line (docs/devices/shoe-protocol.md).

It is built and read as the shoe is (shoe.py), with ``kind = "shuffler"`` so the driver checks that a
shuffler answers. A card it reads while shuffling is only noted; its deck check either journals
``deck_check_ok`` or latches ``deck_check.shuffler``, which refuses the next shoe until a supervisor clears it.
"""

from __future__ import annotations

from dataclasses import replace

from controller.runtime.devices import shoe

KIND = replace(shoe.KIND, name="shuffler", emulator=shoe.emulator, order=21)
