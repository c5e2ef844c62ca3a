"""The `tablectl` subcommands, one module each: ``register(subparsers)`` adds it, ``run(args)`` does it.

``run`` returns the exit status: 0 done, 1 failure at run time, 2 bad usage or
bad input (with one line on stderr, never a traceback).
"""
