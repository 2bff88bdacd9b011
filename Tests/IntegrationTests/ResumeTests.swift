import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §3 catch-up and §6 seq: a device that resumes gets exactly what it missed,
/// in order; one that cannot (too old, too new, or no resume) gets a snapshot.
@Suite("Catch-up with resume and snapshot", .serialized)
struct ResumeTests {
    private func events(_ connection: RawConnection, count: Int) -> [(seq: Int64, name: String)] {
        var result: [(Int64, String)] = []
        while result.count < count, let message = connection.next() {
            if case .event(let seq, let name, _) = message { result.append((seq, name)) }
        }
        return result
    }

    /// A few missed events come from the broker's memory; more than it keeps there, from the store.
    @Test(arguments: [5, RecentEventsLimits.maxEvents + 28])
    func aResumingDeviceReceivesExactlyTheEventsItMissedInOrder(missedCount: Int) throws {
        let broker = try BrokerProcess()
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        #expect(phone.request(Op.profileUpdate, ["name": "Alice A"])?.okFields != nil)
        let lastSeen = try #require(events(phone, count: 1).last?.seq)

        let count = Int64(missedCount)
        for index in 1...count { _ = phone.request(Op.profileUpdate, ["name": .string("Alice \(index)")]) }
        let missed = events(phone, count: missedCount)
        #expect(missed.map(\.seq) == Array(lastSeen + 1...lastSeen + count))

        let tablet = try RawConnection(port: broker.port)
        let greeting = tablet.hello(alice, device: "tablet", resume: lastSeen)?.okFields
        #expect(greeting?["lastSeq"]?.intValue == lastSeen + count)
        let caughtUp = events(tablet, count: missedCount)
        #expect(caughtUp.map(\.seq) == missed.map(\.seq))
        #expect(caughtUp.allSatisfy { $0.name == EventName.userUpdated })

        // Live events continue the same sequence on both devices.
        _ = phone.request(Op.qrRotate)
        #expect(events(tablet, count: 1).first?.seq == lastSeen + count + 1)
        #expect(events(phone, count: 1).first?.seq == lastSeen + count + 1)
    }

    @Test func resumingAtTheLatestSeqSendsNothingButLiveEvents() throws {
        let broker = try BrokerProcess()
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        _ = phone.request(Op.qrRotate)
        let latest = try #require(events(phone, count: 1).first?.seq)
        let tablet = try RawConnection(port: broker.port)
        #expect(tablet.hello(alice, device: "tablet", resume: latest)?.okFields?["lastSeq"]?.intValue == latest)
        _ = phone.request(Op.qrRotate)
        guard case .event(let seq, _, _) = tablet.next() else {
            Issue.record("expected a live event first")
            return
        }
        #expect(seq == latest + 1)
    }

    @Test(arguments: [nil, Int64(1_000)])
    func withoutAUsableResumeADeviceGetsASnapshot(resume: Int64?) throws {
        let broker = try BrokerProcess()
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        _ = phone.request(Op.profileUpdate, ["name": "Snap"])
        let tablet = try RawConnection(port: broker.port)
        let lastSeq = try #require(tablet.hello(alice, device: "tablet", resume: resume)?.okFields?["lastSeq"]?.intValue)
        guard case .snapshot(let snapshot) = tablet.next() else {
            Issue.record("expected a snapshot")
            return
        }
        #expect(snapshot.seq == lastSeq)
        #expect(snapshot.user.name == "Snap")
        #expect(snapshot.user.id == alice.userID)
    }

    @Test func aResumeOlderThanTheRetentionGetsASnapshot() throws {
        let broker = try BrokerProcess(arguments: ["--event-retention", "5"])
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        for index in 0..<100 { phone.send(Op.profileUpdate, ["name": .string("Alice \(index)")]) }
        let seen = events(phone, count: 100)
        #expect(seen.count == 100)

        let stale = try RawConnection(port: broker.port)
        #expect(stale.hello(alice, device: "stale", resume: 1)?.okFields != nil)
        guard case .snapshot(let snapshot) = stale.next() else {
            Issue.record("expected a snapshot for a resume older than the retention")
            return
        }
        #expect(snapshot.seq == seen.last?.seq)
        #expect(snapshot.user.name == "Alice 99")

        // The last `eventRetention` events are still there for a recent resume.
        let recent = try RawConnection(port: broker.port)
        let from = try #require(seen.last?.seq) - 5
        #expect(recent.hello(alice, device: "recent", resume: from)?.okFields != nil)
        #expect(events(recent, count: 5).map(\.seq) == Array(from + 1...from + 5))
    }

    @Test func seqAndDataSurviveAKilledBroker() throws {
        let broker = try BrokerProcess()
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        #expect(phone.request(Op.profileUpdate, ["name": "Before Crash", "phone": "+15550100"])?.okFields != nil)
        let before = try #require(events(phone, count: 1).first?.seq)

        try broker.restart(afterSignal: SIGKILL)

        let again = try RawConnection(port: broker.port)
        let greeting = try #require(again.hello(alice, device: "phone", resume: before)?.okFields)
        #expect(greeting["lastSeq"]?.intValue == before)
        #expect(greeting["user"]?.objectValue?["name"]?.stringValue == "Before Crash")
        #expect(greeting["user"]?.objectValue?["phone"]?.stringValue == "+15550100")
        _ = again.request(Op.qrRotate)
        #expect(events(again, count: 1).first?.seq == before + 1)
    }

    @Test func theActorsEventsArriveBeforeTheOkOfTheRequestThatCausedThem() throws {
        let cast = try AliceAndBob()
        let rid = cast.bob.phone.send(Op.pingSend, ["contactId": .string(cast.alice.id)])
        var order: [String] = []
        while let message = cast.bob.phone.next() {
            switch message {
            case .event(_, let name, _): order.append(name)
            case .ok(let r, _) where r == rid: order.append("ok")
            default: continue
            }
            if order.last == "ok" { break }
        }
        #expect(order == [EventName.contactUpdated, "ok"])
        // And the other user's events were durable and sent before that ok too.
        #expect(cast.alice.settle().allSatisfy { $0.map(\.name) == [EventName.contactUpdated, EventName.notificationAdded] })
    }
}

/// The broker keeps its newest 32 events per loaded user in memory (`RecentEvents`).
enum RecentEventsLimits {
    static let maxEvents = 32
}
