#!/usr/bin/env bash
# The cluster's benchmarks (issue 13): one of the load benchmarks against N brokers (default 3) on
# a throwaway PostgreSQL on this machine, devices spread over the brokers (device k on broker
# k mod N, so a ping's two devices are on different brokers), recorded with the brokers' and
# PostgreSQL's CPU.
#   bench/cluster.sh pings [pairs] [rate] [duration]      cross-broker pings, open loop
#   bench/cluster.sh storm [devices] [duration] ...       reconnect storm through the cluster
#   LIFESIGNAL_BENCH_CLUSTER=2 bench/cluster.sh pings …   another number of brokers
set -euo pipefail
scenario=${1:?usage: bench/cluster.sh pings|storm|keepalive|idle|fanout [arguments of that script]}
shift
export LIFESIGNAL_BENCH_CLUSTER=${LIFESIGNAL_BENCH_CLUSTER:-3}
exec "$(dirname "$0")/$scenario.sh" "$@"
