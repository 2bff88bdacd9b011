#!/usr/bin/env bash
# Served through a flood: F connections that never say hello are held (lsclient load flood, 10,000
# per process) and, while they are, P pairs of registered devices connect and run pings at R/s.
# The broker's hello timeout is raised to 10 minutes, so the flood keeps its connections for the
# whole run, as an attacker reconnecting at once would: the pairs can only get in through the
# broker's --max-connections policy (the oldest connection still awaiting hello makes room).
#   bench/flood-served.sh [flood=20000] [pairs=100] [rate=1000] [duration=10] [extra lsclient load options...]
set -euo pipefail
flood=${1:-20000}
pairs=${2:-100}
rate=${3:-1000}
duration=${4:-10}
shift $(( $# < 4 ? $# : 4 ))
export LIFESIGNAL_BENCH_FLOOD=$flood LSBROKER_HELLO_TIMEOUT_MS=600000
exec "$(dirname "$0")/run-load.sh" \
    "flood-served: $pairs pairs run $rate pings/s while $flood connections without hello are held, ${duration} s" \
    "bench/flood-served.sh $flood $pairs $rate $duration${*:+ $*}" \
    pings --pairs "$pairs" --rate "$rate" --duration "$duration" "$@"
