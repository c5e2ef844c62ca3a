#!/bin/sh
# The guardrails test.sh runs before pytest: ruff, then mypy (strict on the pure core, plain on the clean rest).
# Usage: sh tools/typecheck.sh (from the repository; needs .venv with the dev extra).
set -eu
cd "$(dirname "$0")/.."
PY=.venv/bin/python
$PY -m ruff check --quiet controller drivers tests tools bench
# Strict: the pure core. Not yet here: the blackjack round's mixins (betting, words, settling, round: typed
# against the round they mix into, a cycle mypy cannot follow) and the array evaluators hands/fast.py and
# hands/batch.py; docs/architecture.md says so.
strict=$(ls controller/events.py controller/cards.py controller/money.py controller/language.py controller/games/*.py controller/games/poker_room/*.py \
            controller/games/blackjack/__init__.py controller/games/blackjack/rules.py \
            controller/games/blackjack/state.py controller/hands/*.py | grep -v -e hands/fast.py -e hands/batch.py)
$PY -m mypy --strict --follow-imports=silent $strict
# Plain: every other module that is clean today (each file's own errors; what it imports is checked where listed).
# Not yet here: controller/house_edge/blackjack.py (it reads the blackjack round's state
# through the generic Round) and the array code of drivers/vision listed below; docs/architecture.md says so.
plain=$(ls controller/runtime/*.py controller/runtime/devices/*.py controller/runtime/web/*.py controller/checks.py controller/config.py \
           controller/scenario.py controller/progress.py controller/table_cache.py controller/cli.py \
           controller/commands/*.py controller/floor/*.py controller/house_edge/*.py \
           drivers/events.py drivers/seriallink.py drivers/ptydevice.py drivers/selftest.py drivers/shoe/*.py drivers/vision/*.py \
           drivers/displays/*.py drivers/wheel/*.py drivers/gpio/*.py \
           tools/import_graph.py tools/device_kinds.py \
        | grep -v -e house_edge/blackjack.py -e vision/distort.py -e vision/pips.py -e vision/roulette.py \
                  -e vision/synth_dice.py -e vision/sidepips.py -e vision/photo_join.py -e vision/dice.py)
$PY -m mypy --follow-imports=silent $plain
