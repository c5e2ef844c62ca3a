"""The dealer terminal and the pit view: pages served by the daemon on its own loop (docs/dealer-terminal.md)."""
