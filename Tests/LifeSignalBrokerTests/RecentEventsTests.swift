@testable import LifeSignalBroker
import Testing

@Suite("Recent events kept for catch-ups from memory")
struct RecentEventsTests {
    private func frame(_ seq: Int64, size: Int = 10) -> [UInt8] { Array(repeating: UInt8(seq & 0xFF), count: size) }

    @Test func aCoveredRangeComesBackInOrder() {
        var recent = RecentEvents()
        for seq in Int64(1)...5 { recent.append(seq: seq, frame: frame(seq)) }
        #expect(recent.frames(after: 2, through: 5) == frame(3) + frame(4) + frame(5))
        #expect(recent.frames(after: 0, through: 5) == (1...5).flatMap { frame($0) })
        #expect(recent.frames(after: 5, through: 5) == [])
    }

    @Test func aRangeItDoesNotFullyHoldIsNil() {
        var recent = RecentEvents()
        for seq in Int64(10)...12 { recent.append(seq: seq, frame: frame(seq)) }
        #expect(recent.frames(after: 8, through: 12) == nil)  // 9 is not held
        #expect(recent.frames(after: 10, through: 13) == nil)  // 13 is not committed yet
    }

    @Test func itKeepsAtMostItsCountAndBytes() {
        var recent = RecentEvents()
        for seq in Int64(1)...100 { recent.append(seq: seq, frame: frame(seq)) }
        #expect(recent.frames(after: Int64(100 - RecentEvents.maxEvents), through: 100) != nil)
        #expect(recent.frames(after: Int64(99 - RecentEvents.maxEvents), through: 100) == nil)

        var large = RecentEvents()
        let size = RecentEvents.maxBytes / 4
        for seq in Int64(1)...10 { large.append(seq: seq, frame: frame(seq, size: size)) }
        #expect(large.frames(after: 6, through: 10) != nil)
        #expect(large.frames(after: 5, through: 10) == nil)
    }

    @Test func aGapStartsOver() {
        var recent = RecentEvents()
        for seq in Int64(1)...3 { recent.append(seq: seq, frame: frame(seq)) }
        recent.append(seq: 5, frame: frame(5))
        #expect(recent.frames(after: 2, through: 5) == nil)
        #expect(recent.frames(after: 4, through: 5) == frame(5))
    }
}
