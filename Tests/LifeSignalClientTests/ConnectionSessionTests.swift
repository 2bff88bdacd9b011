import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// The protocol state machine fed with frames as the broker would send them; waiters are plain
/// strings, so no socket or task is involved.
@Suite struct ConnectionSessionTests {
    typealias Session = ConnectionSession<String, DeviceState>

    /// A session whose hello (rid 1) was answered, with `state` as the device's state.
    func greeted(lastSeq: Int64, state: inout DeviceState?) throws -> (Session, [Session.Action]) {
        var session = Session()
        _ = session.hello(Fixtures.configuration, token: Fixtures.configuration.token, resume: state?.lastSeq, at: 0)
        let actions = session.receive(.ok(rid: 1, fields: Fixtures.helloFields(lastSeq: lastSeq)), state: &state)
        return (session, actions)
    }

    @Test func helloCarriesCredentialsAndResume() throws {
        var session = Session()
        let frame = try Fixtures.body(of: session.hello(Fixtures.configuration, token: Fixtures.configuration.token, resume: 40, at: 0))
        #expect(frame["op"] == "hello")
        #expect(frame["rid"] == 1)
        #expect(frame["version"] == .int(ProtocolVersion.current))
        #expect(frame["user"] == "u_alice")
        #expect(frame["token"] == "secret")
        #expect(frame["device"] == "phone")
        #expect(frame["platform"] == "ios")
        #expect(frame["resume"] == 40)
        #expect(session.phase == .greeting(rid: 1))

        var fresh = Session()
        #expect(try Fixtures.body(of: fresh.hello(Fixtures.configuration, token: "t", resume: nil, at: 0))["resume"] == nil)
    }

    @Test func withoutResumeTheSnapshotCompletesTheCatchUp() throws {
        var state: DeviceState?
        var (session, actions) = try greeted(lastSeq: 10, state: &state)
        #expect(actions.isEmpty)
        actions = session.receive(.snapshot(Fixtures.snapshot(seq: 10)), state: &state)
        #expect(state == Fixtures.state(seq: 10))
        guard actions.count == 2, case .emit(.snapshot) = actions[0], case .caughtUp(let hello) = actions[1] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(hello.lastSeq == 10)
        #expect(hello.session == "s1")
        #expect(session.hello == hello)
    }

    @Test func resumeAppliesExactlyTheMissedEvents() throws {
        var state: DeviceState? = Fixtures.state(seq: 8)
        var (session, actions) = try greeted(lastSeq: 10, state: &state)
        #expect(actions.isEmpty)
        actions = session.receive(.event(seq: 9, name: EventName.contactRemoved, data: ["contactId": "u_bob"]), state: &state)
        guard actions.count == 1, case .emit(.event(seq: 9, _, _)) = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        actions = session.receive(.event(seq: 10, name: EventName.notificationsReadAll, data: ["count": 1]), state: &state)
        guard actions.count == 2, case .caughtUp = actions[1] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(state?.lastSeq == 10)
        #expect(state?.contacts["u_bob"] == nil)
        #expect(state?.unreadCount == 0)
    }

    @Test func nothingMissedIsCaughtUpAtOnce() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        let (session, actions) = try greeted(lastSeq: 10, state: &state)
        guard actions.count == 1, case .caughtUp = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        if case .live = session.phase {} else { Issue.record("not live: \(session.phase)") }
    }

    @Test func aResumeAheadOfTheBrokerWaitsForTheSnapshot() throws {
        var state: DeviceState? = Fixtures.state(seq: 12)
        var (session, actions) = try greeted(lastSeq: 10, state: &state)
        #expect(actions.isEmpty)
        actions = session.receive(.snapshot(Fixtures.snapshot(seq: 10)), state: &state)
        #expect(state?.lastSeq == 10)
        guard case .caughtUp? = actions.last else {
            Issue.record("unexpected actions \(actions)")
            return
        }
    }

    @Test func aGapDropsTheConnectionAndKeepsTheState() throws {
        var state: DeviceState? = Fixtures.state(seq: 8)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        let actions = session.receive(.event(seq: 10, name: EventName.notificationsReadAll, data: ["count": 1]), state: &state)
        guard actions.count == 1, case .drop(.sequenceGap(expected: 9, received: 10)) = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(state == Fixtures.state(seq: 8))
        #expect(session.phase == .failed)
        // Nothing more is accepted once failed.
        #expect(session.receive(.event(seq: 9, name: "x", data: [:]), state: &state).isEmpty)
    }

    @Test func aRepeatedSeqIsAGapToo() throws {
        var state: DeviceState?
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        _ = session.receive(.snapshot(Fixtures.snapshot(seq: 10)), state: &state)
        let actions = session.receive(.event(seq: 10, name: EventName.notificationsReadAll, data: ["count": 0]), state: &state)
        guard case .drop(.sequenceGap(expected: 11, received: 10))? = actions.first else {
            Issue.record("unexpected actions \(actions)")
            return
        }
    }

    @Test func pipelinedRequestsCompleteInOrder() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        var rids: [Int64] = []
        for index in 0..<5 {
            let frame = try Fixtures.body(of: session.request(Op.keepalive, [:], waiter: "w\(index)", at: 0))
            rids.append(try #require(frame["rid"]?.intValue))
        }
        #expect(rids == [2, 3, 4, 5, 6])
        #expect(session.inFlightCount == 5)

        var completed: [String] = []
        for (index, rid) in rids.enumerated() {
            let message: ServerMessage =
                index == 2
                ? .error(rid: rid, .notFound("no such thing"))
                : .ok(rid: rid, fields: ["serverTime": .int(Int64(index))])
            for action in session.receive(message, state: &state) {
                guard case .complete(let waiter, let result) = action else {
                    Issue.record("unexpected action \(action)")
                    continue
                }
                completed.append(waiter)
                if index == 2 {
                    #expect(throws: LifeSignalClientError.server(.notFound("no such thing"))) { try result.get() }
                } else {
                    #expect(try result.get()["serverTime"] == .int(Int64(index)))
                }
            }
        }
        #expect(completed == ["w0", "w1", "w2", "w3", "w4"])
        #expect(session.inFlightCount == 0)
    }

    @Test func eventsBeforeTheirOkAreAppliedFirst() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        _ = try session.request(Op.contactsRemove, ["contactId": "u_bob"], waiter: "remove", at: 0)
        var actions = session.receive(.event(seq: 11, name: EventName.contactRemoved, data: ["contactId": "u_bob"]), state: &state)
        actions += session.receive(.ok(rid: 2, fields: [:]), state: &state)
        guard actions.count == 2, case .emit = actions[0], case .complete("remove", _) = actions[1] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(state?.lastSeq == 11)
    }

    @Test func aResponseToNothingOrOutOfOrderIsAViolation() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        _ = try session.request(Op.keepalive, [:], waiter: "a", at: 0)
        let actions = session.receive(.ok(rid: 7, fields: [:]), state: &state)
        guard case .drop(.protocolViolation)? = actions.first else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        var other = Session()
        var none: DeviceState?
        guard case .drop(.protocolViolation)? = other.receive(.ok(rid: 1, fields: [:]), state: &none).first else {
            Issue.record("a response with nothing pending must be a violation")
            return
        }
    }

    @Test func refusedHelloIsTheBrokersError() {
        var session = Session()
        var state: DeviceState?
        _ = session.hello(Fixtures.configuration, token: Fixtures.configuration.token, resume: nil, at: 0)
        let actions = session.receive(.error(rid: 1, .unauthenticated("bad credentials")), state: &state)
        guard actions.count == 1, case .drop(.server(let error)) = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(error.code == .unauthenticated)
        #expect(LifeSignalClient.isFinal(.server(error)))
    }

    @Test func replacedWithoutRidEndsTheSession() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        _ = try session.request(Op.devicesList, [:], waiter: "list", at: 0)
        let actions = session.receive(.error(rid: nil, .replaced("another connection")), state: &state)
        guard actions.count == 1, case .drop(.server(let error)) = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(error.code == .replaced)
        #expect(session.failAll() == ["list"])
    }

    @Test func ridlessErrorThatKeepsTheConnectionIsOnlyNoted() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        let actions = session.receive(.error(rid: nil, .badJSON("?")), state: &state)
        guard actions.count == 1, case .internalRequestFailed = actions[0] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        if case .live = session.phase {} else { Issue.record("no longer live: \(session.phase)") }
    }

    @Test func internalRequestsCompleteNobody() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var (session, _) = try greeted(lastSeq: 10, state: &state)
        _ = try session.request(Op.keepalive, [:], waiter: nil, at: 0)
        #expect(session.receive(.ok(rid: 2, fields: ["serverTime": 1]), state: &state).isEmpty)
        _ = try session.request(Op.keepalive, [:], waiter: nil, at: 0)
        guard case .internalRequestFailed(op: "keepalive", _)? =
            session.receive(.error(rid: 3, .rateLimited("slow down")), state: &state).first
        else {
            Issue.record("a failed keepalive should be noted")
            return
        }
    }

    @Test func eventsBeforeHelloOrSnapshotAreViolations() throws {
        var session = Session()
        var state: DeviceState?
        _ = session.hello(Fixtures.configuration, token: Fixtures.configuration.token, resume: nil, at: 0)
        guard case .drop(.protocolViolation)? =
            session.receive(.event(seq: 1, name: EventName.contactRemoved, data: [:]), state: &state).first
        else {
            Issue.record("an event before hello must be a violation")
            return
        }
        var (greetedSession, _) = try greeted(lastSeq: 3, state: &state)
        guard case .drop(.protocolViolation)? =
            greetedSession.receive(.event(seq: 1, name: EventName.contactRemoved, data: [:]), state: &state).first
        else {
            Issue.record("an event with no state to apply it to must be a violation")
            return
        }
    }

    @Test func requestsOverTheBrokersLimitAreNotSent() throws {
        var state: DeviceState? = Fixtures.state(seq: 10)
        var session = Session()
        _ = session.hello(Fixtures.configuration, token: Fixtures.configuration.token, resume: 10, at: 0)
        var fields = Fixtures.helloFields(lastSeq: 10)
        fields["maxFrameBytes"] = 100
        _ = session.receive(.ok(rid: 1, fields: fields), state: &state)
        #expect(throws: LifeSignalClientError.self) {
            try session.request(Op.alertTrigger, ["message": .string(String(repeating: "x", count: 200))], waiter: "big", at: 0)
        }
        #expect(session.inFlightCount == 0)
        #expect(try Fixtures.body(of: session.request(Op.keepalive, [:], waiter: "small", at: 0))["rid"] == 2)
    }
}
