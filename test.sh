#!/bin/sh
# The whole default test suite: create or refresh .venv with every test dependency, then pytest.
# Extra arguments go to pytest (for example: sh test.sh -m slow, or sh test.sh tests/controller).
set -eu
cd "$(dirname "$0")"
TABLECTL_EXTRAS="dev,vision,displays,terminal"
# The dealer terminal's browser tests drive Debian's Chromium (never a downloaded browser).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
. ./tools/venv.sh
exec .venv/bin/python -m pytest "$@"
