import Testing

@testable import LifeSignalClient

@Suite struct PendingRequestsTests {
    @Test func firstInFirstOutAcrossCompaction() {
        var pending = PendingRequests<Int>()
        var next = 0
        var expected = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                pending.append(rid: Int64(next), waiter: next)
                next += 1
            }
            for _ in 0..<(round % 5 + 1) {
                guard let entry = pending.popFirst() else { break }
                #expect(entry.rid == Int64(expected))
                #expect(entry.waiter == expected)
                expected += 1
            }
        }
        let rest = pending.removeAll()
        #expect(rest.map(\.waiter) == Array(expected..<next))
        #expect(pending.isEmpty)
        #expect(pending.popFirst() == nil)
    }
}
