import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--failed-adds-per-minute`: `contacts.add`s with an unknown QR code, per user;
/// over it every `contacts.add` of the user is `rate_limited` and not run.
@Suite("Quota: failed adds", .serialized)
struct FailedAddLimitTests {
    @Test func afterTooManyUnknownQRCodesAUsersAddsAreRateLimitedAndNotRun() throws {
        let broker = try BrokerProcess(arguments: ["--failed-adds-per-minute", "3"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        let guess: JSONObject = ["qrCode": "ZZZZZZZZZZZZ", "isResponder": true, "isDependent": false]
        for _ in 0..<3 { #expect(alice.request(Op.contactsAdd, guess)?.errorCode == .notFound) }

        // Now even a real code is refused, and not run: Bob hears nothing.
        #expect(alice.tryToAdd(bob)?.errorCode == .rateLimited)
        #expect(!alice.phone.isClosed)
        #expect(bob.settle().allSatisfy { $0.isEmpty })
        // Per user: another device of Alice's is refused too; Bob is not.
        let tablet = try alice.addDevice("tablet")
        #expect(tablet.request(Op.contactsAdd, guess)?.errorCode == .rateLimited)
        bob.add(alice, responder: true, dependent: false)
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 1)
    }

    /// v1.2: an unknown code in `qr.lookup` counts like one in `contacts.add`, and past the quota
    /// both are refused.
    @Test func unknownLookupsCountAsFailedAddsAndAreLimitedWithThem() throws {
        let broker = try BrokerProcess(arguments: ["--failed-adds-per-minute", "3"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        let guess: JSONObject = ["qrCode": "ZZZZZZZZZZZZ"]
        // A known code and one's own do not count.
        for _ in 0..<3 { #expect(alice.request(Op.qrLookup, ["qrCode": .string(bob.qrCode)])?.okFields != nil) }
        #expect(alice.request(Op.qrLookup, ["qrCode": .string(alice.qrCode)])?.errorCode == .badRequest)
        for _ in 0..<2 { #expect(alice.request(Op.qrLookup, guess)?.errorCode == .notFound) }
        #expect(alice.request(Op.contactsAdd, ["qrCode": "ZZZZZZZZZZZZ", "isResponder": true, "isDependent": false])?
            .errorCode == .notFound)

        #expect(alice.request(Op.qrLookup, ["qrCode": .string(bob.qrCode)])?.errorCode == .rateLimited)
        #expect(alice.tryToAdd(bob)?.errorCode == .rateLimited)
        #expect(bob.request(Op.qrLookup, ["qrCode": .string(alice.qrCode)])?.okFields != nil)
    }
}
