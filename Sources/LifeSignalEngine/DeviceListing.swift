import LifeSignalProtocol

extension DeviceInfo {
    /// `devices.list` and `devices.changed` (§5, §12), by device id: every stored device, and every
    /// device with a credential of its own that has not said hello yet. Both executors list
    /// through here.
    package static func listing(_ records: some Sequence<DeviceRecord>, credentials: some Sequence<DeviceCredential>,
                                online: Set<String>) -> [DeviceInfo] {
        let linkedAt = Dictionary(credentials.map { ($0.key.deviceID, $0.linkedAt) }, uniquingKeysWith: { first, _ in first })
        var entries: [String: DeviceInfo] = [:]
        for record in records {
            let id = record.key.deviceID
            entries[id] = DeviceInfo(device: id, platform: record.platform, hasToken: record.pushToken != nil,
                                     online: online.contains(id), lastSeenAt: record.lastSeenAt,
                                     linkedAt: linkedAt[id], hasCredential: linkedAt[id] != nil)
        }
        for (id, linked) in linkedAt where entries[id] == nil {
            entries[id] = DeviceInfo(device: id, hasToken: false, online: online.contains(id), linkedAt: linked,
                                     hasCredential: true)
        }
        return entries.values.sorted { $0.device < $1.device }
    }
}

extension DeviceRecord {
    /// The push token each of `records` holds, by device id: what `DeviceRules.changePushToken`
    /// and `.removePushToken` read beside the listing. Both executors derive it here.
    package static func pushTokens(of records: some Sequence<DeviceRecord>) -> [String: String] {
        Dictionary(records.compactMap { record in record.pushToken.map { (record.key.deviceID, $0) } },
                   uniquingKeysWith: { first, _ in first })
    }
}
