#!/bin/sh
# The main job on its embedded defaults: create or refresh .venv, install, then play a simulated
# table with every device on its emulator (shoe on a pty, mock GPIO, dummy displays) and a
# virtual croupier and players, live in the terminal. Each run journals to a new file under var/run/.
#   sh run.sh                          Punto Banco, 10 rounds
#   sh run.sh --game blackjack         another game (tablectl games lists them), 10 rounds
#   sh run.sh --game roulette --rounds 50 --fast
# Any other arguments go to `tablectl run --simulate` (sh run.sh --help for the list).
set -eu
cd "$(dirname "$0")"
# displays: the emulated sign and jackpot display draw with luma and Pillow; vision: the simulated dice and
# roulette cameras render each throw and read it with the real OpenCV reader; math: `tablectl math` (numpy);
# terminal: the dealer terminal and the pit view
TABLECTL_EXTRAS="displays,vision,math,terminal"
. ./tools/venv.sh
game="punto-banco"
rounds="10"
for arg in "$@"; do
    case "$arg" in
        --help|-h) exec .venv/bin/tablectl run --help ;;
    esac
done
mkdir -p var/run
journal="var/run/$(date +%Y%m%d-%H%M%S)-$$.sqlite"
case " $* " in *" --game "*|*" --config "*) game="" ;; esac
case " $* " in *" --rounds "*) rounds="" ;; esac
exec .venv/bin/tablectl run --simulate --journal "$journal" ${game:+--game "$game"} ${rounds:+--rounds "$rounds"} "$@"
