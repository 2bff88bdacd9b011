import DequeModule

/// One connection's requests that await their answer, oldest first, each with its op and the
/// time its frame arrived. Answers leave in the order requests came (PROTOCOL §2), so the oldest
/// entry is the one the next answer belongs to.
///
/// A connection usually has one request in flight: that one is kept inline, and only a pipelining
/// connection allocates (`rest`). 16 bytes per connection.
struct InFlightRequests {
    /// Arrival time in the low 56 bits, op index + 1 in the top 8; 0 when empty.
    private var oldest: UInt64 = 0
    private var rest = Deque<UInt64>()

    private static let timeMask: UInt64 = (1 << 56) - 1

    mutating func append(op: UInt8, arrivedNs: UInt64) {
        let packed = (UInt64(op) + 1) << 56 | (arrivedNs & Self.timeMask)
        if oldest == 0 {
            oldest = packed
        } else {
            rest.append(packed)
        }
    }

    /// Removes the oldest request; nil when none is in flight.
    mutating func removeOldest(nowNs: UInt64) -> (op: UInt8, durationNs: UInt64)? {
        guard oldest != 0 else { return nil }
        let packed = oldest
        oldest = rest.popFirst() ?? 0
        // Masked, so a clock past 2^56 ns (2.3 years of uptime) wraps without a wrong answer.
        return (UInt8(packed >> 56) - 1, (nowNs &- packed) & Self.timeMask)
    }

    /// A connection that closes has nothing more to answer.
    mutating func removeAll() {
        oldest = 0
        rest = []
    }
}
