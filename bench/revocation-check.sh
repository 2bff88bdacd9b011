#!/usr/bin/env bash
# Times the check every event passes on its way to its user's connections (is it a devices.changed that
# revokes a device?): bench/revocation-check/main.swift, built -O with LifeSignalProtocol's sources
# (the module has no dependencies), so it times the shipped DeviceRevocation.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
swiftc -O -module-name RevocationCheck Sources/LifeSignalProtocol/*.swift bench/revocation-check/main.swift \
    -o "$out/revocation-check"
"$out/revocation-check"
rm -rf "$out"
