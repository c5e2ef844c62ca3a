#!/bin/sh
# The whole default test suite: create or refresh .venv with every test dependency, then pytest.
# Extra arguments go to pytest (for example: sh test.sh -m slow, or sh test.sh tests/controller).
set -eu
cd "$(dirname "$0")"
TABLECTL_EXTRAS="dev,vision,displays,floor,terminal"
# The floor view's and the dealer terminal's browser tests drive Debian's chromium; install it where it is missing and we may.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 || \
        echo "test.sh: could not install chromium; the browser tests will be skipped" >&2
fi
. ./tools/venv.sh
# Guardrails first: ruff, then mypy (tools/typecheck.sh says which modules are strict); a finding stops the run.
sh tools/typecheck.sh
# Two worker processes by default (TABLECTL_TEST_WORKERS=0 runs in one): much of the suite waits on subprocesses,
# ptys, fsync and the bus, so two workers nearly halve the wall time on two cores. Tests that share an expensive
# module fixture are kept on one worker by their xdist_group mark.
exec .venv/bin/python -m pytest -n "${TABLECTL_TEST_WORKERS:-2}" --dist loadgroup "$@"
