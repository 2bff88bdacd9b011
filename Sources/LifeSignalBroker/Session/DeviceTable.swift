import LifeSignalEngine

/// What a `DeviceTable` finds its entries by.
protocol DeviceIdentified {
    var deviceID: String { get }
}

/// A user's devices by id: a few per user (at most `--max-stored-devices` stored, fewer online),
/// searched in order. Most users have one, so the first is kept inline and only the others in an
/// array: an array per table was a heap block for that one entry (DeviceRecord 112 B, OnlineDevice
/// 56 B, besides malloc's header; heaptrack, idle devices), as a dictionary was before it (117 B).
struct DeviceTable<Value: DeviceIdentified>: Sequence {
    private var first: Value?
    /// The entries after `first`, in the order they came; empty while `first` is nil.
    private var rest: [Value] = []

    init(_ entries: [Value] = []) {
        first = entries.first
        rest = Array(entries.dropFirst())
    }

    /// A copy, for the callers that sort or filter them.
    var values: [Value] { Array(self) }
    var count: Int { first == nil ? 0 : 1 + rest.count }
    var isEmpty: Bool { first == nil }

    /// Setting a value stores it under its own device id, which must be `id`.
    subscript(id: String) -> Value? {
        get {
            if let first, first.deviceID == id { return first }
            return rest.first { $0.deviceID == id }
        }
        set {
            if let current = first, current.deviceID == id {
                if let newValue {
                    first = newValue
                } else {
                    first = rest.isEmpty ? nil : rest.removeFirst()
                }
                return
            }
            let index = rest.firstIndex { $0.deviceID == id }
            switch (index, newValue) {
            case (let index?, let value?): rest[index] = value
            case (let index?, nil): rest.remove(at: index)
            case (nil, let value?): if first == nil { first = value } else { rest.append(value) }
            case (nil, nil): break
            }
        }
    }

    /// In the order they came, without a copy (an event reaches every device online this way).
    func makeIterator() -> Iterator { Iterator(table: self) }

    struct Iterator: IteratorProtocol {
        let table: DeviceTable
        private var position = 0

        init(table: DeviceTable) { self.table = table }

        mutating func next() -> Value? {
            defer { position += 1 }
            if position == 0 { return table.first }
            return position - 1 < table.rest.count ? table.rest[position - 1] : nil
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
