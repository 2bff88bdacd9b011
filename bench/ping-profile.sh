#!/usr/bin/env bash
# Where a ping's instructions go on the broker's loop thread: a callgrind profile of one release
# lsbroker while `lsclient load pings` (50 pairs at 100 pings/s for SECONDS) runs against it, then
# the instructions per call, inclusive, of the functions on a ping's path. Unlike
# bench/ping-instructions.sh, which divides a difference of totals by the pings offered, a
# per-call figure holds on a busy machine, where the broker under valgrind falls behind and
# answers fewer pings than were offered.
#   bench/ping-profile.sh BIN_DIR [SECONDS]     (BIN_DIR holds release builds of lsbroker and lsclient)
# The profile stays in the directory printed last (callgrind_annotate reads it; `--tree=calling`
# shows what each function calls).
set -euo pipefail
bin=$1
duration=${2:-6}
if ! command -v valgrind >/dev/null; then
    $( (( EUID == 0 )) || echo sudo) apt-get install -y valgrind >&2
fi
out=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Valgrind cannot read the debug information of Swift 6's DWARF 5; symbols are enough.
objcopy --strip-debug "$bin/lsbroker" "$out/lsbroker"
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/cg.%p" \
    "$out/lsbroker" serve --port "$port" --data-dir "$out/data" --request-rate 0 --register-rate 0 \
    --max-connections-per-address 0 --log-level warning >"$out/broker.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null || true' EXIT
for _ in $(seq 120); do
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.5
done
"$bin/lsclient" load pings --broker "127.0.0.1:$port" --pairs 50 --rate 100 --duration "$duration" --json \
    >"$out/load.json" 2>/dev/null
kill -INT "$broker"
wait "$broker" 2>/dev/null || true
trap - EXIT
# Thread 1 is the loop (the main thread).
callgrind_annotate --tree=caller --inclusive=yes --threshold=100 "$out"/cg.*-01 2>/dev/null |
    swift demangle --simplified >"$out/callers.txt"
python3 - "$out/callers.txt" <<'PY'
import re, sys

# A function's block in the caller tree: its callers ("<", with call counts), then itself ("*").
path = [
    "ClientConnection.handleFrame(_:arrivedNs:)", "UserSession.handle(_:from:)",
    "closure #1 in Broker.submit(_:then:)", "static PingRules.send(to:by:in:)",
    "static Outbound.event(seq:name:data:)", "Step.init(now:accounts:ids:)",
    "Step.init<A>(now:accounts:ids:)", "Step.save(_:)",
    "Step.view(of:for:)", "UserSession.emit(_:_:into:)",
]
rows = {}
for block in open(sys.argv[1]).read().split("\n\n"):
    lines = [line for line in block.split("\n") if line.strip()]
    own = [line for line in lines if re.match(r"\s*[\d,]+ \([ \d.]+%\)\s+\*", line)]
    if not own:
        continue
    name = re.sub(r"^.*\*\s+\?\?\?:", "", own[0]).split(" [")[0]
    if name not in path or name in rows:
        continue
    total = int(own[0].split()[0].replace(",", ""))
    calls = sum(int(m.group(1).replace(",", "")) for line in lines if "<" in line[:40]
                for m in [re.search(r"\(([\d,]+)x\)", line)] if m)
    if calls:
        rows[name] = (total / calls, calls)
print(f"{'instructions per call':>22}  {'calls':>6}  function")
for name in path:
    if name in rows:
        print(f"{rows[name][0]:>22,.0f}  {rows[name][1]:>6}  {name}")
PY
echo "profile: $out"
