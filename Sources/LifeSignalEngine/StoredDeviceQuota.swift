/// Which stored devices make room for a new one under `maxStoredDevices` (§10). Pure, so that
/// the choice is testable without a broker.
package enum StoredDeviceQuota {
    /// The devices to forget so that one more fits under `limit` (0: no limit): the least
    /// recently seen offline ones, a device never seen first and ties by id. Empty when there is
    /// room already; nil when too few are offline to make it.
    package static func devicesToForget(stored: some Collection<DeviceRecord>, limit: Int,
                                isOnline: (String) -> Bool) -> [DeviceRecord]? {
        guard limit > 0, stored.count >= limit else { return [] }
        let excess = stored.count - limit + 1
        let offline = stored.filter { !isOnline($0.key.deviceID) }.sorted {
            ($0.lastSeenAt ?? .min, $0.key.deviceID) < ($1.lastSeenAt ?? .min, $1.key.deviceID)
        }
        guard offline.count >= excess else { return nil }
        return Array(offline.prefix(excess))
    }
}
