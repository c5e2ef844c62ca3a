"""Exactly once, end to end: a device's frame is acknowledged only after the journal holds it, and never taken twice.

Every serial device (shoe, shuffler, wheel reader, any later one) hands its
facts to the loop as a ``Delivery`` (drivers/seriallink.py): the event, the
device's position in its own stream (the shoe's boot token and frame number,
the wheel's spin and what of it was reported) and ``acknowledge``. This module
is the one place the runtime deals with them:

1. ``receive`` tags the journal with the position and submits the event; the
   first batch committed for it carries the position in its first record's
   body and in the journal's ``links`` table, in the same transaction. If the
   event changed nothing that is journaled (a door opened, a heartbeat-like
   state, bets already closed), a ``link`` record holds the position alone.
2. Only when that transaction has committed is ``acknowledge`` called (the
   link writes the ACK on its own thread). If nothing could be committed (the
   journal is broken, the daemon is stopping) nothing is acknowledged: the
   device keeps the frame and sends it again to the restarted daemon.
3. ``positions`` gives each device's last journaled position back at start
   (``resume``), checked against the record that holds it, so that a frame the
   journal already holds is acknowledged and dropped by the link, not applied
   again, and the next one is taken.

A kill at any instant therefore leaves each frame either journaled and (at
the latest after the restart) acknowledged, or not journaled and not
acknowledged: the device's resend brings it in once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable, Mapping

from controller.runtime.logs import log
from drivers.seriallink import Delivery

if TYPE_CHECKING:
    from controller.runtime.table import Table


def is_delivery(raw: object) -> bool:
    """A device fact that waits for its commit (``drivers.seriallink.Delivery``)."""
    return isinstance(raw, Delivery)


class ExactlyOnce:
    """The loop's side of the device links' exactly-once rule, for one table."""

    def __init__(self, table: "Table") -> None:
        self.table = table
        self.acknowledged = 0
        self.withheld = 0  # not journaled, so not acknowledged (journal broken, stopping)
        self.problems: list[str] = []

    def positions(self) -> dict[str, dict[str, Any]]:
        """Device -> the last journaled position of a frame from it (each checked against its record)."""
        out: dict[str, dict[str, Any]] = {}
        journal = self.table.journal
        for device, (position, seq) in sorted(journal.link_positions().items()):
            record = next(iter(journal.records(since=seq - 1, until=seq)), None)
            held = None if record is None else record.body.get("link")
            if held != position:
                self.problems.append(f"device {device}: the journal's last position {position} is not what "
                                     f"record {seq} holds ({held})")
                continue
            out[device] = {k: v for k, v in position.items() if k != "device"}
        return out

    def receive(self, source: str, delivery: Any, submit: Callable[[object], None]) -> None:
        """Journal ``delivery``'s event with its position (``submit`` does the table's part), then acknowledge."""
        journal = self.table.journal
        if journal.broken:
            self.withheld += 1
            return
        position: Mapping[str, Any] = delivery.position
        journal.tag(source, position)
        try:
            submit(delivery.event)
        except Exception as exc:  # a bug must not take the table down; the position is still journaled below
            log(logging.ERROR, "input failed", source=source, error=repr(exc))
        untaken = journal.untag()
        if journal.broken:
            self.withheld += 1
            return
        if untaken:  # nothing of it was journaled: journal its position alone before the ACK
            journal.tag(source, position)
            records = self.table._commit([("link", self.table.round_no,
                                           {"source": source, "what": type(delivery.event).__name__})])
            journal.untag()
            if not records:
                self.withheld += 1
                return
        self.acknowledged += 1
        delivery.acknowledge()
