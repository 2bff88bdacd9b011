/// The requests a device has in flight, oldest first. Responses come in request order
/// (PROTOCOL §2), so a FIFO matches each response to its request without a lookup.
/// A ring buffer: a steady pipeline allocates nothing per request.
package struct PendingQueue {
    package struct Entry {
        var rid: Int64
        /// When the request was sent, or meant to be sent (open-loop scenarios measure from there).
        var startNs: UInt64
        /// What the request was, for the device or its scenario (a `LoadRequestKind` value).
        var kind: UInt8
        /// False when nobody reads the `ok`'s fields: the device may skip parsing it.
        var wantsFields: Bool

        package init(rid: Int64, startNs: UInt64, kind: UInt8, wantsFields: Bool) {
            (self.rid, self.startNs, self.kind, self.wantsFields) = (rid, startNs, kind, wantsFields)
        }
    }

    private var storage: [Entry] = []
    private var head = 0
    private(set) var count = 0

    package var isEmpty: Bool { count == 0 }

    package var first: Entry? { count > 0 ? storage[head] : nil }

    package mutating func append(_ entry: Entry) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = entry
        count += 1
    }

    package mutating func popFirst() -> Entry? {
        guard count > 0 else { return nil }
        let entry = storage[head]
        head = (head + 1) % storage.count
        count -= 1
        return entry
    }

    package mutating func removeAll() {
        head = 0
        count = 0
    }

    /// Doubles the ring, moving the entries to the front in order.
    private mutating func grow() {
        var larger: [Entry] = []
        larger.reserveCapacity(Swift.max(8, storage.count * 2))
        for offset in 0..<count { larger.append(storage[(head + offset) % storage.count]) }
        let filler = Entry(rid: 0, startNs: 0, kind: 0, wantsFields: false)
        while larger.count < larger.capacity { larger.append(filler) }
        storage = larger
        head = 0
    }
}
