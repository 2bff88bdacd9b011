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

    /// §12: an unknown link code is a failed hello too; over the limit a `signin` is refused
    /// unchecked, as a `hello` is.
    @Test func aGuessedLinkCodeCountsAsAFailedHello() throws {
        let broker = try BrokerProcess(arguments: ["--failed-hellos-per-second", "0.01"])
        // Alice's phone is elsewhere: only the guesser's address uses up the limit.
        let alice = try RawConnection(port: broker.port, source: "127.0.0.2")
        let credential = try #require(alice.register(name: "Alice"))
        #expect(alice.hello(credential)?.okFields != nil)
        let code = try #require(alice.request(Op.deviceLink)?.okFields?["code"]?.stringValue)
        let guesser = try RawConnection(port: broker.port)
        #expect(guesser.request(Op.signin, ["code": "ZZZZ2222", "device": "tablet"])?.errorCode == .unauthenticated)

        let device = try RawConnection(port: broker.port)
        #expect(device.hello(credential)?.errorCode == .rateLimited)
        let signin = try RawConnection(port: broker.port)
        #expect(signin.request(Op.signin, ["code": .string(code), "device": "tablet"])?.errorCode == .rateLimited)
        #expect(signin.waitForClose())
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
