#!/usr/bin/env bash
# Check-in deadlines (issue 4): the scheduler's cost per change, and the broker's start-up with
# COUNT users whose deadlines are stored (default 1,000,000). Appends to docs/BENCHMARKS.md.
#   bench/deadlines.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
swift build -c release --scratch-path .build-release --product lsbroker >&2
bin=.build-release/release
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

# 1. The scheduler alone: schedule, move, bulk load, memory.
scheduler=$("$bin/lsbroker" bench-deadlines --count "$count")

# 2. A store with COUNT pending deadlines, all in the future (none fires during the run).
"$bin/lsbroker" serve --port 0 --data-dir "$data" 2> "$data/first.log" &
pid=$!
until grep -q "deadlines scheduled" "$data/first.log"; do sleep 0.1; done
kill -TERM $pid; wait $pid
python3 - "$data/lifesignal.sqlite" "$count" <<'PY'
import sqlite3, sys, time, random
db = sqlite3.connect(sys.argv[1]); n = int(sys.argv[2]); now = int(time.time() * 1000)
rows = ((f"u_bench{i:08d}", f"User {i}", f"Q{i:011d}", b"\0" * 32, 86400, now, now + 3_600_000 + random.randrange(86_400_000), now)
        for i in range(n))
db.executemany("""INSERT INTO users (id, name, qr_code, token_hash, check_in_interval_sec, last_check_in_at,
                  check_in_deadline, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", rows)
db.commit()
PY
start=$(date +%s%N)
"$bin/lsbroker" serve --port 0 --data-dir "$data" 2> "$data/second.log" &
pid=$!
until grep -q "deadlines scheduled" "$data/second.log"; do sleep 0.01; done
ready_ms=$(( ($(date +%s%N) - start) / 1000000 ))
line=$(grep "deadlines scheduled" "$data/second.log")
load_ms=$(echo "$line" | sed -E 's/.*lifesignal.ms=([0-9]+).*/\1/')
loaded=$(echo "$line" | sed -E 's/.*lifesignal.count=([0-9]+).*/\1/')
rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
kill -TERM $pid; wait $pid

cores=$(nproc); memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)
cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
{
    echo
    echo "## Check-in deadlines, $(date -u +%Y-%m-%d)"
    echo
    echo "Machine: $cores cores, $memory, $cpu. Command: \`bench/deadlines.sh $count\`"
    echo "(release build; the scheduler figures come from \`lsbroker bench-deadlines --count $count\`)."
    echo
    echo '```'
    echo "$scheduler"
    echo '```'
    echo
    echo "| stored pending deadlines | loaded | broker start to all scheduled | of which query + heap build | broker RSS after |"
    echo "|---|---|---|---|---|"
    echo "| $count | $loaded | $ready_ms ms | $load_ms ms | $((rss_kb / 1024)) MiB |"
} >> docs/BENCHMARKS.md
tail -n 14 docs/BENCHMARKS.md
