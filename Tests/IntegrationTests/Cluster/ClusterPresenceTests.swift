import Foundation
import LifeSignalProtocol
import Testing

/// Presence reconciled after an outage (issue 24): a device that went away while PostgreSQL was
/// down left its row saying it is online on this broker, so nothing was pushed to it. Once
/// PostgreSQL is back the broker rewrites its rows from the devices it really holds, and the device
/// is pushed what it missed. A server of its own, since it is stopped.
@Suite("Cluster: presence after an outage", .serialized)
struct ClusterPresenceTests {
    @Test func aDeviceThatLeftDuringAnOutageIsPushedOnceItIsBack() throws {
        let server = try ThrowawayPostgres()
        let broker = try BrokerProcess(arguments: [
            "--postgres", server.url, "--broker-id", "presence", "--metrics-port", "0", "--postgres-timeout", "1",
        ])
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        bob.add(alice, responder: false, dependent: true)
        #expect(alice.devices[1].request(Op.deviceRegister, ["token": "fcm-alice-phone", "platform": "ios"])?
            .okFields != nil)

        try server.stop()
        alice.devices[1].hangUp()
        // The broker saw her phone go, and its attempt to say so in PostgreSQL failed.
        #expect(broker.output?.waitForLine(timeout: .seconds(60)) { $0.contains("a device went offline unrecorded") }
            != nil)
        try server.start()

        #expect(eventually(timeout: .seconds(60)) {
            bob.request(Op.pingSend, ["contactId": .string(alice.id)])?.okFields != nil
        })
        #expect(eventually(timeout: .seconds(60)) {
            let pushed = try? server.psql("SELECT count(*) FROM pushes WHERE token = 'fcm-alice-phone'")
            return (pushed?.first.flatMap { Int($0) } ?? 0) > 0
        }, "the phone that left during the outage was never pushed the ping")
        #expect(try server.psql("SELECT count(*) FROM presence WHERE device_id = 'device-1'") == ["0"])
    }
}
