#!/bin/sh
# The guardrails test.sh runs before pytest: ruff, then mypy (strict on the pure core, plain on the clean rest).
# Usage: sh tools/typecheck.sh (from the repository; needs .venv with the dev extra).
set -eu
cd "$(dirname "$0")/.."
PY=.venv/bin/python
$PY -m ruff check --quiet controller drivers tests tools bench
# Strict: the pure core.
strict=$(ls controller/events.py controller/cards.py controller/money.py controller/language.py controller/games/*.py controller/games/poker_room/*.py \
            controller/games/blackjack/*.py controller/hands/*.py)
$PY -m mypy --strict --follow-imports=silent $strict
# Plain: every other module of the daemon, its drivers and its tools (each file's own errors; what it imports is
# checked where listed).
plain=$(ls controller/__init__.py controller/runtime/*.py controller/runtime/devices/*.py controller/runtime/web/*.py \
           controller/checks.py controller/config.py controller/paytables/__init__.py \
           controller/scenario.py controller/progress.py controller/table_cache.py controller/cli.py \
           controller/commands/*.py controller/floor/*.py controller/house_edge/*.py drivers/__init__.py \
           drivers/events.py drivers/seriallink.py drivers/ptydevice.py drivers/selftest.py drivers/shoe/*.py drivers/vision/*.py \
           drivers/displays/*.py drivers/wheel/*.py drivers/gpio/*.py \
           tools/import_graph.py tools/device_kinds.py tools/catalogue.py tools/perf_doc.py tools/device_docs.py \
           tools/terminal_screenshots.py tools/vision_model/*.py)
$PY -m mypy --follow-imports=silent $plain
# Plain, on their own: the benchmark scripts (bench/serial.py would stand for pyserial's "serial" beside the drivers).
$PY -m mypy --follow-imports=silent bench/*.py
