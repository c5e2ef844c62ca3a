"""Dealer buttons, burn-puck and bet sensors, progressive slots, the tower light and the MCP23017 expander.

Every driver here turns pin levels into frozen event records (``events.py``)
handed to a callback the caller gives, or turns a desired state into pin
levels. Time always comes from the caller (``now`` in seconds on the loop's
clock), so debounce, long presses and blink patterns are deterministic.
"""
