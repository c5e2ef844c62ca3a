"""Roulette wheel reader: the *X status line (protocol.py), per-spin tracker, reader thread, events, emulator."""
