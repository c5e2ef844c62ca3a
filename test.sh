#!/bin/sh
# The whole default test suite: create or refresh .venv with every test dependency, then pytest.
# Extra arguments go to pytest (for example: sh test.sh -m slow, or sh test.sh tests/controller).
set -eu
cd "$(dirname "$0")"
TABLECTL_EXTRAS="dev,vision,displays,terminal"
. ./tools/venv.sh
exec .venv/bin/python -m pytest "$@"
