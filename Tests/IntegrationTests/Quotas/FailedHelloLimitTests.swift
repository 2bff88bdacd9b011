import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--failed-hellos-per-second`: `hello`s with bad credentials per source address;
/// over it a `hello` is `rate_limited` and closed without being checked.
@Suite("Quota: failed hellos", .serialized)
struct FailedHelloLimitTests {
    @Test func afterTooManyBadHellosAnAddressIsRefusedWithoutACheck() throws {
        // One failure a hundred seconds: the first bad hello uses it up.
        let broker = try BrokerProcess(arguments: ["--failed-hellos-per-second", "0.01"])
        let setup = try RawConnection(port: broker.port)
        let alice = try #require(setup.register(name: "Alice"))
        let guesser = try RawConnection(port: broker.port)
        #expect(guesser.hello(Credential(userID: alice.userID, token: "wrong"))?.errorCode == .unauthenticated)

        // The right credentials from the same address are not even checked now.
        let device = try RawConnection(port: broker.port)
        #expect(device.hello(alice)?.errorCode == .rateLimited)
        #expect(device.waitForClose())
        // Another address is served.
        let elsewhere = try RawConnection(port: broker.port, source: "127.0.0.2")
        #expect(elsewhere.hello(alice)?.okFields != nil)
    }

    @Test func goodHellosDoNotCount() throws {
        let broker = try BrokerProcess(arguments: ["--failed-hellos-per-second", "0.01"])
        let (_, alice) = try RawConnection.authenticated(port: broker.port)
        for index in 0..<5 {
            let device = try RawConnection(port: broker.port)
            #expect(device.hello(alice, device: "device-\(index)")?.okFields != nil)
        }
    }
}
