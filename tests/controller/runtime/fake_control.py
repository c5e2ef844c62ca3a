"""A TableControl for console tests: canned answers, and a record of every audit and call."""

from __future__ import annotations


class FakeControl:
    def __init__(self) -> None:
        self.audits: list[tuple[str | None, str, bool]] = []
        self.calls: list[tuple] = []
        self.meter = 1_000_000
        self.fault_names = {"shoe_link"}

    def status(self): return ["Table BJ-07 blackjack se: round 12 open, no faults"]
    def devices(self): return ["shoe /dev/tablectl/shoe: ok, frames 1200, bad crc 0, heartbeat 0.4 s"]
    def round(self): return ["Round 12: box 3 to act: 14 against 6"]
    def history(self, count):
        self.calls.append(("history", count))
        return [f"last {count} rounds"]

    def limits(self): return ["main 100.00 - 986.66 SEK"]
    def jackpot(self): return [f"caribbean: {self.meter}"]

    def jackpot_correct(self, meter, amount, reason, who):
        if meter != "caribbean":
            raise ValueError(f"no meter named {meter!r}")
        self.calls.append(("correct", meter, amount, reason, who))
        self.meter = amount
        return [f"{meter} set to {amount} by {who}: {reason}"]

    def jackpot_confirm(self, meter, who):
        self.calls.append(("confirm", meter, who))
        return [f"{meter} hit confirmed by {who}"]

    def jackpot_day_end(self, drop, into, who):
        self.calls.append(("day_end", drop, into, who))
        return [f"{drop} added to {into} by {who}"]

    def confirm_result(self, values, colors, who):
        self.calls.append(("confirm_result", values, colors, who))
        return [f"dice {values} confirmed by {who}"]

    def faults(self): return sorted(self.fault_names) or ["no faults"]

    def clear_fault(self, name, who):
        if name not in self.fault_names:
            raise ValueError(f"no latched fault named {name!r}")
        self.fault_names.discard(name)
        return [f"{name} cleared by {who}"]

    def selftest(self, who):
        self.calls.append(("selftest", who))
        return ["selftest: 9 devices, 9 ok"]

    def calibrate(self, device, who):
        self.calls.append(("calibrate", device, who))
        return [f"{device} calibrated"]

    def journal_verify(self): return ["journal: 1523 records, chain intact, meters match"]
    def journal_tail(self, count): return [f"record {i}" for i in range(count)]
    def config_show(self): return ["table_id = 'BJ-07'", "x" * 120]
    def config_check(self): return ["configuration: no problems"]
    def version(self): return ["tablectl 0.1.0 (sha256:abc)"]

    def audit(self, who, what, ok):
        self.audits.append((who, what, ok))
