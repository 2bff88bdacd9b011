/// The intended send times of one pair's pings whose notification has not arrived yet, oldest
/// first. A pair's notifications arrive in the order of its pings (one responder connection, one
/// dependent's event sequence), so the oldest time is the one the next notification answers.
package struct IntendedTimeQueue {
    private var times: [UInt64] = []
    private var head = 0

    package var count: Int { times.count - head }

    package mutating func append(_ ns: UInt64) {
        times.append(ns)
    }

    package mutating func popFirst() -> UInt64? {
        guard head < times.count else { return nil }
        let first = times[head]
        head += 1
        if head >= 64 && head * 2 >= times.count {  // compact now and then: amortized O(1)
            times.removeFirst(head)
            head = 0
        }
        return first
    }

    /// A ping that failed will get no notification: forget its time. When it is no longer
    /// queued (a later notification already took it), the oldest one goes instead, so the
    /// queue still holds one time per notification to come.
    package mutating func remove(_ ns: UInt64) {
        if let index = times[head...].firstIndex(of: ns) {
            times.remove(at: index)
        } else {
            _ = popFirst()
        }
    }
}
