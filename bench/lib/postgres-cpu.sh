# Sourced by the bench scripts that run a throwaway PostgreSQL.

# CPU seconds (user + system) a PostgreSQL server has used so far, given its data directory:
# the postmaster's own, its reaped children's (cutime + cstime: backends of connections already
# closed, which a sum over the live processes would lose) and its live children's.
postgres_cpu_seconds() {
    local postmaster ticks pid child
    postmaster=$(head -n 1 "$1/postmaster.pid")
    ticks=$(sed 's/.*) //' "/proc/$postmaster/stat" | awk '{ print $12 + $13 + $14 + $15 }')
    for pid in $(ps --ppid "$postmaster" -o pid= 2>/dev/null || true); do
        # A backend may exit between the listing and this read (its CPU then moves to cutime).
        child=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 }' || true)
        ticks=$(( ticks + ${child:-0} ))
    done
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
