import LifeSignalProtocol
import Testing

/// PROTOCOL §10: a user reads and changes only its own user, contacts, notifications and devices.
/// Each test tries an operation on someone else's data with real ids, expects the spec's error,
/// and then checks that nobody's state moved: every victim's snapshot (user, contacts,
/// notifications, unread count and seq) is exactly what it was before.
///
/// The cast: Alice is Bob's dependent (Bob is her responder); Carol is Bob's dependent too but
/// no contact of Alice; Mallory knows everyone's ids and has no contacts at all.
@Suite("Authorization: nobody acts on another user's data")
struct AuthorizationTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person
    let carol: Person
    let mallory: Person

    init() throws {
        broker = try BrokerProcess()
        alice = try Person("Alice", port: broker.port)
        bob = try Person("Bob", port: broker.port)
        carol = try Person("Carol", port: broker.port)
        mallory = try Person("Mallory", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        carol.add(bob, responder: true, dependent: false)
        for person in [alice, bob, carol, mallory] { _ = person.settle() }
    }

    /// Runs `attempt`, then checks that none of `victims` changed in any way.
    private func expectUnchanged(
        _ victims: [Person], sourceLocation: SourceLocation = #_sourceLocation, _ attempt: () throws -> Void
    ) throws {
        let before = try victims.map { try $0.observedSnapshot() }
        try attempt()
        let after = try victims.map { try $0.observedSnapshot() }
        for (victim, (old, new)) in zip(victims, zip(before, after)) {
            #expect(old == new, "\(victim.name)'s state changed", sourceLocation: sourceLocation)
        }
    }

    @Test func anotherUsersNotificationIsNotFound() throws {
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        let alicesPing = try #require(alice.ok(Op.notificationsList)["notifications"]?.arrayValue?.first?
            .objectValue?["id"]?.stringValue)
        try expectUnchanged([alice, bob]) {
            for intruder in [mallory, bob] {
                #expect(intruder.request(Op.notificationsRead, ["id": .string(alicesPing)])?.errorCode == .notFound)
                #expect(intruder.request(Op.notificationsDelete, ["id": .string(alicesPing)])?.errorCode == .notFound)
                #expect(intruder.request(Op.notificationsList, ["before": .string(alicesPing)])?.errorCode
                    == .notFound)
            }
        }
    }

    @Test(arguments: [Op.contactsRemove, Op.contactsSetRoles, Op.pingSend, Op.pingRespond, Op.pingClear])
    func aUserWhoIsNotYourContactIsNotFound(op: String) throws {
        func fields(_ contact: Person) -> JSONObject {
            ["contactId": .string(contact.id), "isResponder": true, "isDependent": true]
        }
        try expectUnchanged([alice, bob, carol]) {
            // A stranger, and a contact's contact: neither is on the caller's list.
            #expect(mallory.request(op, fields(bob))?.errorCode == .notFound)
            #expect(alice.request(op, fields(carol))?.errorCode == .notFound)
            #expect(carol.request(op, fields(alice))?.errorCode == .notFound)
        }
    }

    @Test func pingingAContactWhoIsNotYourDependentIsForbidden() throws {
        try expectUnchanged([alice, bob, carol]) {
            // Bob is Alice's responder, not her dependent.
            #expect(alice.request(Op.pingSend, ["contactId": .string(bob.id)])?.errorCode == .forbidden)
            #expect(carol.request(Op.pingSend, ["contactId": .string(bob.id)])?.errorCode == .forbidden)
        }
    }

    @Test func somebodyElsesPingCanBeNeitherAnsweredNorWithdrawn() throws {
        _ = bob.ok(Op.pingSend, ["contactId": .string(carol.id)])
        _ = carol.settle()
        try expectUnchanged([bob, carol]) {
            // Bob pinged Carol, not Alice: Alice has nothing to answer, and only Bob may withdraw.
            #expect(alice.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
            #expect(carol.request(Op.pingClear, ["contactId": .string(bob.id)])?.errorCode == .notFound)
            #expect(mallory.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
        }
    }

    @Test func aStaleQRCodeAddsNobody() throws {
        let oldCode = carol.qrCode
        carol.rotateQRCode()
        _ = carol.settle()
        try expectUnchanged([carol, mallory]) {
            #expect(mallory.request(Op.contactsAdd, [
                "qrCode": .string(oldCode), "isResponder": true, "isDependent": true,
            ])?.errorCode == .notFound)
        }
    }

    @Test func anotherUsersTokenDoesNotLetYouIn() throws {
        try expectUnchanged([alice]) {
            // Mallory's valid token with Alice's id, and Alice's id with a made-up token.
            for token in [mallory.credential.token, String(repeating: "A", count: alice.credential.token.count)] {
                let connection = try RawConnection(port: broker.port)
                let answer = connection.hello(Credential(userID: alice.id, token: token), device: "device-0")
                #expect(answer?.errorCode == .unauthenticated)
                #expect(connection.waitForClose())
            }
        }
        // Alice's own device was not replaced by the attempts.
        #expect(alice.request(Op.keepalive)?.okFields != nil)
    }

    @Test func aContactIdLongerThanAnyBrokerIdIsABadRequest() throws {
        let tooLong = String(repeating: "u", count: Validate.maxIDLength + 1)
        try expectUnchanged([alice, bob]) {
            for op in [Op.contactsRemove, Op.pingSend, Op.pingRespond, Op.pingClear] {
                #expect(alice.request(op, ["contactId": .string(tooLong)])?.errorCode == .badRequest)
            }
            #expect(alice.request(Op.notificationsRead, ["id": .string(tooLong)])?.errorCode == .badRequest)
        }
    }

    @Test func devicesListShowsOnlyYourOwnDevices() throws {
        _ = alice.ok(Op.deviceRegister, ["token": "alice-push-token"])
        let devices = mallory.ok(Op.devicesList)["devices"]?.arrayValue ?? []
        #expect(devices.count == 1)
        #expect(devices.first?.objectValue?["device"]?.stringValue == "device-0")
        #expect(devices.first?.objectValue?["hasToken"]?.boolValue == false)
    }
}
