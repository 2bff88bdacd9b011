import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §8 across a cluster: every broker scans for due deadlines each second, and each
/// missed check-in is fired exactly once, also when a broker dies around its deadline.
@Suite("Cluster: a deadline fires once", .serialized)
struct ClusterDeadlineTests {
    @Test func eachMissedCheckInFiresOnceWhileBrokersRaceAndOneIsKilled() throws {
        let cluster = try TestCluster(brokers: 3, arguments: ["--min-check-in-interval-sec", "1"])
        let ports = cluster.ports
        let alice = try Person("Alice", port: ports[0])
        let bob = try Person("Bob", port: ports[1])
        alice.add(bob, responder: true, dependent: false)
        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 1])

        for round in 1...3 {
            _ = alice.ok(Op.checkIn)
            if round == 2 {
                // Killed around the deadline: whichever broker was firing it, it fires once.
                Thread.sleep(forTimeInterval: 0.9)
                cluster.brokers[2].stop(signal: SIGKILL)
            }
            #expect(eventually { (try? cluster.missedCheckIns(told: bob.id)) == round })
            // Time for any second firing to show; there must be none.
            Thread.sleep(forTimeInterval: 2.5)
            #expect(try cluster.missedCheckIns(told: bob.id) == round)
        }
        let told = bob.phone.events(through: try cluster.head(of: bob.id)).notifications
        #expect(told.filter { $0["type"]?.stringValue == "nonResponsive" }.count == 3)
    }
}

extension TestCluster {
    /// The missed check-ins the user was notified of.
    func missedCheckIns(told userID: String) throws -> Int {
        Int(try sql("SELECT count(*) FROM notifications WHERE user_id = '\(userID)' AND type = 'nonResponsive'")
            .first ?? "") ?? -1
    }
}
