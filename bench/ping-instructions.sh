#!/usr/bin/env bash
# Instructions per ping on the broker's loop thread and on its store writer, counted by callgrind:
# unlike CPU time on this shared machine, the count repeats within a fraction of a percent, so
# two builds compare by one run each. For each build directory given: two runs of
# `lsclient load pings` (50 pairs at 100 pings/s, for SHORT and then LONG seconds) against a fresh
# broker under callgrind; the difference between the runs, divided by the extra pings, is the
# cost of a ping with the set-up and start-up taken out.
#   bench/ping-instructions.sh BIN_DIR... (each holding release builds of lsbroker and lsclient)
# The writer's count depends on how pings fall into group commits, so it varies more than the loop's.
# The difference can move by a few percent between repeats of one build; the loop thread's total
# of the long run (same pings, same set-up for every build) is printed too, and compares builds
# more steadily.
set -euo pipefail
cd "$(dirname "$0")/.."
short=${LIFESIGNAL_INSTRUCTIONS_SHORT:-3}
long=${LIFESIGNAL_INSTRUCTIONS_LONG:-9}
rate=100
if ! command -v valgrind >/dev/null; then
    $( (( EUID == 0 )) || echo sudo) apt-get install -y valgrind >&2
fi
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# count BIN DURATION: prints the loop thread's and the writer's instruction totals.
count() {
    local bin=$1 duration=$2 port run
    port=$(free_port)
    run=$work/run-$RANDOM
    mkdir "$run"
    # Valgrind cannot read the debug information of Swift 6's DWARF 5; symbols are enough.
    objcopy --strip-debug "$bin/lsbroker" "$run/lsbroker"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$run/cg.%p" \
        "$run/lsbroker" serve --port "$port" --data-dir "$run/data" --request-rate 0 --register-rate 0 \
        --max-connections-per-address 0 --log-level warning >"$run/broker.log" 2>&1 &
    local broker=$!
    for _ in $(seq 120); do
        (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.5
    done
    "$bin/lsclient" load pings --broker "127.0.0.1:$port" --pairs 50 --rate "$rate" --duration "$duration" \
        --json >"$run/load.json" 2>/dev/null
    kill -INT "$broker"
    wait "$broker" 2>/dev/null || true
    # Thread 1 is the loop (the main thread); the store's writer is the busiest of the others.
    local loop writer
    loop=$(grep -h '^summary:' "$run"/cg.*-01 | cut -d' ' -f2)
    writer=$(for file in "$run"/cg.*-0[2-9]; do grep -h '^summary:' "$file" | cut -d' ' -f2; done | sort -n | tail -1)
    echo "$loop $writer"
}

for bin in "$@"; do
    read -r loop1 writer1 < <(count "$bin" "$short")
    read -r loop2 writer2 < <(count "$bin" "$long")
    pings=$(( (long - short) * rate ))
    echo "$bin: loop $(( (loop2 - loop1) / pings )) instructions per ping, writer $(( (writer2 - writer1) / pings ));" \
        "the loop's total over the ${long} s run: $loop2"
done
