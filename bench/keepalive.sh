#!/usr/bin/env bash
# Keepalive benchmark: each device keeps K keepalives in flight (closed loop).
#   bench/keepalive.sh [devices=100] [in-flight=16] [duration=10] [extra lsclient load options...]
set -euo pipefail
devices=${1:-100}
in_flight=${2:-16}
duration=${3:-10}
shift $(( $# < 3 ? $# : 3 ))
plural=s
[[ "$devices" == 1 ]] && plural=""
exec "$(dirname "$0")/run-load.sh" \
    "keepalive: $devices device$plural × $in_flight in flight, ${duration} s" \
    "bench/keepalive.sh $devices $in_flight $duration${*:+ $*}" \
    keepalive --devices "$devices" --in-flight "$in_flight" --duration "$duration" "$@"
