#!/usr/bin/env bash
# The part every load benchmark shares: build, start a fresh broker, run one `lsclient load`
# scenario against it, stop the broker, and append the result to docs/BENCHMARKS.md with the
# machine and the exact commands. The scenario scripts (keepalive.sh, pings.sh, idle.sh, storm.sh,
# fanout.sh, flood.sh) call it:
#
#   bench/run-load.sh HEADING INVOCATION SCENARIO [lsclient load options...]
#
# Builds release binaries into .build-release (its own scratch path, so it never disturbs a
# debug build). LIFESIGNAL_BENCH_BIN=<dir> skips the build and uses the binaries in <dir>.
# LIFESIGNAL_BENCH_NO_RECORD=1 prints the result without appending it.
set -euo pipefail

cd "$(dirname "$0")/.."
heading=$1
invocation=$2
scenario=$3
shift 3
arguments=("$@")

if [[ -n "${LIFESIGNAL_BENCH_BIN:-}" ]]; then
    bin=$LIFESIGNAL_BENCH_BIN
    build_note="binaries from \`$bin\` (LIFESIGNAL_BENCH_BIN)"
else
    swift build -c release --scratch-path .build-release --product lsbroker >&2
    swift build -c release --scratch-path .build-release --product lsclient >&2
    bin=.build-release/release
    build_note="binaries from \`swift build -c release --scratch-path .build-release\`"
fi

data_dir=$(mktemp -d)
broker_log=$(mktemp)
result=$(mktemp)
broker_pid=""
cleanup() {
    if [[ -n "$broker_pid" ]] && kill -0 "$broker_pid" 2>/dev/null; then
        kill -TERM "$broker_pid" 2>/dev/null || true
        wait "$broker_pid" 2>/dev/null || true
    fi
    rm -rf "$data_dir" "$broker_log" "$result"
}
trap cleanup EXIT

# Other work on the machine skews the figures (2 shared cores, DESIGN §4): note how busy the
# CPUs were just before (over 1 s of /proc/stat; the load average lags by minutes).
cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
read -r total1 idle1 < <(cpu_jiffies)
sleep 1
read -r total2 idle2 < <(cpu_jiffies)
busy_before=$(( 100 - 100 * (idle2 - idle1) / (total2 - total1) ))
if (( busy_before > 10 )); then
    echo "warning: the CPUs were ${busy_before}% busy before the run; other processes will skew the figures" >&2
fi

# A benchmark drives far more requests per connection, and registers far more users from one
# address, than the broker's abuse limits allow a real client: 0 turns the per-connection request
# rate limit and the per-address register rate limit off, so the figures measure the broker's
# work and not its limiter. (A broker without those limits ignores the variables.)
export LSBROKER_REQUEST_RATE=0 LSBROKER_REGISTER_RATE=0
"$bin/lsbroker" serve --port 0 --data-dir "$data_dir" --log-level info 2>"$broker_log" >/dev/null &
broker_pid=$!
port=""
for _ in $(seq 100); do
    port=$(grep -o 'lifesignal.port=[0-9]*' "$broker_log" | head -n 1 | cut -d= -f2 || true)
    [[ -n "$port" ]] && break
    kill -0 "$broker_pid" 2>/dev/null || break
    sleep 0.1
done
if [[ -z "$port" ]]; then
    echo "error: lsbroker did not start:" >&2
    cat "$broker_log" >&2
    exit 1
fi

command=("$bin/lsclient" load "$scenario" --broker "127.0.0.1:$port" --broker-pid "$broker_pid" "${arguments[@]}")
echo "+ ${command[*]}" >&2
"${command[@]}" >"$result"
cat "$result"

recorded_pid=$broker_pid
kill -TERM "$broker_pid"
broker_status=0
wait "$broker_pid" || broker_status=$?
broker_pid=""
if [[ $broker_status -ne 0 ]]; then
    echo "warning: lsbroker exited with status $broker_status:" >&2
    tail -n 20 "$broker_log" >&2
fi
if grep -qiE ' (warning|error|critical) ' "$broker_log"; then
    echo "note: the broker logged warnings or errors:" >&2
    grep -iE ' (warning|error|critical) ' "$broker_log" | head -n 10 >&2
fi

[[ "${LIFESIGNAL_BENCH_NO_RECORD:-}" == 1 ]] && exit 0

doc=docs/BENCHMARKS.md
[[ -f "$doc" ]] || { echo "error: $doc is missing" >&2; exit 1; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
memory=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
cpu=$(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
{
    echo
    echo "### $heading ($(date -u '+%Y-%m-%d %H:%M UTC'))"
    echo
    echo "- machine: $(nproc) cores ($cpu), $memory RAM, Linux $(uname -r); CPUs ${busy_before}% busy just before the run"
    echo "- code: commit $commit; $build_note"
    echo "- run: \`$invocation\`, which ran"
    echo "  \`LSBROKER_REQUEST_RATE=0 LSBROKER_REGISTER_RATE=0 lsbroker serve --port 0 --data-dir \$(mktemp -d)\` and"
    echo "  \`lsclient load $scenario --broker 127.0.0.1:$port --broker-pid $recorded_pid ${arguments[*]}\`"
    echo
    cat "$result"
} >>"$doc"
echo "appended to $doc" >&2
