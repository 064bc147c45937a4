#!/bin/bash
# One LAN game of a board at a table size, every seat a bot process on
# 127.0.0.1 (the host and N-1 joiners, real sockets and the crypto deck),
# then `ttr verify` of the host's log. Run from an environment where `ttr`
# is installed:
#
#     bench/lan_board.sh BOARD PLAYERS [VARIANT]     # e.g. bench/lan_board.sh oldwest 6
#
# It prints the host's summary line and verify's verdict and exit code.
set -u
B=$1; N=$2; V=${3:-}
T=$(mktemp -d)
P=$(python -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
VA=(); [ -n "$V" ] && VA=(--variant "$V")
ttr host --bind 127.0.0.1 --port "$P" --players "$N" --board "$B" "${VA[@]}" --as-bot --json --timeout 60 \
    --beacon off --data-dir "$T/p0" > "$T/p0.out" 2> "$T/p0.err" &
for i in $(seq 1 $((N - 1))); do
    ttr join "127.0.0.1:$P" --name "Bot$i" --as-bot --json --timeout 60 --data-dir "$T/p$i" \
        > "$T/p$i.out" 2> "$T/p$i.err" &
done
wait
LOG=$(ls "$T"/p0/games/*/game.log | head -1)
echo "$B ${V:-standard} at $N players: $LOG"
tail -n 1 "$T/p0.out" | cut -c 1-160
ttr verify "$LOG" > "$T/verify.out" 2>&1
echo "ttr verify exit $?"
tail -n 1 "$T/verify.out"
