# Sourced by scripts/test and scripts/sanitized-tests.
#
# The integration tests are synchronous: each holds a thread of Swift's cooperative pool while it
# waits for its lsbroker and lsclient processes, and the pool is only as wide as the machine has
# cores. In the same process, the in-process suites' tasks (an in-process broker's client, the FCM
# send queue) would wait for a thread for as long as two integration tests wait, past any deadline
# of the protocol's (a hello's 10 s). So the two kinds run side by side in two processes, each
# with a pool of its own.
#
#   test_in_two_processes INTEGRATION_LOG [swift test flags]
# runs the built tests: the in-process suites write to stdout, the integration tests to
# INTEGRATION_LOG. Returns non-zero if either run failed. Neither builds (--skip-build), so they
# share the scratch path without SwiftPM's lock on it (--ignore-lock), which would otherwise run
# them one after the other.
integration_tests='^IntegrationTests\.'

test_in_two_processes() {
    local integration_log=$1
    shift
    swift test --skip-build --ignore-lock "$@" --filter "$integration_tests" > "$integration_log" 2>&1 &
    local integration=$!
    # Even with --skip-build, SwiftPM opens its build database while it plans, and a second
    # swift test planning at the same moment fails ("database is locked"): the second starts once
    # the first is running its tests (XCTest's first line), or has ended.
    while kill -0 "$integration" 2>/dev/null && ! grep -q "^Test Suite '" "$integration_log"; do sleep 0.1; done
    local in_process_status=0 integration_status=0
    swift test --skip-build --ignore-lock "$@" --skip "$integration_tests" || in_process_status=$?
    wait "$integration" || integration_status=$?
    [ $in_process_status -eq 0 ] && [ $integration_status -eq 0 ]
}
