import DequeModule

/// One connection's requests that await their answer, oldest first, each with its op and the
/// time its frame arrived. Answers leave in the order requests came (PROTOCOL §2), so the oldest
/// entry is the one the next answer belongs to.
///
/// Most requests are answered while their frame is being handled (keepalive, reads, refusals):
/// that frame is kept in `handling` and never queued. Only a request still unanswered when its
/// handling ends (one waiting for a commit, or held behind one) is queued: the first inline, the
/// rest in `waiting`. 24 bytes per connection.
struct InFlightRequests {
    /// Each entry: arrival time in the low 56 bits, op index + 1 in the top 8; 0 when empty.
    private var handling: UInt64 = 0
    private var oldest: UInt64 = 0
    private var waiting = Deque<UInt64>()

    private static let timeMask: UInt64 = (1 << 56) - 1

    /// A frame's handling begins: its answer is due after every queued one.
    mutating func beginHandling(op: UInt8, arrivedNs: UInt64) {
        handling = (UInt64(op) + 1) << 56 | (arrivedNs & Self.timeMask)
    }

    /// Its handling ended: unless it was answered meanwhile, it waits in the queue.
    mutating func endHandling() {
        guard handling != 0 else { return }
        if oldest == 0 {
            oldest = handling
        } else {
            waiting.append(handling)
        }
        handling = 0
    }

    /// The request the answer written now belongs to, and how long it took; nil when none is due.
    mutating func answered(nowNs: UInt64) -> (op: UInt8, durationNs: UInt64)? {
        let packed: UInt64
        if oldest != 0 {
            packed = oldest
            oldest = waiting.popFirst() ?? 0
        } else if handling != 0 {
            packed = handling
            handling = 0
        } else {
            return nil
        }
        // Masked, so a clock past 2^56 ns (2.3 years of uptime) wraps without a wrong answer.
        return (UInt8(packed >> 56) - 1, (nowNs &- packed) & Self.timeMask)
    }
}
