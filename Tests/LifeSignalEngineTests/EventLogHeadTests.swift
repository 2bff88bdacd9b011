import LifeSignalEngine
import LifeSignalProtocol
import Testing

/// Each event's seq, frame, stored body and the retention after it, as both engines record them.
@Suite struct EventLogHeadTests {
    @Test func eachEventTakesTheNextSeqAndTheStoreKeepsItsFramesBody() throws {
        var log = EventLogHead(lastSeq: 41, oldestRetained: 1)
        var changes: [StoreChange] = []
        let frame = log.append(EventName.userUpdated, ["user": ["id": "u1"]], of: "u1", retention: 1_000, to: &changes)
        #expect(log.lastSeq == 42)
        #expect(changes.count == 1)
        guard case .appendEvent(let userID, let seq, let body) = try #require(changes.first) else {
            Issue.record("not an event: \(changes)")
            return
        }
        #expect(userID == "u1" && seq == 42)
        #expect(Array(body) == Array(frame.dropFirst(4)))
        let event = try #require(try JSONValue.parse(Array(body)).objectValue)
        #expect(event["seq"]?.intValue == 42)
        #expect(event["event"]?.stringValue == EventName.userUpdated)
    }

    @Test func aPruneFollowsTheEventThatMadeItDueAndMovesTheOldestKept() {
        var log = EventLogHead(lastSeq: 0, oldestRetained: 1)
        var changes: [StoreChange] = []
        var kept: [Int64] = []  // the seqs a store holds after applying `changes`
        for _ in 0..<1_000 {
            log.append(body: [], of: "u1", retention: 100, to: &changes)
        }
        for change in changes {
            switch change {
            case .appendEvent(_, let seq, _): kept.append(seq)
            case .pruneEvents(_, let through): kept.removeAll { $0 <= through }
            default: Issue.record("unexpected \(change)")
            }
        }
        #expect(kept.last == 1_000)
        #expect(kept.first == log.oldestRetained)
        #expect(kept.count >= 100 && kept.count < 100 + Int(EventRetention.step))
    }
}
