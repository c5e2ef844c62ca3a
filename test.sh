#!/bin/sh
# The whole default test suite: create or refresh .venv with every test dependency, then pytest.
# Extra arguments go to pytest (for example: sh test.sh -m slow, or sh test.sh tests/controller).
set -eu
cd "$(dirname "$0")"
TABLECTL_EXTRAS="dev,vision,displays"
. ./tools/venv.sh
# Guardrails first: ruff, then mypy (tools/typecheck.sh says which modules are strict); a finding stops the run.
sh tools/typecheck.sh
exec .venv/bin/python -m pytest "$@"
