#!/usr/bin/env bash
# Hostile accounts (issue 12): victims check in at a constant rate while hostile users, each a
# contact of every victim, attack as fast as the broker answers them. The broker's request rate
# limit stays at its default (200/s per connection, burst 400), as in production. Runs the victims
# alone first (the baseline), then under attack: compare the two from the same run.
#   bench/hostile.sh [victims=100] [hostiles=4] [rate=200] [duration=10] [extra lsclient load options...]
set -euo pipefail
victims=${1:-100}
hostiles=${2:-4}
rate=${3:-200}
duration=${4:-10}
shift $(( $# < 4 ? $# : 4 ))
export LSBROKER_REQUEST_RATE=200
for attackers in 0 "$hostiles"; do
    "$(dirname "$0")/run-load.sh" \
        "hostile: $victims victims checking in at $rate/s, $attackers hostile users at full rate, ${duration} s" \
        "bench/hostile.sh $victims $hostiles $rate $duration${*:+ $*}" \
        hostile --victims "$victims" --hostiles "$attackers" --rate "$rate" --duration "$duration" "$@"
done
