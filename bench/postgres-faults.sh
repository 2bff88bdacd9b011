#!/usr/bin/env bash
# PostgreSQL faults under load (issue 24): a cluster broker with --postgres-timeout 2 serves
# responder → dependent pairs sending pings, check-ins and alerts back to back while its
# PostgreSQL has its sessions terminated (3 × pg_terminate_backend), is restarted with
# `pg_ctl restart -m immediate`, and is frozen with SIGSTOP past the deadline. Prints, per fault,
# how long it lasted and how soon after it the broker served writes again; over the run, the
# requests unanswered, the slowest answer and the acknowledged writes lost (both must be 0).
# It is the integration test ClusterPostgresFaultTests, run with LIFESIGNAL_FAULT_REPORT.
#   bench/postgres-faults.sh [pairs=32]
set -euo pipefail
export LIFESIGNAL_FAULT_PAIRS=${1:-32}
cd "$(dirname "$0")/.."
source scripts/with-postgres.sh
report=$(mktemp)
status=0
LIFESIGNAL_FAULT_REPORT="$report" swift test --filter ClusterPostgresFaultTests >&2 || status=$?
cat "$report"
rm -f "$report"
exit $status
