#!/usr/bin/env bash
# What the metrics cost on the hot path (issue 15): the keepalive and pings benchmarks, alternated
# on fresh brokers, for a broker built before the metrics, this broker without --metrics-port, and
# this broker with it (LSBROKER_METRICS_PORT=0). Prints one line per run; compare within a run.
#   bench/metrics-cost.sh BEFORE_BIN_DIR AFTER_BIN_DIR [rounds=3]
# Each directory holds release builds of lsbroker and lsclient (AFTER's lsclient drives all runs).
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1
after=$2
rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/before"
cp "$before/lsbroker" "$work/before/"
cp "$after/lsclient" "$work/before/"

run() {  # run VARIANT SCRIPT ARGS...
    local variant=$1 bin=$after
    shift
    [[ $variant == before ]] && bin=$work/before
    local out
    if [[ $variant == on ]]; then
        out=$(LSBROKER_METRICS_PORT=0 LIFESIGNAL_BENCH_BIN=$bin LIFESIGNAL_BENCH_NO_RECORD=1 "$@" 2>/dev/null)
    else
        out=$(env -u LSBROKER_METRICS_PORT LIFESIGNAL_BENCH_BIN=$bin LIFESIGNAL_BENCH_NO_RECORD=1 "$@" 2>/dev/null)
    fi
    local rate cpu
    rate=$(echo "$out" | grep "^| responses/s" | cut -d'|' -f3 | tr -d ' ')
    cpu=$(echo "$out" | grep "^| lsbroker CPU" | grep -o "[0-9.]* µs per response")
    echo "$1 $variant: $rate responses/s, broker $cpu"
}

for round in $(seq "$rounds"); do
    for variant in before on off; do run "$variant" bench/keepalive.sh 100 16 10; done
done
for round in $(seq "$rounds"); do
    for variant in before on off; do run "$variant" bench/pings.sh 1000 5000 10; done
done
