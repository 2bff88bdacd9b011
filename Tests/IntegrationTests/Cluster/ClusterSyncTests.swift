import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §11 with real brokers on one PostgreSQL: a user's devices on different brokers get
/// the same events, each once and in seq order, whichever broker the change was made on.
@Suite("Cluster: devices on three brokers stay in sync", .serialized)
struct ClusterSyncTests {
    @Test func devicesOnDifferentBrokersSeeTheSameEventsInOrder() throws {
        let cluster = try TestCluster(brokers: 3)
        let ports = cluster.ports
        let alice = try Person("Alice", port: ports[0])
        try alice.addDevice("tablet", port: ports[1])
        try alice.addDevice("watch", port: ports[2])
        let bob = try Person("Bob", port: ports[2])
        try bob.addDevice("laptop", port: ports[0])

        alice.add(bob, responder: true, dependent: false)
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = alice.ok(Op.pingRespond, ["contactId": .string(bob.id)])
        _ = alice.ok(Op.checkIn)
        _ = alice.ok(Op.alertTrigger, ["message": "fell on the stairs"])
        // From the tablet, on another broker than the phone.
        #expect(alice.devices[1].request(Op.alertCancel)?.okFields != nil)
        #expect(alice.devices[2].request(Op.profileUpdate, ["name": "Alice B"])?.okFields != nil)

        let aliceHead = try cluster.head(of: alice.id)
        let bobHead = try cluster.head(of: bob.id)
        let aliceSeen = alice.devices.map { $0.events(through: aliceHead) }
        let bobSeen = bob.devices.map { $0.events(through: bobHead) }
        for seen in aliceSeen + bobSeen {
            #expect(seen.isGapless, "seqs \(seen.map(\.seq))")
        }
        #expect(aliceSeen.allSatisfy { $0.last?.seq == aliceHead })
        #expect(bobSeen.allSatisfy { $0.last?.seq == bobHead })
        // Every device of a user holds the same events for the seqs they all saw.
        #expect(Set(aliceSeen.map(\.signature)).count == 1, "\(aliceSeen.map(\.signature))")
        #expect(Set(bobSeen.map(\.signature)).count == 1)

        let toBob = bobSeen[0].notifications.compactMap { $0["type"]?.stringValue }
        #expect(toBob == ["added", "pingResponse", "alert", "alertCancelled"])
        let bobsView = bobSeen[1].named(EventName.contactUpdated).last?.contact
        #expect(bobsView?["name"]?.stringValue == "Alice B")
        #expect(bobsView?["alert"] == nil || bobsView?["alert"] == .null)
    }

    @Test func helloNamesTheBrokerAndAnEitherBrokerCatchUpResumes() throws {
        let cluster = try TestCluster(brokers: 2)
        let alice = try Person("Alice", port: cluster.ports[0])
        let resumeFrom: Int64
        do {
            let first = try RawConnection(port: cluster.ports[1])
            let hello = first.hello(alice.credential, device: "tablet")?.okFields
            #expect(hello?["broker"]?.stringValue == "cluster-1")
            resumeFrom = hello?["lastSeq"]?.intValue ?? -1
            _ = first.next()  // its snapshot
        }

        for name in ["A1", "A2", "A3"] { _ = alice.ok(Op.profileUpdate, ["name": .string(name)]) }
        // The tablet comes back on the other broker and gets exactly what it missed.
        let again = try RawConnection(port: cluster.ports[0])
        #expect(again.hello(alice.credential, device: "tablet", resume: resumeFrom)?.okFields?["broker"]?.stringValue
            == "cluster-0")
        let missed = again.events(through: try cluster.head(of: alice.id))
        #expect(missed.map(\.seq) == [resumeFrom + 1, resumeFrom + 2, resumeFrom + 3])
        #expect(missed.compactMap { $0.data["user"]?.objectValue?["name"]?.stringValue } == ["A1", "A2", "A3"])
    }
}

extension ClusterSyncTests {
    @Test func aDeviceThatConnectsToAnotherBrokerReplacesItsOldConnection() throws {
        let cluster = try TestCluster(brokers: 2)
        let alice = try Person("Alice", port: cluster.ports[0])
        let old = try RawConnection(port: cluster.ports[0])
        #expect(old.hello(alice.credential, device: "tablet")?.okFields != nil)
        let new = try RawConnection(port: cluster.ports[1])
        #expect(new.hello(alice.credential, device: "tablet")?.okFields != nil)
        // The old connection is told and closed (§3); the new one stays.
        var replaced = false
        while let message = old.next(timeout: .seconds(10)) {
            if message.errorCode == .replaced { replaced = true }
        }
        #expect(replaced)
        #expect(old.waitForClose())
        #expect(new.request(Op.keepalive)?.okFields != nil)
    }

    /// Each notice names the broker that held the device, so only that connection goes: a device
    /// that moved on again is not cut on its newest broker by the notice of an earlier move.
    @Test func aDeviceThatMovesTwiceKeepsItsNewestConnection() throws {
        let cluster = try TestCluster(brokers: 3)
        let alice = try Person("Alice", port: cluster.ports[0])
        let connections = try cluster.ports.map { try RawConnection(port: $0) }
        for connection in connections {
            #expect(connection.hello(alice.credential, device: "tablet")?.okFields != nil)
        }
        for old in connections.dropLast() {
            var replaced = false
            while let message = old.next(timeout: .seconds(10)) {
                if message.errorCode == .replaced { replaced = true }
            }
            #expect(replaced)
        }
        #expect(connections.last?.request(Op.keepalive)?.okFields != nil)
        #expect(connections.last?.isClosed == false)
    }
}

extension TestCluster {
    /// The user's head seq as PostgreSQL has it.
    func head(of userID: String) throws -> Int64 {
        Int64(try sql("SELECT seq FROM users WHERE id = '\(userID)'").first ?? "") ?? -1
    }
}

extension RawConnection {
    /// The events this device is sent until one has seq `head` (or 20 s pass: a bound against a
    /// hang, not a timing assertion), in the order they came.
    func events(through head: Int64) -> [ReceivedEvent] {
        var events: [ReceivedEvent] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while (events.last?.seq ?? .min) < head, ContinuousClock.now < deadline {
            if case .event(let seq, let name, let data)? = next(timeout: .seconds(1)) {
                events.append(ReceivedEvent(seq: seq, name: name, data: data.objectValue ?? [:]))
            }
        }
        return events
    }
}

extension Array where Element == ReceivedEvent {
    /// Each seq one more than the one before.
    var isGapless: Bool { zip(self, dropFirst()).allSatisfy { $1.seq == $0.seq + 1 } }

    /// Seqs and names, to compare what two devices were sent.
    var signature: String { map { "\($0.seq) \($0.name)" }.joined(separator: "; ") }
}

/// Pushes in a cluster (§7): each notification is pushed once to each device with a token that is
/// online on no live broker, and `lsbroker pushes --postgres` shows them.
@Suite("Cluster: pushes to offline devices")
struct ClusterPushTests {
    @Test func aDeviceOfflineEverywhereIsPushedOnceAndPushesListsIt() throws {
        let cluster = try TestCluster(brokers: 2)
        let alice = try Person("Alice", port: cluster.ports[0])
        let bob = try Person("Bob", port: cluster.ports[1], devices: 2)
        alice.add(bob, responder: true, dependent: false)
        #expect(bob.devices[1].request(Op.deviceRegister, ["token": "fcm-bob-tablet", "platform": "ios"])?.okFields != nil)
        #expect(bob.devices[0].request(Op.deviceRegister, ["token": "fcm-bob-phone", "platform": "ios"])?.okFields != nil)
        bob.takeOffline(bob.devices[1], named: "device-1")

        _ = alice.ok(Op.alertTrigger, ["message": "fell on the stairs"])
        let pushes = try RecordedPushes.run(cluster.brokers[0], ["--json", "--postgres", cluster.databaseURL, "--user", "bob"],
                                            dataDirectoryOption: false)
            .split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)).objectValue }
        #expect(pushes.count == 1)
        #expect(pushes.first?["deviceId"]?.stringValue == "device-1")
        #expect(pushes.first?["userName"]?.stringValue == "Bob")
        #expect(pushes.first?.fcm?["data"]?.objectValue?["alertMessage"]?.stringValue == "fell on the stairs")
    }
}
