#!/usr/bin/env python3
"""The over-time table of a long run (bench/soak.sh): for each tenth of the run, the broker's RSS
and its store's size (from the sampler's lines: seconds, RSS KiB, store bytes) and the throughput
and worst p99 of its seconds (from the run file `lsclient load --out` wrote). Flat is the pass:
the last line says how each moved from the second tenth (warmed up, history filled) to the last.

    soak-report.py SAMPLES RUN_JSON
"""
import json
import sys

samples = [tuple(int(x) for x in line.split()) for line in open(sys.argv[1]) if len(line.split()) == 3]
run = json.load(open(sys.argv[2]))
series = run["series"]
end = series[-1]["t"] if series else 0
# The sampler's clock starts before set-up; the run's window ends at the end of the run.
offset = (samples[-1][0] - end) if samples else 0
key = "delivered" if "delivered" in run["report"] else "answered"

rows = []
for tenth in range(10):
    lo, hi = end * tenth / 10, end * (tenth + 1) / 10
    seconds = [s for s in series if lo < s["t"] <= hi]
    inside = [s for s in samples if lo <= s[0] - offset <= hi] or samples[-1:]
    rss = max(s[1] for s in inside) / 1024 if inside else 0
    store = max(s[2] for s in inside) / 1048576 if inside else 0
    rate = sum(s[key] for s in seconds) / (hi - lo) if hi > lo else 0
    p99s = [s["p99Us"] for s in seconds if s["p99Us"] is not None]
    rows.append((hi, rss, store, rate, max(p99s) / 1000 if p99s else None))

print()
print(f"| window (s) | lsbroker RSS | store on disk | {key}/s | worst p99 of a second |")
print("|---|---|---|---|---|")
for hi, rss, store, rate, p99 in rows:
    p99_text = f"{p99:.1f} ms" if p99 is not None else "-"
    print(f"| {hi:.0f} | {rss:.1f} MiB | {store:.1f} MiB | {rate:,.0f} | {p99_text} |")
if len(rows) == 10:
    first, last = rows[1], rows[-1]
    def change(a, b):
        return f"{(b - a) / a * 100:+.0f}%" if a else "-"
    p99_change = change(first[4], last[4]) if first[4] and last[4] else "-"
    print()
    print(f"From the second tenth to the last: RSS {change(first[1], last[1])}, store {change(first[2], last[2])}, "
          f"{key}/s {change(first[3], last[3])}, worst p99 {p99_change}.")
