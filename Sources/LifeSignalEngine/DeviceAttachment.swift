import LifeSignalProtocol

/// What a device's `hello` does to the user's devices (§3, §10), decided once for both engines:
/// from memory on the embedded broker, from rows read under the user's lock on the cluster.
package struct DeviceAttachment: Sendable {
    /// The device as stored from now on: seen `now`, its platform kept unless the hello names one.
    package let record: DeviceRecord
    /// Stored devices forgotten to make room for this one (`StoredDeviceQuota`), tokens with them.
    package let forgotten: [DeviceRecord]

    /// At most `maxOnline` devices online at once (`too_many_devices`; 0: no limit), the device
    /// itself not counted (its older connection is replaced); a device never stored before
    /// replaces the least recently seen offline ones past `maxStored` (`limit_exceeded` when
    /// too few are offline).
    package init(_ key: DeviceKey, platform: String?, now: Int64, existing: DeviceRecord?,
                 stored: [DeviceRecord], onlineCount: Int, isOnline: (String) -> Bool,
                 maxOnline: Int, maxStored: Int) throws(ProtocolError) {
        let othersOnline = onlineCount - (isOnline(key.deviceID) ? 1 : 0)
        if maxOnline > 0, othersOnline >= maxOnline {
            throw ProtocolError(.tooManyDevices, "at most \(maxOnline) devices may be online at once")
        }
        if existing == nil {
            guard let forgotten = StoredDeviceQuota.devicesToForget(stored: stored, limit: maxStored,
                                                                    isOnline: isOnline) else {
                throw .limitExceeded("\(maxStored) devices are stored and online; none can be replaced")
            }
            self.forgotten = forgotten
        } else {
            forgotten = []
        }
        var record = existing ?? DeviceRecord(key: key, platform: nil, pushToken: nil, lastSeenAt: nil)
        if let platform { record.platform = platform }
        record.lastSeenAt = now
        self.record = record
    }

    /// The forgotten devices' rows deleted.
    package var deletions: [StoreChange] { forgotten.map { .deleteDevice($0.key) } }

    /// What the store takes: the deletions, then the device's record.
    package var changes: [StoreChange] { deletions + [.upsertDevice(record)] }
}
