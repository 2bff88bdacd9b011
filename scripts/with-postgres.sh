# Sourced by scripts/test and scripts/sanitized-tests: makes sure LIFESIGNAL_TEST_POSTGRES names
# a running PostgreSQL, starting a throwaway one (stopped when the script exits) if it does not.
if [ -z "${LIFESIGNAL_TEST_POSTGRES:-}" ]; then
    LIFESIGNAL_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/lifesignal-pg.XXXXXX")
    chmod 755 "$LIFESIGNAL_PG_DIR"
    trap 'scripts/throwaway-postgres stop "$LIFESIGNAL_PG_DIR"; rm -rf "$LIFESIGNAL_PG_DIR"' EXIT
    LIFESIGNAL_TEST_POSTGRES=$(scripts/throwaway-postgres start "$LIFESIGNAL_PG_DIR")
    export LIFESIGNAL_TEST_POSTGRES
    echo "PostgreSQL for the tests: $LIFESIGNAL_TEST_POSTGRES" >&2
fi
