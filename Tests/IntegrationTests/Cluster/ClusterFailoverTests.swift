import Foundation
import LifeSignalProtocol
import Testing

/// A broker of a cluster dies (SIGKILL): nothing it acknowledged is lost, no relationship is left
/// half made, and its devices move to another broker and resume with exactly what they missed.
@Suite("Cluster: a broker's death loses nothing", .serialized)
struct ClusterFailoverTests {
    @Test func everyAcknowledgedChangeSurvivesAKilledBroker() throws {
        let cluster = try TestCluster(brokers: 3)
        let ports = cluster.ports
        let alice = try Person("Alice", port: ports[1])
        let bob = try Person("Bob", port: ports[0])
        let carol = try Person("Carol", port: ports[2])
        alice.add(bob, responder: true, dependent: false)

        // Bob pipelines role changes, pings and contacts.add on broker 0, which is killed while
        // they are under way.
        var requests: [(op: String, fields: JSONObject)] = []
        let alicesID = JSONValue.string(alice.id)
        for round in 0..<60 {
            requests.append((Op.pingSend, ["contactId": alicesID]))
            requests.append((Op.contactsSetRoles, ["contactId": alicesID, "isResponder": .bool(round % 2 == 0),
                                                   "isDependent": true]))
        }
        requests.append((Op.contactsAdd, ["qrCode": .string(carol.qrCode), "isResponder": true, "isDependent": false]))
        let rids = bob.phone.sendPipelined(requests)
        var acknowledged: [Int64: JSONObject] = [:]
        while acknowledged.count < 20, let message = bob.phone.next(timeout: .seconds(20)) {
            if case .ok(let rid?, let fields) = message { acknowledged[rid] = fields }
        }
        cluster.brokers[0].stop(signal: SIGKILL)
        while let message = bob.phone.next(timeout: .seconds(2)) {
            if case .ok(let rid?, let fields) = message { acknowledged[rid] = fields }
        }
        #expect(acknowledged.count >= 20)

        // Every acknowledged ping left its notification with Alice.
        let pingIDs = rids.enumerated().compactMap { index, rid in
            requests[index].op == Op.pingSend ? acknowledged[rid]?["pingId"]?.stringValue : nil
        }
        let stored = Set(try cluster.sql(
            "SELECT related_ping_id FROM notifications WHERE user_id = '\(alice.id)' AND type = 'ping'"))
        #expect(!pingIDs.isEmpty)
        #expect(Set(pingIDs).isSubset(of: stored))
        // No relationship is half made, and roles mirror each other.
        let halves = try cluster.sql("""
            SELECT count(*) FROM contacts a LEFT JOIN contacts b ON b.user_id = a.contact_id AND b.contact_id = a.user_id
            WHERE b.user_id IS NULL OR a.is_responder <> b.is_dependent OR a.is_dependent <> b.is_responder
            """)
        #expect(halves == ["0"])
        // Seqs are gapless: each user's events run 1…head with nothing missing.
        for person in [alice, bob, carol] {
            let counts = try cluster.sql(
                "SELECT count(*), coalesce(min(seq), 1), coalesce(max(seq), 0) FROM events WHERE user_id = '\(person.id)'")
            let parts = counts.first?.split(separator: "|").compactMap { Int64($0) } ?? []
            let head = try cluster.head(of: person.id)
            #expect(parts.count == 3 && parts[0] == parts[2] - parts[1] + 1 && parts[2] == head, "\(counts)")
        }
    }

    @Test func aKilledBrokersDevicesResumeOnAnotherWithNoGapAndNoRepeat() throws {
        let cluster = try TestCluster(brokers: 3)
        // The watching tablet knows every broker and starts on the first.
        let cli = LSClient(brokers: cluster.brokers)
        try cli.register("Alice")
        try cli.register("Bob")
        let bobsCode = try cli.qrCode(of: "bob")
        #expect(try cli.run(["--profile", "alice", "contacts", "add", bobsCode, "--responder"]).status == 0)
        let tablet = ["--profile", "alice", "--device", "tablet", "--json"]
        let watch = try cli.start(tablet + ["watch"])
        try #require(watch.waitFor { $0.string(at: "type") == "connected" } != nil)

        // The phone (through the next broker, once the first is gone) changes things before and after.
        let phone = ["--profile", "alice", "--device", "phone", "--json"]
        for index in 0..<5 { #expect(try cli.run(phone + ["profile", "update", "--name", "Alice \(index)"]).status == 0) }
        cluster.brokers[0].stop(signal: SIGKILL)
        for index in 5..<10 { #expect(try cli.run(phone + ["profile", "update", "--name", "Alice \(index)"]).status == 0) }
        #expect(try cli.run(["--profile", "bob", "ping", "alice 9"]).status == 0)

        let head = try cluster.head(of: try #require(cli.savedState("alice", device: "phone")?.string(at: "user", "id")))
        #expect(watch.waitFor(timeout: .seconds(30)) { $0.int(at: "seq") == head } != nil)
        watch.stop()
        // Once each, in order: the catch-up after the move gave exactly what the tablet missed.
        let seqs = watch.objects.compactMap { $0.string(at: "type") == "event" ? $0.int(at: "seq") : nil }
        #expect(seqs == Array((seqs.first ?? 0)...head), "\(seqs)")
        #expect(seqs.count >= 12)
        #expect(try cli.run(phone + ["keepalive"]).status == 0)
        let phoneState = try cli.savedState("alice", device: "phone")
        #expect(phoneState != nil)
        #expect(phoneState == (try cli.savedState("alice", device: "tablet")))
    }
}
