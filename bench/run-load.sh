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
# LIFESIGNAL_BENCH_FLOOD=<n> first holds n connections that never say hello (`lsclient load flood`,
# 10,000 per process) and runs the scenario while they are held (bench/flood-served.sh).
# LIFESIGNAL_BENCH_SAMPLE=<seconds> samples the broker's RSS and its store's size that often while
# the scenario runs, keeps the run with --out, and adds a table of both with throughput and p99
# over the run (bench/soak.sh: flat is the pass).
# LIFESIGNAL_BENCH_CLUSTER=<n> runs n brokers on a throwaway PostgreSQL instead of one on SQLite
# (deploy/local-cluster), spreads the devices over them and adds their CPU and PostgreSQL's
# (bench/cluster.sh).
set -euo pipefail

cd "$(dirname "$0")/.."
heading=$1
(( ${LIFESIGNAL_BENCH_CLUSTER:-0} > 0 )) && heading="cluster of ${LIFESIGNAL_BENCH_CLUSTER} brokers on PostgreSQL, $heading"
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
flood_dir=$(mktemp -d)
broker_pid=""
flood_pids=()
cleanup() {
    for pid in "${flood_pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    if (( ${LIFESIGNAL_BENCH_CLUSTER:-0} > 0 )) && [[ -n "$broker_pid" ]]; then
        deploy/local-cluster stop "$data_dir" >/dev/null 2>&1 || true
    elif [[ -n "$broker_pid" ]] && kill -0 "$broker_pid" 2>/dev/null; then
        kill -TERM "$broker_pid" 2>/dev/null || true
        wait "$broker_pid" 2>/dev/null || true
    fi
    rm -rf "$data_dir" "$broker_log" "$result" "$flood_dir"
}
trap cleanup EXIT

# Other work on the machine skews the figures (2 shared cores, ARCHITECTURE.md "One process"): note
# how busy the CPUs were just before (over 1 s of /proc/stat; the load average lags by minutes).
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
# work and not its limiter (a script may set them otherwise: hostile.sh keeps the request rate on).
# (A broker without those limits ignores the variables.)
export LSBROKER_REQUEST_RATE=${LSBROKER_REQUEST_RATE:-0} LSBROKER_REGISTER_RATE=${LSBROKER_REGISTER_RATE:-0}
cluster=${LIFESIGNAL_BENCH_CLUSTER:-0}
if (( cluster > 0 )); then
    # N brokers on a throwaway PostgreSQL (deploy/local-cluster); the devices spread over them.
    chmod 755 "$data_dir"
    LSBROKER="$bin/lsbroker" deploy/local-cluster start "$data_dir" "$cluster" >"$data_dir/addresses"
    brokers=$(sed -n 's/^LSCLIENT_BROKER=//p' "$data_dir/addresses")
    broker_pid=$(cat "$data_dir/broker-0.pid")
    port=${brokers%%,*}; port=${port##*:}
    broker_log="$data_dir/broker-0.log"
else
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
    brokers="127.0.0.1:$port"
fi

# CPU seconds (user + system) a set of processes has used so far.
cpu_seconds() {
    local total=0 pid fields
    for pid in "$@"; do
        fields=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null) || continue
        total=$(( total + $(echo "$fields" | awk '{ print $12 + $13 }') ))
    done
    awk -v t="$total" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
cluster_broker_pids() { cat "$data_dir"/broker-*.pid; }
source bench/lib/postgres-cpu.sh
if (( cluster > 0 )); then
    brokers_cpu_before=$(cpu_seconds $(cluster_broker_pids))
    postgres_cpu_before=$(postgres_cpu_seconds "$data_dir/pg/data")
    run_started=$(date +%s.%N)
fi

flood=${LIFESIGNAL_BENCH_FLOOD:-0}
flood_note=""
if (( flood > 0 )); then
    # Held until the scenario ends (SIGINT ends a flood early, with its report).
    for (( offset = 0; offset < flood; offset += 10000 )); do
        count=$(( flood - offset < 10000 ? flood - offset : 10000 ))
        "$bin/lsclient" load flood --broker "127.0.0.1:$port" --connections "$count" --duration 3600 \
            >"$flood_dir/$offset.txt" 2>"$flood_dir/$offset.err" &
        flood_pids+=($!)
    done
    # Ready when the broker's descriptor count stops growing for 2 s (it is full, or all are in).
    previous=0; steady=0
    for _ in $(seq 120); do
        sleep 0.5
        open=$(ls "/proc/$broker_pid/fd" | wc -l)
        if (( open == previous )); then steady=$(( steady + 1 )); else steady=0; fi
        previous=$open
        (( steady >= 4 )) && break
    done
    flood_note="with $flood flood connections from ${#flood_pids[@]} lsclient load flood processes held; the broker had $previous descriptors open when the scenario started"
    echo "flood: $flood_note" >&2
fi

sample_every=${LIFESIGNAL_BENCH_SAMPLE:-0}
sampler_pid=""
if (( sample_every > 0 )); then
    arguments+=(--out "$data_dir/run.json")
    # seconds since the start, broker RSS (KiB), bytes of the store (database and WAL)
    ( started=$(date +%s)
      while kill -0 "$broker_pid" 2>/dev/null; do
          rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$broker_pid/status" 2>/dev/null || echo 0)
          store=$(du -cb "$data_dir"/lifesignal.sqlite* 2>/dev/null | tail -n 1 | cut -f1)
          echo "$(( $(date +%s) - started )) ${rss:-0} ${store:-0}"
          sleep "$sample_every"
      done ) >"$data_dir/samples.txt" &
    sampler_pid=$!
fi

command=("$bin/lsclient" load "$scenario" --broker "$brokers" --broker-pid "$broker_pid" "${arguments[@]}")
echo "+ ${command[*]}" >&2
run_status=0
"${command[@]}" >"$result" || run_status=$?
if [[ -n "$sampler_pid" ]]; then
    kill "$sampler_pid" 2>/dev/null || true
    wait "$sampler_pid" 2>/dev/null || true
    python3 bench/lib/soak-report.py "$data_dir/samples.txt" "$data_dir/run.json" >>"$result"
fi
if (( run_status != 0 )); then
    echo "warning: lsclient load exited with status $run_status (its report says why)" >&2
fi
if (( cluster > 0 )); then
    # Over the whole lsclient run, set-up included (the window's figures above are broker 0's).
    seconds=$(awk -v a="$run_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    brokers_cpu=$(awk -v a="$brokers_cpu_before" -v b="$(cpu_seconds $(cluster_broker_pids))" 'BEGIN { printf "%.1f", b - a }')
    postgres_cpu=$(awk -v a="$postgres_cpu_before" -v b="$(postgres_cpu_seconds "$data_dir/pg/data")" 'BEGIN { printf "%.1f", b - a }')
    {
        echo
        echo "| cluster, whole run ($seconds s, set-up included) | CPU seconds | share of one core |"
        echo "|---|---|---|"
        echo "| $cluster brokers | $brokers_cpu | $(awk -v c="$brokers_cpu" -v s="$seconds" 'BEGIN { printf "%.0f%%", 100 * c / s }') |"
        echo "| PostgreSQL (all its processes) | $postgres_cpu | $(awk -v c="$postgres_cpu" -v s="$seconds" 'BEGIN { printf "%.0f%%", 100 * c / s }') |"
    } >>"$result"
fi

if (( cluster == 0 )); then
    # What the store holds after the run, set-up included (issue 14: bytes kept per ping).
    store_bytes=$(du -cb "$data_dir"/lifesignal.sqlite* 2>/dev/null | tail -n 1 | cut -f1)
    {
        echo
        echo "| store on disk at the end | size |"
        echo "|---|---|"
        echo "| database and WAL, set-up included | $(awk -v b="${store_bytes:-0}" 'BEGIN { printf "%.1f MiB", b / 1048576 }') |"
    } >>"$result"
fi

if (( flood > 0 )); then
    for pid in "${flood_pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
    for pid in "${flood_pids[@]}"; do wait "$pid" || true; done
    flood_pids=()
    # One row per flood process: what it held and what the broker did with it meanwhile.
    {
        echo
        echo "| flood process | connected | failed to connect | closed by the broker | errors the broker sent | open at the end |"
        echo "|---|---|---|---|---|---|"
        row() { grep -F "| $2 |" "$1" | head -n 1 | sed -E 's/^\| [^|]+ \| (.*) \|$/\1/'; }
        number=0
        for report in "$flood_dir"/*.txt; do
            number=$(( number + 1 ))
            echo "| $number | $(row "$report" connected) | $(row "$report" "failed to connect") | $(row "$report" "closed by the broker") | $(row "$report" "errors the broker sent") | $(row "$report" "open at the end") |"
        done
    } >>"$result"
fi
cat "$result"

recorded_pid=$broker_pid
broker_status=0
if (( cluster > 0 )); then
    deploy/local-cluster stop "$data_dir" || broker_status=$?
else
    kill -TERM "$broker_pid"
    wait "$broker_pid" || broker_status=$?
fi
broker_pid=""
if [[ $broker_status -ne 0 ]]; then
    echo "warning: lsbroker exited with status $broker_status:" >&2
    tail -n 20 "$broker_log" >&2
fi
if grep -qiE ' (warning|error|critical) ' "$broker_log"; then
    echo "note: the broker logged warnings or errors:" >&2
    grep -iE ' (warning|error|critical) ' "$broker_log" | head -n 10 >&2
fi

[[ "${LIFESIGNAL_BENCH_NO_RECORD:-}" == 1 ]] && exit "$run_status"

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
    if (( cluster > 0 )); then
        echo "  \`$(env | grep '^LSBROKER_' | sort | tr '\n' ' ')deploy/local-cluster start \$(mktemp -d) $cluster\` (a throwaway PostgreSQL and $cluster brokers) and"
    else
        echo "  \`$(env | grep '^LSBROKER_' | sort | tr '\n' ' ')lsbroker serve --port 0 --data-dir \$(mktemp -d)\` and"
    fi
    echo "  \`lsclient load $scenario --broker $brokers --broker-pid $recorded_pid ${arguments[*]}\`"
    [[ -n "$flood_note" ]] && echo "  $flood_note"
    echo
    cat "$result"
} >>"$doc"
echo "appended to $doc" >&2
exit "$run_status"
