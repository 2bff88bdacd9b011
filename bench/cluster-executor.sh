#!/usr/bin/env bash
# The cluster executor's pings/s on a throwaway PostgreSQL on this machine, with the CPU of both
# the executors' process and PostgreSQL's (all its processes) over the run. No network side yet:
# `lsbroker bench-cluster` runs ping.send through ClusterExecutor directly.
#   bench/cluster-executor.sh [brokers=3] [pairs=1000] [in-flight=8] [seconds=10]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/postgres-cpu.sh
brokers=${1:-3} pairs=${2:-1000} inflight=${3:-8} seconds=${4:-10}
bin=${LIFESIGNAL_BENCH_BIN:-.build-release/release}
[ -x "$bin/lsbroker" ] || swift build -c release --scratch-path .build-release --product lsbroker
pgdir=$(mktemp -d "${TMPDIR:-/tmp}/bench-pg.XXXXXX")
chmod 755 "$pgdir"
trap 'scripts/throwaway-postgres stop "$pgdir"; rm -rf "$pgdir"' EXIT
url=$(scripts/throwaway-postgres start "$pgdir")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); commit $(git rev-parse --short HEAD)"
echo "run: $bin/lsbroker bench-cluster --postgres $url --brokers $brokers --pairs $pairs --in-flight $inflight --seconds $seconds"
before=$(postgres_cpu_seconds "$pgdir/data")
start=$(date +%s.%N)
"$bin/lsbroker" bench-cluster --postgres "$url" --brokers "$brokers" --pairs "$pairs" --in-flight "$inflight" --seconds "$seconds"
end=$(date +%s.%N)
after=$(postgres_cpu_seconds "$pgdir/data")
awk -v a="$after" -v b="$before" -v s="$start" -v e="$end" \
    'BEGIN { printf "postgres cpu: %.2f s over %.2f s of wall (set-up included)\n", a - b, e - s }'
