import LifeSignalClient
@testable import LifeSignalLoad
import LifeSignalProtocol
import Testing

/// A load device runs the client library's `ConnectionSession` over a `StreamPosition`: the same
/// hello and catch-up as an app, but a gap or a repeat is counted by the device, not a reason to
/// drop the connection, and a reconnect resumes from the highest seq seen.
@Suite struct StreamPositionTests {
    typealias Session = ConnectionSession<Int, StreamPosition>
    static let user = User(id: "u_load", name: "load-1", qrCode: "QRLOAD", createdAt: 1_000)

    static func helloOK(rid: Int64, lastSeq: Int64) -> ServerMessage {
        .ok(rid: rid, fields: ["session": "s1", "user": user.json, "lastSeq": .int(lastSeq), "heartbeatMs": 30_000,
                               "maxFrameBytes": 200, "serverTime": 1_763_800_000_000])
    }

    static func snapshot(seq: Int64) -> ServerMessage {
        .snapshot(Snapshot(seq: seq, user: user, contacts: [], notifications: [], unreadCount: 0))
    }

    static func event(_ seq: Int64) -> ServerMessage {
        .event(seq: seq, name: EventName.notificationsReadAll, data: ["count": 0])
    }

    static func greeted(resume position: StreamPosition?, lastSeq: Int64) -> (Session, [Session.Action]) {
        var session = Session()
        var buffer: [UInt8] = []
        let hello = Hello(userID: user.id, token: "t", deviceID: "load-1", resume: position?.lastSeq)
        session.hello(hello, at: 0, into: &buffer)
        var position = position
        let actions = session.receive(helloOK(rid: 1, lastSeq: lastSeq), state: &position)
        return (session, actions)
    }

    @Test func aGapOrARepeatInTheStreamIsNoReasonToDrop() {
        var (session, _) = Self.greeted(resume: nil, lastSeq: 5)
        var position: StreamPosition?
        _ = session.receive(Self.snapshot(seq: 2), state: &position)
        for seq: Int64 in [3, 5, 4] {
            let actions = session.receive(Self.event(seq), state: &position)
            #expect(!actions.contains { if case .drop = $0 { true } else { false } }, "event \(seq)")
        }
        // 5 reached the hello's lastSeq; a repeat of 4 does not move the position back.
        #expect(position?.lastSeq == 5)
        guard case .live = session.phase else {
            Issue.record("not live: \(session.phase)")
            return
        }
    }

    @Test func resumingAtTheHeadIsLiveAtOnce() {
        let position = StreamPosition(snapshot: Snapshot(
            seq: 7, user: Self.user, contacts: [], notifications: [], unreadCount: 0))
        let (session, actions) = Self.greeted(resume: position, lastSeq: 7)
        guard actions.count == 1, case .caughtUp = actions[0], case .live = session.phase else {
            Issue.record("unexpected \(actions), \(session.phase)")
            return
        }
    }

    @Test func aRequestTooLargeForTheBrokerIsNotSentAndTakesNoRid() throws {
        var (session, _) = Self.greeted(resume: nil, lastSeq: 0)
        var buffer: [UInt8] = [1, 2]
        #expect(throws: LifeSignalClientError.self) {
            try session.request(Op.profileUpdate, ["name": .string(String(repeating: "x", count: 300))], waiter: 1,
                                at: 0, into: &buffer)
        }
        #expect(buffer == [1, 2] && session.inFlightCount == 0)
        try session.request(Op.keepalive, [:], waiter: 2, at: 0, into: &buffer)
        let request = try Request.parse(Array(buffer.dropFirst(6)))
        #expect(request.op == Op.keepalive && request.rid == 2)
    }
}
