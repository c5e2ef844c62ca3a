"""Everything that touches hardware: devices turn into events, desired state into hardware. No game rules."""
