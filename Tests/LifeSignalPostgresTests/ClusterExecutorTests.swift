@testable import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO
import LifeSignalFuzzing
import Testing

/// The cluster executor (ARCHITECTURE.md, "The cluster") on a real PostgreSQL: several executors,
/// each with its own pool as a broker has, run the same rules on the same users.
@Suite struct ClusterExecutorTests {
    static let interval: Int64 = 3_600

    /// Runs `body` with `brokers` executors on one freshly migrated database.
    func withCluster(brokers: Int, _ body: ([ClusterExecutor]) async throws -> Void) async throws {
        try await TestDatabase.withFresh { url in
            var databases: [ClusterDatabase] = []
            for _ in 0..<brokers { databases.append(try await TestDatabase.open(url)) }
            try await databases[0].migrate()
            do {
                try await body(databases.map { ClusterExecutor(database: $0, logger: TestDatabase.logger) })
            } catch {
                for database in databases { await database.close() }
                throw error
            }
            for database in databases { await database.close() }
        }
    }

    func register(_ names: [String], on executor: ClusterExecutor) async throws {
        for name in names {
            try await executor.create(User(id: "u_\(name)", name: name, qrCode: "qr_\(name)",
                                           checkInIntervalSec: Self.interval, createdAt: 0), tokenHash: [1, 2, 3])
        }
    }

    @Test func twoBrokersShareOneGaplessSeqPerUser() async throws {
        try await withCluster(brokers: 2) { brokers in
            let (a, b) = (brokers[0], brokers[1])
            try await register(["Alice", "Bob"], on: a)
            let added = try await a.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1_000) { step throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: false, isDependent: true,
                                     maxContacts: 0, in: &step)
            }
            let pinged = try await b.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 2_000) { step throws(ProtocolError) in
                try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
            }
            _ = try await a.perform(as: "u_Bob", involving: .named(["u_Alice"]), now: 3_000) { step throws(ProtocolError) in
                try PingRules.respond(to: "u_Alice", by: "u_Bob", in: &step)
            }
            for user in ["u_Alice", "u_Bob"] {
                let stored = try await a.events(of: user, after: 0)
                #expect(stored.map(\.seq) == Array(1...Int64(stored.count)), "\(user)'s seqs")
            }
            // What each commit returned is what was stored, in seq order.
            let bobsFirst = added.events.filter { $0.userID == "u_Bob" } + pinged.events.filter { $0.userID == "u_Bob" }
            #expect(bobsFirst.map(\.seq) == Array(1...Int64(bobsFirst.count)))
            let accounts = try await b.accounts(["u_Alice", "u_Bob"])
            let bob = try #require(accounts.first { $0.id == "u_Bob" })
            #expect(bob.contacts["u_Alice"]?.isResponder == true && bob.contacts["u_Alice"]?.incomingPing == nil)
        }
    }

    @Test func aRefusedRequestChangesNothing() async throws {
        try await withCluster(brokers: 1) { brokers in
            try await register(["Alice", "Bob"], on: brokers[0])
            await #expect(throws: ProtocolError.notFound("no such contact")) {
                _ = try await brokers[0].perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1) { step throws(ProtocolError) in
                    try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
                }
            }
            #expect(try await brokers[0].events(of: "u_Alice", after: 0).isEmpty)
        }
    }

    /// Random operations from three brokers at once: no deadlock surfaces, every user's seq stays
    /// gapless, and every relationship is reciprocal with its pings mirrored.
    @Test(arguments: [7, 19] as [UInt64])
    func concurrentRandomOperationsKeepEveryInvariant(seed: UInt64) async throws {
        let names = ["Alice", "Bob", "Carol", "Dan"]
        try await withCluster(brokers: 3) { brokers in
            try await register(names, on: brokers[0])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, broker) in brokers.enumerated() {
                    group.addTask {
                        var random = SplitMix64(seed: seed &+ UInt64(index))
                        for step in 0..<60 {
                            try await Self.randomOperation(on: broker, names: names, now: Int64(step) * 1_000,
                                                           random: &random)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let ids = names.map { "u_\($0)" }
            let accounts = Dictionary(uniqueKeysWithValues: try await brokers[1].accounts(ids).map { ($0.id, $0) })
            for id in ids {
                let stored = try await brokers[2].events(of: id, after: 0)
                #expect(stored.map(\.seq) == Array(1...Int64(max(stored.count, 1))).prefix(stored.count).map { $0 },
                        "\(id)'s seqs are gapless")
                for (contactID, mine) in accounts[id]?.contacts ?? [:] {
                    let theirs = try #require(accounts[contactID]?.contacts[id], "\(contactID) has \(id) back")
                    #expect(theirs.isResponder == mine.isDependent && theirs.isDependent == mine.isResponder)
                    #expect(theirs.incomingPing == mine.outgoingPing && theirs.outgoingPing == mine.incomingPing)
                }
            }
        }
    }

    static func randomOperation(on broker: ClusterExecutor, names: [String], now: Int64,
                                random: inout SplitMix64) async throws {
        let me = "u_" + names[Int(random.next() % UInt64(names.count))]
        var other = "u_" + names[Int(random.next() % UInt64(names.count))]
        if other == me { other = me == "u_Alice" ? "u_Bob" : "u_Alice" }
        let flags = (random.next() % 2 == 0, random.next() % 2 == 0)
        let kind = random.next() % 8
        let them = other
        do {
            switch kind {
            case 0, 1:
                _ = try await broker.perform(as: me, involving: .named([them]), now: now) { step throws(ProtocolError) in
                    try ContactRules.add(them, by: me, qrCode: "qr_" + them.dropFirst(2), isResponder: flags.0,
                                         isDependent: flags.1, maxContacts: 0, in: &step)
                }
            case 2:
                _ = try await broker.perform(as: me, involving: .named([them]), now: now) { step throws(ProtocolError) in
                    try ContactRules.remove(them, by: me, in: &step)
                }
            case 3:
                _ = try await broker.perform(as: me, involving: .named([them]), now: now) { step throws(ProtocolError) in
                    try ContactRules.setRoles(of: them, by: me, isResponder: flags.0, isDependent: flags.1, in: &step)
                }
            case 4:
                _ = try await broker.perform(as: me, involving: .named([them]), now: now) { step throws(ProtocolError) in
                    try PingRules.send(to: them, by: me, in: &step)
                }
            case 5:
                _ = try await broker.perform(as: me, involving: .responders, now: now) { step throws(ProtocolError) in
                    try SafetyRules.checkIn(by: me, in: &step)
                }
            case 6:
                _ = try await broker.perform(as: me, involving: .responders, now: now) { step throws(ProtocolError) in
                    try SafetyRules.triggerAlert(by: me, message: "help", in: &step)
                }
            default:
                _ = try await broker.perform(as: me, involving: .allContacts, now: now) { step throws(ProtocolError) in
                    try ProfileRules.update(by: me, ProfileUpdate(name: "N\(now)"),
                                            minCheckInIntervalSec: 60, in: &step)
                }
            }
        } catch let error as ProtocolError where [.forbidden, .notFound, .conflict].contains(error.code) {
            // Refused by the rules: part of the game, and it changed nothing.
        }
    }

    /// §8: a deadline fires exactly once while three brokers race to fire it.
    @Test func aDeadlineFiresOnceWhileBrokersRace() async throws {
        try await withCluster(brokers: 3) { brokers in
            try await register(["Alice", "Bob"], on: brokers[0])
            _ = try await brokers[0].perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 0) { step throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: false, isDependent: true,
                                     maxContacts: 0, in: &step)
            }
            _ = try await brokers[1].perform(as: "u_Bob", involving: .responders, now: 1_000) { step throws(ProtocolError) in
                try SafetyRules.checkIn(by: "u_Bob", in: &step)
            }
            let late = 1_000 + Self.interval * 1_000 + 1
            let fired = try await withThrowingTaskGroup(of: [String].self) { group in
                for broker in brokers {
                    group.addTask {
                        let first = try await broker.fireDueDeadlines(now: late)
                        return first + (try await broker.fireDueDeadlines(now: late + 1))
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(fired == ["u_Bob"])
            let told = try await brokers[2].events(of: "u_Alice", after: 0).filter {
                $0.body.contains("missed their check-in")
            }
            #expect(told.count == 1)
            #expect(try await brokers[0].accounts(["u_Bob"]).first?.user.isNonResponsive == true)
        }
    }
}
