#!/usr/bin/env bash
# Soak: pings at a steady rate for a long time (an hour by default) against one broker, with its
# RSS and store size sampled every 10 s; the report adds a table over the run's tenths (RSS,
# store, delivered/s, worst p99 of a second). Flat is the pass: memory, store and latency that
# keep growing once the history has filled (1,000 notifications and events per user) are a leak.
#   bench/soak.sh [minutes=60] [pairs=100] [rate=1000] [extra lsclient load options...]
set -euo pipefail
minutes=${1:-60}
pairs=${2:-100}
rate=${3:-1000}
shift $(( $# < 3 ? $# : 3 ))
export LIFESIGNAL_BENCH_SAMPLE=${LIFESIGNAL_BENCH_SAMPLE:-10}
exec "$(dirname "$0")/run-load.sh" \
    "soak: $pairs pairs, $rate pings/s open loop, $minutes min" \
    "bench/soak.sh $minutes $pairs $rate${*:+ $*}" \
    pings --pairs "$pairs" --rate "$rate" --duration "$(( minutes * 60 ))" "$@"
