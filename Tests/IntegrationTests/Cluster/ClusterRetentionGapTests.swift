import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §3, §6 and §11 together: a broker that fell behind the events PostgreSQL keeps (it
/// read nothing while another broker's changes were pruned past its devices) never sends those
/// devices a gap; they are cut, resume, and get a snapshot at the head.
@Suite("Cluster: a device behind the kept events", .serialized)
struct ClusterRetentionGapTests {
    @Test func aDeviceWhoseMissedEventsWerePrunedResumesWithASnapshotAndSeesNoGap() throws {
        // One event kept per user: retention prunes in steps of 64, so 80 changes prune past it.
        let cluster = try TestCluster(brokers: 2, arguments: ["--event-retention", "1"])
        let alice = try Person("Alice", port: cluster.ports[0])
        let tablet = try RawConnection(port: cluster.ports[1])
        let baseline = tablet.hello(alice.credential, device: "tablet")?.okFields?["lastSeq"]?.intValue ?? -1
        _ = tablet.next()  // its snapshot

        // Broker 1 reads nothing while stopped; broker 0 commits and prunes meanwhile.
        let stopped = cluster.brokers[1].pid
        kill(stopped, SIGSTOP)
        defer { kill(stopped, SIGCONT) }
        for index in 0..<80 { _ = alice.ok(Op.profileUpdate, ["name": .string("Alice \(index)")]) }
        let head = try cluster.head(of: alice.id)
        let oldest = Int64(try cluster.sql("SELECT oldest_retained_seq FROM users WHERE id = '\(alice.id)'").first ?? "")
        try #require((oldest ?? 0) > baseline + 1, "nothing the tablet misses was pruned: oldest \(String(describing: oldest))")
        kill(stopped, SIGCONT)

        // Whatever the tablet is sent before broker 1 closes it follows on from its snapshot.
        var seqs: [Int64] = []
        while let message = tablet.next(timeout: .seconds(20)) {
            if case .event(let seq, _, _) = message { seqs.append(seq) } else { Issue.record("sent \(message)") }
        }
        #expect(zip([baseline] + seqs, seqs).allSatisfy { $1 == $0 + 1 }, "after \(baseline): \(seqs)")
        #expect(tablet.isClosed)

        // Its resume is older than what is kept: a snapshot at the head, then live events.
        let again = try RawConnection(port: cluster.ports[1])
        let resumed = again.hello(alice.credential, device: "tablet", resume: seqs.last ?? baseline)?.okFields
        #expect(resumed?["lastSeq"]?.intValue == head)
        guard case .snapshot(let snapshot)? = again.next() else {
            Issue.record("no snapshot after the resume")
            return
        }
        #expect(snapshot.seq == head)
        #expect(snapshot.user.name == "Alice 79")
        _ = alice.ok(Op.profileUpdate, ["name": "Alice again"])
        #expect(again.events(through: head + 1).map(\.seq) == [head + 1])
    }
}
