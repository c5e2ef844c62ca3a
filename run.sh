#!/bin/sh
# The main job on its embedded defaults: create or refresh .venv, install, run.
# Extra arguments go to the command (for example: sh run.sh --rounds 10).
set -eu
cd "$(dirname "$0")"
. ./tools/venv.sh
exec .venv/bin/tablectl demo "$@"
