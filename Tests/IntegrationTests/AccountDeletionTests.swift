import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §12, `account.delete`: answered `ok`, then every device of the user is told
/// `account_deleted` and closed (on a cluster, on every broker); every contact gets a `removed`
/// notification and `contact.removed`; the user's token and QR code stop working at once.
@Suite("account.delete: the account goes, every device is closed, every contact told", .serialized)
struct AccountDeletionTests: AliceAndBobSuite {
    /// Bob watches over Alice, who has two devices (on a cluster, on two brokers).
    let cast: AliceAndBob

    init() throws {
        cast = try AliceAndBob()
    }

    @Test func onlyTheCurrentNameConfirmsIt() throws {
        #expect(alice.request(Op.accountDelete, ["confirm": "alice"])?.errorCode == .badRequest)
        #expect(alice.request(Op.accountDelete, [:])?.errorCode == .badRequest)
        #expect(alice.request(Op.accountDelete, ["confirm": 1])?.errorCode == .badRequest)
        // A resend under an opId is not answered from a kept refusal: the right name still works.
        #expect(alice.request(Op.accountDelete, ["confirm": "Al", "opId": "delete-1"])?.errorCode == .badRequest)
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 1)
        _ = alice.ok(Op.profileUpdate, ["name": "Alice B"])
        #expect(alice.request(Op.accountDelete, ["confirm": "Alice"])?.errorCode == .badRequest)
        #expect(alice.request(Op.accountDelete, ["confirm": "Alice B", "opId": "delete-1"])?.okFields != nil)
    }

    @Test func everyDeviceIsClosedAndEveryContactTold() throws {
        // A ping from Bob is pending: it goes with the relationship.
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = alice.settle()
        _ = bob.settle()

        #expect(alice.request(Op.accountDelete, ["confirm": "Alice"])?.okFields != nil)
        for device in alice.devices {
            var told = false
            while let message = device.next() {
                if message.errorCode == .accountDeleted { told = true }
            }
            #expect(told, "each device is told why it is closed")
            #expect(device.isClosed)
        }

        let events = bob.settle()[0]
        let removed = events.notifications.filter { $0["type"]?.stringValue == "removed" }
        #expect(removed.count == 1, "\(events)")
        #expect(removed.first?["message"]?.stringValue == "Alice deleted their account.")
        #expect(removed.first?["title"]?.stringValue == "Contact Removed")
        #expect(events.named(EventName.contactRemoved).count == 1, "\(events)")
        #expect(bob.ok(Op.contactsList)["contacts"]?.arrayValue?.isEmpty == true)

        // Her credential and QR code stop working at once, on any broker.
        for _ in 0..<2 {
            let again = try RawConnection(port: broker.port)
            #expect(again.hello(alice.credential, device: "device-0")?.errorCode == .unauthenticated)
        }
        #expect(bob.request(Op.qrLookup, ["qrCode": .string(alice.qrCode)])?.errorCode == .notFound)
        #expect(bob.request(Op.pingSend, ["contactId": .string(alice.id)])?.errorCode == .notFound)
    }

    /// Bob's side goes, and Bob's account is untouched: his next contact is added as before.
    @Test func theContactsAccountCarriesOn() throws {
        #expect(alice.request(Op.accountDelete, ["confirm": "Alice"])?.okFields != nil)
        _ = bob.settle()
        let carol = try Person("Carol", port: broker.port)
        carol.add(bob, responder: true, dependent: false)
        #expect(bob.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 1)
        _ = bob.ok(Op.checkIn)
    }

    /// `lsclient account delete`: the contact sees the account go; the profile is gone from this
    /// machine, and a wrong name deletes nothing.
    @Test func lsclientDeletesTheAccountAndForgetsItsProfile() throws {
        let cli = try LSClient(broker: broker, registering: ["Carol", "Dan"])
        #expect(try cli.run(["--profile", "dan", "contacts", "add", try cli.qrCode(of: "carol"), "--dependent"]).status == 0)

        let wrong = try cli.run(["--profile", "carol", "account", "delete", "--confirm", "carol"])
        #expect(wrong.status != 0 && wrong.stderr.contains("confirm"), "\(wrong.stderr)")

        let deleted = try cli.run(["--profile", "carol", "account", "delete", "--confirm", "Carol"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.hasPrefix("deleted the account of Carol (u_"), "\(deleted.stdout)")
        let again = try cli.run(["--profile", "carol", "contacts"])
        #expect(again.status != 0 && again.stderr.contains("no profile 'carol'"), "\(again.stderr)")

        let notifications = try cli.run(["--profile", "dan", "notifications"])
        #expect(notifications.stdout.contains("Carol deleted their account."), "\(notifications.stdout)")
        #expect(try cli.run(["--profile", "dan", "contacts"]).stdout.contains("no contacts"))
    }
}
