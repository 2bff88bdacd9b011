#!/usr/bin/env bash
# Failover (issue 13): a cluster's first broker is SIGKILLed under its devices; they move to the
# next broker and resume while their partners change things. Always a cluster (3 brokers unless
# LIFESIGNAL_BENCH_CLUSTER says otherwise).
#   bench/failover.sh [devices=999] [updates=5] [extra lsclient load options...]
set -euo pipefail
devices=${1:-999}
updates=${2:-5}
shift $(( $# < 2 ? $# : 2 ))
(( devices % 2 == 0 )) || devices=$(( devices + 1 ))
export LIFESIGNAL_BENCH_CLUSTER=${LIFESIGNAL_BENCH_CLUSTER:-3}
exec "$(dirname "$0")/run-load.sh" \
    "failover: the first of the brokers killed under $devices devices, $updates updates by each partner" \
    "bench/failover.sh $devices $updates${*:+ $*}" \
    failover --devices "$devices" --updates "$updates" --duration 60 "$@"
