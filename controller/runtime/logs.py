"""Structured logs (one JSON object per line on stderr) through a queue, so a slow disk never blocks the loop.

The loop only puts records on an in-memory queue (``QueueHandler``); a
listener thread formats and writes them. Under systemd, stderr goes to the
journal (journald).
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import queue
import sys
import time
from typing import Any, TextIO

LOGGER = "tablectl"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": round(record.created, 3), "level": record.levelname.lower(),
                               "msg": record.getMessage()}
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        return json.dumps(out, ensure_ascii=False, default=str)


def start_logging(level: int = logging.INFO, stream: TextIO | None = None) -> logging.handlers.QueueListener:
    """Route the ``tablectl`` logger through a queue to ``stream`` (stderr); stop the listener at exit."""
    q: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    listener = logging.handlers.QueueListener(q, handler)
    logger = logging.getLogger(LOGGER)
    logger.handlers[:] = [logging.handlers.QueueHandler(q)]
    logger.setLevel(level)
    logger.propagate = False
    listener.start()
    return listener


def log(level: int, msg: str, **fields: Any) -> None:
    logging.getLogger(LOGGER).log(level, msg, extra={"fields": fields})


def now_ms() -> float:
    return time.monotonic() * 1000
