import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--max-connections-per-address`: a connection from an address that already has
/// that many open is answered `overloaded` and closed; other addresses are not affected.
@Suite("Quota: connections per address", .serialized)
struct AddressConnectionLimitTests {
    @Test func anAddressWithTheMostConnectionsIsRefusedAndOthersAreNot() throws {
        let broker = try BrokerProcess(arguments: ["--max-connections-per-address", "3"])
        let devices = try (0..<3).map { try RawConnection.authenticated(port: broker.port, name: "User \($0)").0 }
        let refused = try RawConnection(port: broker.port)
        #expect(refused.next()?.errorCode == .overloaded)
        #expect(refused.waitForClose())
        for device in devices { #expect(device.request(Op.keepalive)?.okFields != nil) }

        let elsewhere = try RawConnection(port: broker.port, source: "127.0.0.2")
        #expect(elsewhere.register(name: "Elsewhere") != nil)
        // A place that frees up is taken again.
        _ = devices[0].request(Op.bye)
        #expect(devices[0].waitForClose())
        // The broker frees the place once it has seen the close, which may come after ours.
        var registered = false
        for _ in 0..<100 where !registered {
            registered = try RawConnection(port: broker.port).register(name: "Next") != nil
            if !registered { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(registered)
    }
}
