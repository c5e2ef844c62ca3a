"""tablectl: the deciding half of the table controller (games, hands, runtime, command line)."""

__version__ = "0.1.0"
