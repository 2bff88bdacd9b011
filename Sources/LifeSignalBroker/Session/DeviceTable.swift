/// What a `DeviceTable` finds its entries by.
protocol DeviceIdentified {
    var deviceID: String { get }
}

/// A user's devices by id: a few per user (at most `--max-stored-devices` stored, fewer online),
/// so a plain array searched in order. A dictionary held per online user cost more than what it
/// held (117 B of storage for one device online, heaptrack).
struct DeviceTable<Value: DeviceIdentified> {
    private var entries: [Value]

    init(_ entries: [Value] = []) { self.entries = entries }

    var values: [Value] { entries }
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Setting a value stores it under its own device id, which must be `id`.
    subscript(id: String) -> Value? {
        get { entries.first { $0.deviceID == id } }
        set {
            let index = entries.firstIndex { $0.deviceID == id }
            switch (index, newValue) {
            case (let index?, let value?): entries[index] = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(value)
            case (nil, nil): break
            }
        }
    }
}

extension DeviceRecord: DeviceIdentified {
    var deviceID: String { key.deviceID }
}

/// A device online on a connection of this broker.
struct OnlineDevice: DeviceIdentified {
    let deviceID: String
    let connection: ClientConnection
}
