import LifeSignalProtocol

/// Keeps one connection's responses in request order (PROTOCOL §2) while some of them
/// wait for their transaction to commit and later ones are ready at once.
struct ResponseOrder {
    struct Ticket: Hashable, Sendable { let number: UInt64 }

    struct Ready {
        var bytes: [UInt8]
        /// The error code the bytes answer with; nil for `ok` (RequestMetrics).
        var result: ProtocolError.Code?
        var closeAfter: Bool
    }

    private var waiting: [Ready?] = []
    private var head = 0
    private var nextNumber: UInt64 = 0

    var isIdle: Bool { head == waiting.count }

    mutating func reserve() -> Ticket {
        waiting.append(nil)
        defer { nextNumber += 1 }
        return Ticket(number: nextNumber)
    }

    /// Fills a ticket and returns every response now releasable, oldest first.
    mutating func fill(_ ticket: Ticket, with ready: Ready) -> [Ready] {
        let firstNumber = nextNumber - UInt64(waiting.count - head)
        let index = head + Int(ticket.number - firstNumber)
        precondition(index >= head && index < waiting.count && waiting[index] == nil, "ticket filled twice")
        waiting[index] = ready
        var released: [Ready] = []
        while head < waiting.count, let next = waiting[head] {
            released.append(next)
            waiting[head] = nil
            head += 1
        }
        if head == waiting.count {
            // Nothing waits: an idle connection holds no array (a pipelining one allocates one
            // small array per burst of requests held behind a commit).
            waiting = []
            head = 0
        }
        return released
    }
}
