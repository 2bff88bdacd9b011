#!/usr/bin/env bash
# Idle benchmark: N devices online doing only keepalives; the broker's RSS per online device.
#   bench/idle.sh [devices=1000] [duration=10] [extra lsclient load options...]
# The warm-up (default 5 s here) lets the broker settle before its RSS is read.
set -euo pipefail
devices=${1:-1000}
duration=${2:-10}
shift $(( $# < 2 ? $# : 2 ))
plural=s
[[ "$devices" == 1 ]] && plural=""
exec "$(dirname "$0")/run-load.sh" \
    "idle: $devices device$plural, ${duration} s" \
    "bench/idle.sh $devices $duration${*:+ $*}" \
    idle --devices "$devices" --duration "$duration" --warmup 5 "$@"
