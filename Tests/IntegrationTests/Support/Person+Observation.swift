import LifeSignalProtocol

/// Reading a user's state the way a new device would, on a connection of its own, so the
/// person's own devices and their queued events are left alone.
extension Person {
    /// Everything this user's devices would see, from a fresh device's snapshot (PROTOCOL §3).
    func observedSnapshot() throws -> Snapshot {
        let observer = try RawConnection(port: port)
        defer { _ = observer.request(Op.bye) }
        guard observer.hello(credential, device: "observer")?.okFields != nil,
              case .snapshot(let snapshot) = observer.next()
        else { throw RawConnection.SetupFailed() }
        return snapshot
    }

    /// The user's whole notification history, newest first, paged through `notifications.list`.
    func notificationHistory() throws -> [JSONObject] {
        let connection = try RawConnection(port: port)
        defer { _ = connection.request(Op.bye) }
        guard connection.hello(credential, device: "history")?.okFields != nil else {
            throw RawConnection.SetupFailed()
        }
        var history: [JSONObject] = []
        var cursor: String?
        while true {
            var fields: JSONObject = ["limit": 100]
            if let cursor { fields["before"] = .string(cursor) }
            guard let page = connection.request(Op.notificationsList, fields)?.okFields?["notifications"]?
                .arrayValue else { throw RawConnection.SetupFailed() }
            if page.isEmpty { return history }
            history += page.compactMap(\.objectValue)
            cursor = history.last?.string(at: "id")
        }
    }

    /// This user's devices as `devices.list` shows them: device id → has a push token.
    func listedDevices() throws -> [String: Bool] {
        let connection = try RawConnection(port: port)
        defer { _ = connection.request(Op.bye) }
        guard connection.hello(credential, device: "observer")?.okFields != nil,
              let list = connection.request(Op.devicesList)?.okFields?["devices"]?.arrayValue
        else { throw RawConnection.SetupFailed() }
        return Dictionary(uniqueKeysWithValues: list.compactMap(\.objectValue).compactMap { device in
            device.string(at: "device").map { ($0, device.bool(at: "hasToken") ?? false) }
        })
    }
}
