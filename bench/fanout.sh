#!/usr/bin/env bash
# Fan-out benchmark: dependents raise and cancel alerts (open loop), each a notification to every
# one of their responders; end to end to each responder's notification.added.
#   bench/fanout.sh [dependents=100] [responders=10] [rate=100] [duration=10] [extra lsclient load options...]
set -euo pipefail
dependents=${1:-100}
responders=${2:-10}
rate=${3:-100}
duration=${4:-10}
shift $(( $# < 4 ? $# : 4 ))
exec "$(dirname "$0")/run-load.sh" \
    "fanout: $dependents dependents × $responders responders, $rate alert ops/s open loop, ${duration} s" \
    "bench/fanout.sh $dependents $responders $rate $duration${*:+ $*}" \
    fanout --dependents "$dependents" --responders "$responders" --rate "$rate" --duration "$duration" "$@"
