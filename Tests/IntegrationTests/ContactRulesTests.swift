import LifeSignalProtocol
import Testing

/// PROTOCOL.md §5, the contact rows: results, the events on both users' devices with the
/// exact texts, and every error the table names.
@Suite("Contacts: add, remove, set roles, list", .serialized)
struct ContactRulesTests {
    let broker: BrokerProcess
    init() throws { broker = try BrokerProcess() }

    @Test func addingByQRCodeCreatesBothSidesAndTellsBoth() throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        let result = alice.ok(Op.contactsAdd, ["qrCode": .string(bob.qrCode), "isResponder": true, "isDependent": false])
        let contact = try #require(result["contact"]?.objectValue)
        #expect(contact.string(at: "id") == bob.id)
        #expect(contact.string(at: "name") == "Bob")
        #expect(contact.string(at: "role") == "responder")
        #expect(contact.bool(at: "isResponder") == true && contact.bool(at: "isDependent") == false)

        for events in alice.settle() {
            #expect(events.named(EventName.contactUpdated).first?.contact?.string(at: "role") == "responder")
            let note = try #require(events.notifications.first)
            #expect(note.string(at: "type") == "added")
            #expect(note.string(at: "title") == "Contact Added")
            #expect(note.string(at: "message") == "You added Bob.")
            #expect(note.string(at: "relatedContactID") == bob.id)
            #expect(note.bool(at: "isRead") == false)
            #expect(note.string(at: "contactData", "id") == bob.id)
            #expect(note.string(at: "contactData", "name") == "Bob")
            #expect(note.string(at: "contactData", "role") == "responder")
            #expect(note.string(at: "contactData", "action") == "added")
        }
        let bobEvents = bob.phone.settle()
        let aliceSeenByBob = try #require(bobEvents.named(EventName.contactUpdated).first?.contact)
        #expect(aliceSeenByBob.string(at: "id") == alice.id)
        #expect(aliceSeenByBob.string(at: "role") == "dependent")
        #expect(aliceSeenByBob.bool(at: "isDependent") == true && aliceSeenByBob.bool(at: "isResponder") == false)
        let bobNote = try #require(bobEvents.notifications.first)
        #expect(bobNote.string(at: "title") == "Contact Added")
        #expect(bobNote.string(at: "message") == "Alice added you.")
        #expect(bobNote.string(at: "contactData", "role") == "dependent")
        #expect(bobNote.string(at: "contactData", "action") == "added")
        // Both devices of Alice saw the same seqs.
        let aliceSeqs = alice.settle()
        #expect(aliceSeqs[0].isEmpty && aliceSeqs[1].isEmpty)
    }

    @Test func addingRefusesOwnUnknownRotatedAndExistingCodes() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        let fields = { (code: String) -> JSONObject in ["qrCode": .string(code), "isResponder": true, "isDependent": false] }
        #expect(alice.request(Op.contactsAdd, fields(alice.qrCode))?.errorCode == .badRequest)
        #expect(alice.request(Op.contactsAdd, fields("NOSUCHCODE22"))?.errorCode == .notFound)
        #expect(alice.request(Op.contactsAdd, ["qrCode": .string(bob.qrCode), "isResponder": "yes", "isDependent": false])?
            .errorCode == .badRequest)
        #expect(alice.request(Op.contactsAdd, ["qrCode": .string(bob.qrCode)])?.errorCode == .badRequest)
        let oldCode = bob.qrCode
        bob.rotateQRCode()
        #expect(alice.request(Op.contactsAdd, fields(oldCode))?.errorCode == .notFound)
        #expect(alice.request(Op.contactsAdd, fields(bob.qrCode))?.okFields != nil)
        #expect(alice.request(Op.contactsAdd, fields(bob.qrCode))?.errorCode == .conflict)
        #expect(bob.request(Op.contactsAdd, fields(alice.qrCode))?.errorCode == .conflict)
        // Failed requests changed nothing: one contact each.
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 1)
        #expect(bob.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 1)
    }

    /// v1.2 `qr.lookup`: whose code it is, without adding anyone; the same refusals as an add.
    @Test func lookingUpACodeShowsItsOwnerAndChangesNothing() throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        let found = alice.ok(Op.qrLookup, ["qrCode": .string(bob.qrCode)])
        #expect(found.string(at: "contact", "id") == bob.id && found.string(at: "contact", "name") == "Bob")
        #expect(found.count == 1 && found["contact"]?.objectValue?.count == 2)
        // Nobody was told anything, and nobody was added.
        #expect(alice.settle().allSatisfy { $0.isEmpty })
        #expect(bob.settle().allSatisfy { $0.isEmpty })
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.isEmpty == true)

        // The owner as they are now: a new name shows, a rotated code is nobody's.
        _ = bob.ok(Op.profileUpdate, ["name": "Robert"])
        #expect(alice.ok(Op.qrLookup, ["qrCode": .string(bob.qrCode)]).string(at: "contact", "name") == "Robert")
        let oldCode = bob.qrCode
        bob.rotateQRCode()
        #expect(alice.request(Op.qrLookup, ["qrCode": .string(oldCode)])?.errorCode == .notFound)
        #expect(alice.request(Op.qrLookup, ["qrCode": .string(alice.qrCode)])?.errorCode == .badRequest)
        #expect(alice.request(Op.qrLookup, ["qrCode": "NOSUCHCODE22"])?.errorCode == .notFound)
        #expect(alice.request(Op.qrLookup, [:])?.errorCode == .badRequest)
        #expect(alice.request(Op.qrLookup, ["qrCode": 12])?.errorCode == .badRequest)
    }

    @Test func removingDeletesBothSidesAndTellsBoth() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = alice.settle()
        _ = bob.settle()

        #expect(alice.ok(Op.contactsRemove, ["contactId": .string(bob.id)]).isEmpty)
        let aliceEvents = alice.phone.settle()
        #expect(aliceEvents.named(EventName.contactRemoved).first?.data.string(at: "contactId") == bob.id)
        let aliceNote = try #require(aliceEvents.notifications.first)
        #expect(aliceNote.string(at: "type") == "removed")
        #expect(aliceNote.string(at: "title") == "Contact Removed")
        #expect(aliceNote.string(at: "message") == "You removed Bob.")
        #expect(aliceNote.string(at: "contactData", "role") == "none")
        #expect(aliceNote.string(at: "contactData", "action") == "removed")
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactRemoved).first?.data.string(at: "contactId") == alice.id)
        #expect(bobEvents.notifications.first?.string(at: "message") == "Alice removed you.")

        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.isEmpty == true)
        #expect(bob.ok(Op.contactsList)["contacts"]?.arrayValue?.isEmpty == true)
        // The pending ping went with the relationship.
        #expect(alice.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
        #expect(alice.request(Op.contactsRemove, ["contactId": .string(bob.id)])?.errorCode == .notFound)
        #expect(alice.request(Op.contactsRemove, [:])?.errorCode == .badRequest)
    }

    @Test(arguments: [
        (true, true, "responder and dependent", "both", "both"),
        (false, true, "dependent", "dependent", "responder"),
        (false, false, "no role", "none", "none"),
    ])
    func settingRolesChangesBothSidesWithTheTexts(
        responder: Bool, dependent: Bool, phrase: String, aliceRole: String, bobRole: String
    ) throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.settle()
        _ = bob.settle()

        let result = alice.ok(Op.contactsSetRoles, [
            "contactId": .string(bob.id), "isResponder": .bool(responder), "isDependent": .bool(dependent),
        ])
        #expect(result["contact"]?.objectValue?.string(at: "role") == aliceRole)
        let aliceEvents = alice.phone.settle()
        #expect(aliceEvents.named(EventName.contactUpdated).first?.contact?.string(at: "role") == aliceRole)
        let aliceNote = try #require(aliceEvents.notifications.first)
        #expect(aliceNote.string(at: "type") == "role")
        #expect(aliceNote.string(at: "title") == "Role Changed")
        #expect(aliceNote.string(at: "message") == "You changed Bob's role to \(phrase).")
        #expect(aliceNote.string(at: "contactData", "role") == aliceRole)
        #expect(aliceNote.string(at: "contactData", "action") == "roleChanged")
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?.string(at: "role") == bobRole)
        #expect(bobEvents.notifications.first?.string(at: "message") == "Alice changed your role to \(phrase).")
        #expect(bobEvents.notifications.first?.string(at: "contactData", "role") == bobRole)
        // Reciprocity.
        let bobView = bob.ok(Op.contactsList)["contacts"]?.arrayValue?.first?.objectValue
        #expect(bobView?.bool(at: "isResponder") == dependent)
        #expect(bobView?.bool(at: "isDependent") == responder)
    }

    @Test func unchangedRolesHaveNoEffect() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.settle()
        _ = bob.settle()
        let result = alice.ok(Op.contactsSetRoles, ["contactId": .string(bob.id), "isResponder": true, "isDependent": false])
        #expect(result["contact"]?.objectValue?.string(at: "role") == "responder")
        #expect(alice.phone.settle().isEmpty)
        #expect(bob.phone.settle().isEmpty)
        #expect(alice.request(Op.contactsSetRoles, ["contactId": "u_nobody", "isResponder": true, "isDependent": false])?
            .errorCode == .notFound)
        #expect(alice.request(Op.contactsSetRoles, ["contactId": .string(bob.id), "isResponder": true])?
            .errorCode == .badRequest)
    }

    @Test func listingShowsCheckInAndAlertOnlyForDependents() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)  // Bob watches over Alice
        _ = alice.ok(Op.checkIn)
        _ = alice.ok(Op.alertTrigger, ["message": "help"])
        _ = bob.ok(Op.checkIn)

        let bobSeesAlice = try #require(bob.ok(Op.contactsList)["contacts"]?.arrayValue?.first?.objectValue)
        #expect(bobSeesAlice.int(at: "lastCheckInAt") != nil)
        #expect(bobSeesAlice.int(at: "checkInDeadline") != nil)
        #expect(bobSeesAlice.bool(at: "hasActiveAlert") == true)
        let aliceSeesBob = try #require(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.first?.objectValue)
        #expect(aliceSeesBob.keys.contains("lastCheckInAt"))
        #expect(aliceSeesBob["lastCheckInAt"] == .null)
        #expect(aliceSeesBob["checkInDeadline"] == .null)
        #expect(aliceSeesBob.bool(at: "hasActiveAlert") == false)
        #expect(aliceSeesBob.bool(at: "isNonResponsive") == false)
    }

    @Test func aProfileChangeReachesEveryContact() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        let carol = try Person("Carol", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        alice.add(carol, responder: false, dependent: true)
        _ = bob.settle()
        _ = carol.settle()
        _ = alice.ok(Op.profileUpdate, ["name": "Alice Smith"])
        #expect(bob.phone.settle().named(EventName.contactUpdated).first?.contact?.string(at: "name") == "Alice Smith")
        #expect(carol.phone.settle().named(EventName.contactUpdated).first?.contact?.string(at: "name") == "Alice Smith")
        let aliceEvents = alice.phone.settle()
        #expect(aliceEvents.named(EventName.userUpdated).count == 1)
    }
}
