#!/usr/bin/env bash
# Times the check every event passes on its way to each connection (is it a devices.changed that
# revokes this device?): bench/revocation-check/main.swift, built -O on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
swiftc -O bench/revocation-check/main.swift -o "$out/revocation-check"
"$out/revocation-check"
rm -rf "$out"
