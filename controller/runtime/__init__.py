"""The table runtime: the event loop, the journal, recovery, jackpot meters, faults and the simulated table.

See docs/runtime.md. ``daemon.Daemon`` runs one table; ``table.Table`` owns its
state and the write-ahead cycle; ``journal.Journal`` is the hash-chained
SQLite record.
"""
