import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--max-contacts`: a `contacts.add` when either side has that many contacts is
/// `limit_exceeded`, changes nothing and leaves the connection open.
@Suite("Quota: contacts", .serialized)
struct ContactQuotaTests {
    @Test func aUserWithMaxContactsCanNeitherAddNorBeAdded() throws {
        let broker = try BrokerProcess(arguments: ["--max-contacts", "2"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        let carol = try Person("Carol", port: broker.port)
        let dave = try Person("Dave", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        alice.add(carol, responder: true, dependent: false)
        _ = alice.settle()
        _ = dave.settle()

        // Alice is full: she cannot add Dave, and Dave cannot add her.
        #expect(alice.tryToAdd(dave)?.errorCode == .limitExceeded)
        #expect(dave.tryToAdd(alice)?.errorCode == .limitExceeded)
        // Nothing changed, nobody heard of it, and both are still connected.
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 2)
        #expect(dave.ok(Op.contactsList)["contacts"]?.arrayValue?.isEmpty == true)
        #expect(alice.settle().allSatisfy { $0.isEmpty })
        #expect(dave.settle().allSatisfy { $0.isEmpty })

        // Room again once she removes one.
        _ = alice.ok(Op.contactsRemove, ["contactId": .string(carol.id)])
        dave.add(alice, responder: false, dependent: true)
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 2)
    }

    @Test func zeroTurnsTheQuotaOffAndTheEnvironmentSetsIt() throws {
        let off = try BrokerProcess(arguments: ["--max-contacts", "0"])
        let alice = try Person("Alice", port: off.port)
        for index in 0..<3 { alice.add(try Person("Contact \(index)", port: off.port), responder: true, dependent: false) }
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 3)

        let one = try BrokerProcess(environment: ["LSBROKER_MAX_CONTACTS": "1"])
        let bob = try Person("Bob", port: one.port)
        bob.add(try Person("Carol", port: one.port), responder: true, dependent: false)
        let dave = try Person("Dave", port: one.port)
        #expect(bob.tryToAdd(dave)?.errorCode == .limitExceeded)
    }
}
