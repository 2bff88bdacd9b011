import Foundation
import LifeSignalProtocol
import Testing

/// The FCM sender on a cluster: a token FCM rejects is removed through the cluster's PostgreSQL,
/// so every broker stops pushing it (`FCMPushTests` has the single broker).
@Suite("Cluster: FCM")
struct ClusterFCMTests {
    @Test func aTokenFCMRejectsIsRemovedForTheWholeCluster() throws {
        let fcm = try FakeFCM()
        let account = try ServiceAccountFile(tokenURI: fcm.tokenURI)
        fcm.trust(account)
        fcm.script("gone-token", [.unregistered])
        let cluster = try TestCluster(
            brokers: 2, arguments: fcm.brokerArguments(account))
        let alice = try Person("Alice", port: cluster.ports[0], devices: 2)
        let bob = try Person("Bob", port: cluster.ports[1])
        alice.add(bob, responder: true, dependent: false)
        alice.register(token: "gone-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")

        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        #expect(fcm.wait { $0.sends.count == 1 })
        #expect(fcm.sends.first?.status == 404)
        let deadline = ContinuousClock.now + .seconds(15)
        var hasToken: Bool?
        repeat {
            let devices = alice.ok(Op.devicesList)["devices"]?.arrayValue ?? []
            hasToken = devices.compactMap(\.objectValue).first { $0["device"]?.stringValue == "device-1" }?["hasToken"]?.boolValue
            if hasToken == false { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        #expect(hasToken == false)
        #expect(try cluster.sql("SELECT count(*) FROM devices WHERE push_token IS NOT NULL") == ["0"])

        // Bob pings again from the other broker: it finds no token to push either.
        let laptop = try bob.addDevice("laptop", port: cluster.ports[0])
        #expect(laptop.request(Op.pingClear, ["contactId": .string(alice.id)])?.okFields != nil)
        #expect(laptop.request(Op.pingSend, ["contactId": .string(alice.id)])?.okFields != nil)
        #expect(try cluster.sql("SELECT count(*) FROM pushes") == ["1"])  // the first ping's only
        Thread.sleep(forTimeInterval: 0.5)
        #expect(fcm.sends.count == 1)
        #expect(fcm.problems.isEmpty)
    }
}
