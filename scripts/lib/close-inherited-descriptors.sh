# Sourced by scripts that leave servers running (throwaway-postgres, deploy/local-cluster): a
# server must not keep the caller's descriptors open, or a caller waiting for those descriptors
# to close (a test runner's process pipes: Foundation's Process) waits as long as the server runs.
close_inherited_descriptors() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
    done
}
