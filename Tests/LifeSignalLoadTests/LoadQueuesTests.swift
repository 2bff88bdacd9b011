@testable import LifeSignalLoad
import Testing

/// A device matches each response to its request by order (PROTOCOL §2): the ring must give the
/// requests back exactly in the order they went, across growth and wrap-around.
@Suite struct PendingQueueTests {
    static func entry(_ rid: Int64) -> PendingQueue.Entry {
        PendingQueue.Entry(rid: rid, startNs: UInt64(rid) * 10, kind: 0, wantsFields: false)
    }

    @Test func givesRequestsBackInOrderAcrossGrowthAndWrapAround() {
        var queue = PendingQueue()
        var nextRid: Int64 = 1
        var expected: Int64 = 1
        // Keep a pipeline of varying depth so the ring wraps and grows several times.
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(Self.entry(nextRid))
                nextRid += 1
            }
            for _ in 0..<(round % 5 + 1) {
                guard let entry = queue.popFirst() else { break }
                #expect(entry.rid == expected)
                #expect(entry.startNs == UInt64(expected) * 10)
                expected += 1
            }
            #expect(queue.count == Int(nextRid - expected))
        }
        while let entry = queue.popFirst() {
            #expect(entry.rid == expected)
            expected += 1
        }
        #expect(expected == nextRid)
        #expect(queue.isEmpty && queue.first == nil)
    }

    @Test func removeAllEmptiesItAndItIsUsableAgain() {
        var queue = PendingQueue()
        for rid in 1...20 { queue.append(Self.entry(Int64(rid))) }
        queue.removeAll()
        #expect(queue.isEmpty && queue.popFirst() == nil)
        queue.append(Self.entry(99))
        #expect(queue.first?.rid == 99)
    }
}

/// Open-loop latency is measured from when a ping was meant to be sent: each notification must
/// take the time of its own ping, also after failures and compaction.
@Suite struct IntendedTimeQueueTests {
    @Test func timesComeBackOldestFirstAcrossCompaction() {
        var queue = IntendedTimeQueue()
        for ns in 1...1_000 as ClosedRange<UInt64> { queue.append(ns) }
        for ns in 1...600 as ClosedRange<UInt64> { #expect(queue.popFirst() == ns) }
        for ns in 1_001...1_100 as ClosedRange<UInt64> { queue.append(ns) }
        #expect(queue.count == 500)
        for ns in 601...1_100 as ClosedRange<UInt64> { #expect(queue.popFirst() == ns) }
        #expect(queue.popFirst() == nil)
    }

    @Test func aFailedPingsTimeIsForgottenAndAnAnsweredOneTakesTheOldest() {
        var queue = IntendedTimeQueue()
        for ns in [10, 20, 30] as [UInt64] { queue.append(ns) }
        queue.remove(20)
        #expect(queue.count == 2)
        // 99 is no longer queued (a notification took it): the oldest goes instead.
        queue.remove(99)
        #expect(queue.count == 1)
        #expect(queue.popFirst() == 30)
    }
}

/// The figures of a report, for people: grouped integers and fixed decimals without Foundation.
@Suite struct NumberFormatTests {
    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567"), (-1_234, "-1,234")])
    func groupsThousands(value: Int, text: String) {
        #expect(NumberFormat.grouped(value) == text)
    }

    @Test(arguments: [(12.345, 2, "12.35"), (9.999, 2, "10.00"), (0.05, 1, "0.1"), (-0.5, 2, "-0.50"),
                      (-0.004, 2, "0.00"), (3.0, 0, "3"), (1.0 / 0.0, 2, "inf")])
    func roundsToFixedDecimals(value: Double, digits: Int, text: String) {
        #expect(NumberFormat.fixed(value, digits) == text)
    }
}
