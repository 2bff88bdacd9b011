@testable import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import Testing

/// Steps of several requests in one transaction (`performBatch`): each step sees what the steps
/// before it did, a refused step leaves no trace, and seqs stay gapless and in step order.
@Suite struct ClusterBatchTests {
    let cluster = ClusterExecutorTests()

    /// §12 in one batch: a step whose `opId` an earlier step of the batch used is answered as that
    /// one was and runs nothing; another op under it is refused; a refusal is kept too; and the next
    /// batch answers all of them from what was kept.
    @Test func stepsSharingAnOpIDInOneBatchRunOnce() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await cluster.register(["Alice", "Bob"], on: executor)
            _ = try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1) { (step) throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: true, isDependent: false,
                                     maxContacts: 0, in: &step)
            }
            func ping(_ opID: String, op: String = Op.pingSend) -> ClusterExecutor.BatchedStep {
                .init(userID: "u_Bob", involving: .named(["u_Alice"]),
                      keep: .init(userID: "u_Bob", opID: opID, op: op)) { (step) throws(ProtocolError) in
                    try PingRules.send(to: "u_Alice", by: "u_Bob", in: &step)
                }
            }
            let refused = ClusterExecutor.BatchedStep(
                userID: "u_Alice", involving: .nobody, keep: .init(userID: "u_Alice", opID: "clear", op: Op.pingClear)
            ) { (step) throws(ProtocolError) in try PingRules.clear(to: "u_Bob", by: "u_Alice", in: &step) }
            let steps = [ping("p1"), ping("p1"), ping("p1", op: Op.checkIn), refused]
            let first = try await executor.performBatch(steps, now: 2)
            guard case .committed(let reply, _) = first.outcomes[0] else { Issue.record("\(first.outcomes)"); return }
            guard case .kept(.ok(let again)) = first.outcomes[1], again == reply.fields else {
                Issue.record("the second is answered as the first: \(first.outcomes)")
                return
            }
            guard case .refused(let error) = first.outcomes[2], error.code == .badRequest else {
                Issue.record("another op under the opId: \(first.outcomes)")
                return
            }
            guard case .refused(let cleared) = first.outcomes[3] else { Issue.record("\(first.outcomes)"); return }
            let page = try await executor.notificationPage(of: "u_Alice", before: nil, limit: 100)
            #expect(page?.notifications.filter { $0.type == .ping }.count == 1)

            let second = try await executor.performBatch([ping("p1"), refused], now: 3)
            guard case .kept(.ok(reply.fields)) = second.outcomes[0], case .kept(.refused(cleared)) = second.outcomes[1]
            else { Issue.record("kept before this batch: \(second.outcomes)"); return }
        }
    }

    @Test func stepsRunInOrderOnWhatTheStepsBeforeThemLeft() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await cluster.register(["Alice", "Bob", "Carol"], on: executor)
            let batch = try await executor.performBatch([
                // Alice makes Bob her responder, and Bob pings her: the ping needs the new relationship.
                .init(userID: "u_Alice", involving: .named(["u_Bob"])) { (step) throws(ProtocolError) in
                    try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: true,
                                         isDependent: false, maxContacts: 0, in: &step)
                },
                .init(userID: "u_Bob", involving: .named(["u_Alice"])) { (step) throws(ProtocolError) in
                    try PingRules.send(to: "u_Alice", by: "u_Bob", in: &step)
                },
                // Refused: Carol is nobody's contact.
                .init(userID: "u_Carol", involving: .named(["u_Alice"])) { (step) throws(ProtocolError) in
                    try PingRules.send(to: "u_Alice", by: "u_Carol", in: &step)
                },
                // Alice's responders were read before the batch (none); Bob, who joined within it, is
                // locked already and is told of the check-in.
                .init(userID: "u_Alice", involving: .responders) { (step) throws(ProtocolError) in
                    try SafetyRules.checkIn(by: "u_Alice", in: &step)
                },
            ], now: 1_000)
            guard case .committed(_, let aliceSeq) = batch.outcomes[0],
                  case .committed(let ping, let bobSeq) = batch.outcomes[1],
                  case .refused(let refusal) = batch.outcomes[2],
                  case .committed = batch.outcomes[3] else {
                Issue.record("outcomes \(batch.outcomes)")
                return
            }
            guard case .ping(let pingID) = ping else {
                Issue.record("ping.send answered \(ping)")
                return
            }
            #expect(refusal.code == .notFound)
            for user in ["u_Alice", "u_Bob", "u_Carol"] {
                let stored = try await executor.events(of: user, after: 0)
                #expect(stored.map(\.seq) == (0..<Int64(stored.count)).map { $0 + 1 })
                #expect(stored.map(\.seq) == batch.events.filter { $0.userID == user }.map(\.seq))
            }
            #expect(try await executor.events(of: "u_Carol", after: 0).isEmpty)
            // Each step's own last seq: Alice's add comes before the ping's events to her.
            let aliceEvents = batch.events.filter { $0.userID == "u_Alice" }.map(\.seq)
            #expect(aliceSeq.map { aliceEvents.contains($0) && $0 < aliceEvents.last! } == true)
            let bobsEvents = batch.events.filter { $0.userID == "u_Bob" }.map(\.seq)
            #expect(bobSeq.map { bobsEvents.contains($0) && $0 < bobsEvents.last! } == true)
            let alice = try #require(try await executor.accounts(["u_Alice"]).first)
            #expect(alice.contacts["u_Bob"]?.incomingPing?.id == pingID)
            #expect(alice.user.lastCheckInAt == 1_000)
            let bobsView = batch.events.last { $0.userID == "u_Bob" }.flatMap { try? JSONValue.parse(Array($0.frame.dropFirst(4))) }
            #expect(bobsView?.objectValue?["data"]?.objectValue?["contact"]?.objectValue?["lastCheckInAt"]?.intValue == 1_000)
        }
    }

    @Test func aBatchAndTheSameStepsOneByOneLeaveTheSameState() async throws {
        try await cluster.withCluster(brokers: 2) { brokers in
            try await cluster.register(["A", "B"], on: brokers[0])
            _ = try await brokers[0].perform(as: "u_A", involving: .named(["u_B"]), now: 1) { (step) throws(ProtocolError) in
                try ContactRules.add("u_B", by: "u_A", qrCode: "qr_B", isResponder: false, isDependent: true,
                                     maxContacts: 0, in: &step)
            }
            let steps: [ClusterExecutor.BatchedStep] = (0..<10).map { index in
                index % 2 == 0
                    ? .init(userID: "u_A", involving: .named(["u_B"])) { (step) throws(ProtocolError) in
                        try PingRules.send(to: "u_B", by: "u_A", in: &step)
                    }
                    : .init(userID: "u_B", involving: .named(["u_A"])) { (step) throws(ProtocolError) in
                        try PingRules.respond(to: "u_A", by: "u_B", in: &step)
                    }
            }
            let batch = try await brokers[1].performBatch(steps, now: 2)
            #expect(batch.outcomes.allSatisfy { if case .committed = $0 { true } else { false } })
            let stored = try await brokers[0].events(of: "u_B", after: 0).map(\.seq)
            #expect(stored == (0..<Int64(stored.count)).map { $0 + 1 })
            // Five pings and five answers: every ping answered, both sides agree.
            let accounts = try await brokers[0].accounts(["u_A", "u_B"])
            #expect(accounts.allSatisfy { $0.contacts.values.allSatisfy { $0.incomingPing == nil && $0.outgoingPing == nil } })
            let notifications = try await brokers[0].notificationPage(of: "u_A", before: nil, limit: 100)
            #expect(notifications?.notifications.filter { $0.type == .pingResponse }.count == 5)
        }
    }

    /// Contact rows of several steps go in one statement, but never past a removal: a relationship
    /// added, removed and added again within one batch ends as the last step left it, and one
    /// added and then removed leaves no row.
    @Test func contactRowsKeepTheirOrderAroundARemovalWithinABatch() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await cluster.register(["A", "B", "C"], on: executor)
            func add(_ other: String, responder: Bool) -> ClusterExecutor.BatchedStep {
                .init(userID: "u_A", involving: .named(["u_\(other)"])) { (step) throws(ProtocolError) in
                    try ContactRules.add("u_\(other)", by: "u_A", qrCode: "qr_\(other)", isResponder: responder,
                                         isDependent: !responder, maxContacts: 0, in: &step)
                }
            }
            func remove(_ other: String) -> ClusterExecutor.BatchedStep {
                .init(userID: "u_A", involving: .named(["u_\(other)"])) { (step) throws(ProtocolError) in
                    try ContactRules.remove("u_\(other)", by: "u_A", in: &step)
                }
            }
            let batch = try await executor.performBatch(
                [add("B", responder: true), add("C", responder: true), remove("B"), add("B", responder: false),
                 remove("C")], now: 1)
            #expect(batch.outcomes.allSatisfy { if case .committed = $0 { true } else { false } })
            let accounts = Dictionary(uniqueKeysWithValues: try await executor.accounts(["u_A", "u_B", "u_C"]).map { ($0.id, $0) })
            #expect(accounts["u_A"]?.contacts.keys.sorted() == ["u_B"])
            #expect(accounts["u_A"]?.contacts["u_B"].map { ($0.isResponder, $0.isDependent) } ?? (true, true) == (false, true))
            #expect(accounts["u_B"]?.contacts["u_A"].map { ($0.isResponder, $0.isDependent) } ?? (false, false) == (true, false))
            #expect(accounts["u_C"]?.contacts.isEmpty == true)
        }
    }
}
