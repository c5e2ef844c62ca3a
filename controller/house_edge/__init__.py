"""House-edge tools: exact enumeration or simulation, always through the game's own rule code.

One module per game id (``punto-banco`` -> ``punto_banco``), each with
``report(spec, config, args) -> dict``; `tablectl math` dispatches to it.
"""
