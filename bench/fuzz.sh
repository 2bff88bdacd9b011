#!/usr/bin/env bash
# Long fuzz run of the protocol code: libFuzzer + AddressSanitizer over the harness of
# Sources/LifeSignalFuzzing (FrameDecoder split every way, JSONParser round trip, Request.parse and
# the broker's field rules, ServerMessage.parse).
#   bench/fuzz.sh [runs=10000000] [extra libFuzzer flags...]      e.g. bench/fuzz.sh 0 -max_total_time=600
# Builds lsfuzz with -sanitize=fuzzer,address in .build-fuzz (linked with lld: gold crashes on the
# duplicate main that SwiftPM's --defsym resolves), writes the seed corpus, runs libFuzzer on it with
# limits for hangs (-timeout), memory (-rss_limit_mb) and single allocations (-malloc_limit_mb).
# The corpus grows in .build-fuzz/corpus; crash, timeout and oom inputs land in bench/results/fuzz/.
# Reproduce one with `lsfuzz check FILE` (any build) or `.build-fuzz/release/lsfuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift $(( $# < 1 ? $# : 1 ))

build=(swift build -c release --scratch-path .build-fuzz --product lsfuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DLIFESIGNAL_LIBFUZZER
       -Xswiftc -use-ld=lld)
echo "+ ${build[*]}"
mkdir -p .build-fuzz
if ! "${build[@]}" > .build-fuzz/build.log 2>&1; then
    grep -v "Cannot export local symbol" .build-fuzz/build.log >&2
    exit 1
fi
tail -1 .build-fuzz/build.log
bin=.build-fuzz/release/lsfuzz

seeds=.build-fuzz/seeds
corpus=.build-fuzz/corpus
artifacts=bench/results/fuzz
mkdir -p "$corpus" "$artifacts"
"$bin" write-seeds "$seeds"

# -malloc_limit_mb: the decoder may reserve one 64 KiB body and inputs are at most 8 KiB, so
# anything near 64 MiB is an allocation sized by the input. Peak RSS is in the final stats.
fuzz=("$bin" -runs="$runs" -max_len=8192 -timeout=5 -rss_limit_mb=1024 -malloc_limit_mb=64
      -dict=bench/fuzz.dict -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus" "$seeds")
echo "+ ${fuzz[*]}"
start=$(date +%s)
status=0
"${fuzz[@]}" 2>&1 | tee "$artifacts/last-run.log" || status=$?
echo "fuzz: exit $status after $(( $(date +%s) - start )) s; log in $artifacts/last-run.log"
exit "$status"
