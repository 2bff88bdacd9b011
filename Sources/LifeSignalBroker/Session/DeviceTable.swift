/// A user's devices by id: a few per user (at most `--max-stored-devices` stored, fewer online),
/// so a plain array searched in order. A dictionary held per online user cost more than what it
/// held (117 B of storage for one device online, heaptrack).
struct DeviceTable<Value> {
    private var entries: [Value]
    private let deviceID: KeyPath<Value, String>

    init(_ entries: [Value] = [], deviceID: KeyPath<Value, String>) {
        self.entries = entries
        self.deviceID = deviceID
    }

    var values: [Value] { entries }
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Setting a value stores it under its own device id, which must be `id`.
    subscript(id: String) -> Value? {
        get { entries.first { $0[keyPath: deviceID] == id } }
        set {
            let index = entries.firstIndex { $0[keyPath: deviceID] == id }
            switch (index, newValue) {
            case (let index?, let value?): entries[index] = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(value)
            case (nil, nil): break
            }
        }
    }
}

/// A device online on a connection of this broker.
struct OnlineDevice {
    let deviceID: String
    let connection: ClientConnection
}
