#!/usr/bin/env bash
# Reconnect storm: N devices go offline, miss events, and reconnect at once with hello + resume.
#   bench/storm.sh [devices=1000] [updates=5] [concurrency=1000] [extra lsclient load options...]
# --duration (default 120 s here) only bounds the storm: the window ends when all have caught up.
set -euo pipefail
devices=${1:-1000}
updates=${2:-5}
concurrency=${3:-1000}
shift $(( $# < 3 ? $# : 3 ))
exec "$(dirname "$0")/run-load.sh" \
    "storm: $devices devices, $updates updates per user while offline, $concurrency reconnects at once" \
    "bench/storm.sh $devices $updates $concurrency${*:+ $*}" \
    storm --devices "$devices" --updates "$updates" --concurrency "$concurrency" --duration 120 "$@"
