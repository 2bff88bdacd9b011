@testable import LifeSignalLoad
import Testing

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

    /// Latencies in the unit that suits them: microseconds below one, milliseconds up to a second.
    @Test(arguments: [(0, "0 µs"), (850, "850 µs"), (999, "999 µs"), (1_000, "1.00 ms"), (12_345, "12.35 ms"),
                      (999_994, "999.99 ms"), (2_100_000, "2.10 s")] as [(Int64, String)])
    func latenciesInTheirUnit(microseconds: Int64, text: String) {
        #expect(NumberFormat.latency(microseconds: microseconds) == text)
    }
}
