"""Smart card shoe and shuffler: the framed serial protocol (protocol.py), the host link (link.py), events, emulator."""
