/// Requests sent on one connection and not yet answered, oldest first. Responses come in request
/// order (PROTOCOL.md §2), so matching is a FIFO pop plus a rid check.
@usableFromInline
struct PendingRequests<Waiter> {
    @usableFromInline
    struct Entry {
        @usableFromInline let rid: Int64
        @usableFromInline let waiter: Waiter

        @inlinable init(rid: Int64, waiter: Waiter) {
            self.rid = rid
            self.waiter = waiter
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var count: Int { entries.count - head }
    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable var first: Entry? { head < entries.count ? entries[head] : nil }

    @inlinable mutating func append(rid: Int64, waiter: Waiter) {
        entries.append(Entry(rid: rid, waiter: waiter))
    }

    @inlinable mutating func popFirst() -> Entry? {
        guard head < entries.count else { return nil }
        let entry = entries[head]
        head += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= entries.count {
            // Compact now and then so a busy pipeline does not grow the array forever.
            entries.removeFirst(head)
            head = 0
        }
        return entry
    }

    /// Empties the queue, returning the entries oldest first.
    @inlinable mutating func removeAll() -> [Entry] {
        let remaining = Array(entries[head...])
        entries = []
        head = 0
        return remaining
    }
}
