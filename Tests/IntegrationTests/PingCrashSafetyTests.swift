import Foundation
import LifeSignalProtocol
import Testing

/// The broker is killed with SIGKILL in the middle of group commits while responders send and
/// withdraw pings. After every restart both sides of each relationship show the same pending
/// ping (the one row of the relationship holds both sides), in a state the acknowledged requests
/// allow, and every acknowledged ping left its notification with the dependent.
@Suite("Crash safety of pings", .serialized)
struct PingCrashSafetyTests {
    @Test func pendingPingsStayWholeAcrossRepeatedKills() throws {
        var random = SeededRandom(seed: UInt64(Date().timeIntervalSince1970))
        let seed = random.seed
        let broker = try BrokerProcess()
        let pairs = try (0..<4).map { index in
            (responder: try Person("Responder\(index)", port: broker.port),
             dependent: try Person("Dependent\(index)", port: broker.port))
        }
        for pair in pairs {
            _ = pair.responder.ok(Op.contactsAdd, ["qrCode": .string(pair.dependent.qrCode), "isResponder": false,
                                                   "isDependent": true])
        }
        // Per pair: the responder's ping is pending, as the store had it after the last restart.
        var pending = Array(repeating: false, count: pairs.count)
        var acknowledgedPings = Array(repeating: 0, count: pairs.count)

        for round in 0..<6 {
            var connections: [RawConnection] = []
            var issued: [[(rid: Int64, isSend: Bool)]] = []
            for pair in pairs {
                let connection = try RawConnection(port: broker.port)
                guard connection.hello(pair.responder.credential, device: "crash-\(round)")?.okFields != nil else {
                    Issue.record("hello failed in round \(round), seed \(seed)")
                    return
                }
                connections.append(connection)
                issued.append((0..<150).map { _ in
                    let isSend = random.next() % 3 != 0
                    let rid = connection.send(isSend ? Op.pingSend : Op.pingClear,
                                              ["contactId": .string(pair.dependent.id)])
                    return (rid, isSend)
                })
            }
            Thread.sleep(forTimeInterval: Double(random.next() % 15) / 1000)
            broker.stop(signal: SIGKILL)

            // The states each pair may be in: after its last answer, any prefix of the rest may
            // have been committed.
            var allowed: [[Bool]] = []
            for (index, connection) in connections.enumerated() {
                var answers: [Int64: ServerMessage] = [:]
                while let message = connection.next(timeout: .milliseconds(300)) {
                    if let rid = message.rid, message.isResponse { answers[rid] = message }
                }
                var state = pending[index]
                var states: [Bool] = []
                for request in issued[index] {
                    // A ping can always be sent; only a pending one can be withdrawn.
                    let succeeds = request.isSend || state
                    if let answer = answers[request.rid] {
                        #expect(states.isEmpty, "an answer after an unanswered request, seed \(seed)")
                        #expect((answer.okFields != nil) == succeeds,
                                "round \(round) pair \(index): \(answer) to \(request), seed \(seed)")
                        if succeeds && request.isSend { acknowledgedPings[index] += 1 }
                    } else if states.isEmpty {
                        states.append(state)
                    }
                    if succeeds { state = request.isSend }
                    if !states.isEmpty { states.append(state) }
                }
                allowed.append(states.isEmpty ? [state] : states)
            }

            try broker.start()
            for (index, pair) in pairs.enumerated() {
                let mine = try pair.responder.observedSnapshot().contacts.first { $0.id == pair.dependent.id }
                let theirs = try pair.dependent.observedSnapshot().contacts.first { $0.id == pair.responder.id }
                #expect(mine?.incomingPingAt == nil && theirs?.outgoingPingAt == nil, "seed \(seed)")
                #expect(mine?.outgoingPingAt == theirs?.incomingPingAt,
                        "half a ping in pair \(index), round \(round), seed \(seed)")
                let isPending = mine?.outgoingPingAt != nil
                #expect(allowed[index].contains(isPending),
                        "pair \(index) pending \(isPending), allowed \(allowed[index]), round \(round), seed \(seed)")
                pending[index] = isPending
            }
        }
        for (index, pair) in pairs.enumerated() {
            let text = "\(pair.responder.name) pinged you."
            let received = try pair.dependent.notificationHistory().filter { $0.string(at: "message") == text }.count
            #expect(received >= acknowledgedPings[index],
                    "\(pair.dependent.name) has \(received) pings, \(acknowledgedPings[index]) acknowledged, seed \(seed)")
        }
    }
}
