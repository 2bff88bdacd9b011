#!/usr/bin/env bash
# Flood: C connections that never say hello, held for S seconds; what the broker does with them
# (it closes each at its hello timeout, 10 s by default) and what they cost it.
#   bench/flood.sh [connections=1000] [duration=15] [extra lsclient load flood options...]
set -euo pipefail
connections=${1:-1000}
duration=${2:-15}
shift $(( $# < 2 ? $# : 2 ))
exec "$(dirname "$0")/run-load.sh" \
    "flood: $connections connections without hello, ${duration} s" \
    "bench/flood.sh $connections $duration${*:+ $*}" \
    flood --connections "$connections" --duration "$duration" "$@"
