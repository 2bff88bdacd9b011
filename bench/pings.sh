#!/usr/bin/env bash
# Pings benchmark: open loop at a constant rate, end to end from ping.send to the dependent's
# notification.added.
#   bench/pings.sh [pairs=1000] [rate=5000] [duration=10] [extra lsclient load options...]
set -euo pipefail
pairs=${1:-1000}
rate=${2:-5000}
duration=${3:-10}
shift $(( $# < 3 ? $# : 3 ))
plural=s
[[ "$pairs" == 1 ]] && plural=""
exec "$(dirname "$0")/run-load.sh" \
    "pings: $pairs pair$plural, $rate pings/s open loop, ${duration} s" \
    "bench/pings.sh $pairs $rate $duration${*:+ $*}" \
    pings --pairs "$pairs" --rate "$rate" --duration "$duration" "$@"
