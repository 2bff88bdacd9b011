import LifeSignalProtocol
import Testing

/// PROTOCOL.md §5, the ping, check-in and alert rows.
@Suite("Pings, check-ins and alerts", .serialized)
struct PingAndSafetyRulesTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        let cast = try AliceAndBob()
        (broker, alice, bob) = (cast.broker, cast.alice, cast.bob)
    }

    @Test func aResponderPingsTheirDependentAndEveryDeviceSeesIt() throws {
        let pingID = try #require(bob.ok(Op.pingSend, ["contactId": .string(alice.id)])["pingId"]?.stringValue)
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?.int(at: "outgoingPingAt") != nil)
        #expect(bobEvents.notifications.isEmpty)
        for events in alice.settle() {
            #expect(events.named(EventName.contactUpdated).first?.contact?.int(at: "incomingPingAt") != nil)
            let note = try #require(events.notifications.first)
            #expect(note.string(at: "type") == "ping")
            #expect(note.string(at: "title") == "Ping")
            #expect(note.string(at: "message") == "Bob pinged you.")
            #expect(note.string(at: "relatedPingID") == pingID)
            #expect(note.string(at: "contactData", "action") == "ping")
            #expect(note.string(at: "contactData", "role") == "responder")
        }
    }

    @Test func pingingSomeoneWhoIsNotYourDependentIsForbidden() throws {
        #expect(alice.request(Op.pingSend, ["contactId": .string(bob.id)])?.errorCode == .forbidden)
        #expect(alice.request(Op.pingSend, ["contactId": "u_stranger"])?.errorCode == .notFound)
        #expect(alice.phone.settle().isEmpty)
        #expect(bob.phone.settle().isEmpty)
    }

    @Test func respondingClearsThePingAndTellsThePinger() throws {
        let pingID = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])["pingId"]?.stringValue
        _ = alice.settle()
        _ = bob.settle()
        #expect(alice.ok(Op.pingRespond, ["contactId": .string(bob.id)]).isEmpty)
        for events in alice.settle() {
            #expect(events.named(EventName.contactUpdated).first?.contact?["incomingPingAt"] == .null)
            #expect(events.notifications.isEmpty)
        }
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?["outgoingPingAt"] == .null)
        let note = try #require(bobEvents.notifications.first)
        #expect(note.string(at: "type") == "pingResponse")
        #expect(note.string(at: "title") == "Ping Response")
        #expect(note.string(at: "message") == "Alice responded to your ping.")
        #expect(note.string(at: "relatedPingID") == pingID)
        #expect(note.string(at: "contactData", "action") == "pingResponded")
        #expect(note.string(at: "contactData", "role") == "dependent")
        // Nothing is pending any more.
        #expect(alice.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
    }

    @Test func clearingWithdrawsThePingWithoutANotification() throws {
        #expect(bob.request(Op.pingClear, ["contactId": .string(alice.id)])?.errorCode == .notFound)
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = alice.settle()
        _ = bob.settle()
        #expect(bob.ok(Op.pingClear, ["contactId": .string(alice.id)]).isEmpty)
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?["outgoingPingAt"] == .null)
        #expect(bobEvents.notifications.isEmpty)
        for events in alice.settle() {
            #expect(events.named(EventName.contactUpdated).first?.contact?["incomingPingAt"] == .null)
            #expect(events.notifications.isEmpty)
        }
        #expect(alice.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
    }

    @Test func aRoleChangeThatEndsTheResponderClearsTheirPendingPing() throws {
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = bob.settle()
        _ = alice.ok(Op.contactsSetRoles, ["contactId": .string(bob.id), "isResponder": false, "isDependent": false])
        let aliceView = alice.phone.settle().named(EventName.contactUpdated).last?.contact
        #expect(aliceView?["incomingPingAt"] == .null)
        let bobView = bob.phone.settle().named(EventName.contactUpdated).last?.contact
        #expect(bobView?["outgoingPingAt"] == .null)
        #expect(bob.request(Op.pingSend, ["contactId": .string(alice.id)])?.errorCode == .forbidden)
        #expect(alice.request(Op.pingRespond, ["contactId": .string(bob.id)])?.errorCode == .notFound)
    }

    @Test func aCheckInMovesTheDeadlineAndReachesResponders() throws {
        let interval: Int64 = 3_600
        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": .int(interval)])
        _ = alice.settle()
        _ = bob.settle()
        let user = try #require(alice.ok(Op.checkIn)["user"]?.objectValue)
        let at = try #require(user.int(at: "lastCheckInAt"))
        #expect(user.int(at: "checkInDeadline") == at + interval * 1000)
        #expect(user.bool(at: "isNonResponsive") == false)
        for events in alice.settle() {
            #expect(events.named(EventName.userUpdated).first?.data.int(at: "user", "lastCheckInAt") == at)
        }
        let bobEvents = bob.phone.settle()
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?.int(at: "lastCheckInAt") == at)
        #expect(bobEvents.named(EventName.contactUpdated).first?.contact?.int(at: "checkInDeadline") == at + interval * 1000)
        // Not non-responsive before, so no "all clear".
        #expect(bobEvents.notifications.isEmpty)

        // A new interval moves the deadline, counted from the last check-in.
        let moved = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 7_200])["user"]?.objectValue
        #expect(moved?.int(at: "checkInDeadline") == at + 7_200_000)
    }

    @Test func anAlertReachesEveryResponderOnceAndCancels() throws {
        let carol = try Person("Carol", port: broker.port)
        alice.add(carol, responder: true, dependent: false)
        _ = alice.settle()
        _ = carol.settle()

        #expect(alice.request(Op.alertTrigger, ["message": .string(String(repeating: "x", count: 501))])?
            .errorCode == .badRequest)
        let alertID = try #require(alice.ok(Op.alertTrigger, ["message": "fell down"])["alertId"]?.stringValue)
        #expect(alice.ok(Op.alertTrigger)["alertId"]?.stringValue == alertID)  // the active one
        for events in alice.settle() {
            let users = events.named(EventName.userUpdated)
            #expect(users.count == 1)
            #expect(users.first?.data.string(at: "user", "alert", "id") == alertID)
            #expect(users.first?.data.string(at: "user", "alert", "message") == "fell down")
        }
        for responder in [bob, carol] {
            let events = responder.phone.settle()
            #expect(events.named(EventName.contactUpdated).first?.contact?.bool(at: "hasActiveAlert") == true)
            #expect(events.notifications.count == 1)
            let note = try #require(events.notifications.first)
            #expect(note.string(at: "type") == "alert")
            #expect(note.string(at: "title") == "Emergency Alert")
            #expect(note.string(at: "message") == "Alice triggered an emergency alert.")
            #expect(note.string(at: "relatedAlertID") == alertID)
            #expect(note.string(at: "contactData", "action") == "alert")
        }

        #expect(alice.ok(Op.alertCancel).isEmpty)
        let cancelled = alice.phone.settle().named(EventName.userUpdated).first?.data["user"]?.objectValue
        #expect(cancelled?["alert"] == JSONValue.null)
        for responder in [bob, carol] {
            let events = responder.phone.settle()
            #expect(events.named(EventName.contactUpdated).first?.contact?.bool(at: "hasActiveAlert") == false)
            let note = try #require(events.notifications.first)
            #expect(note.string(at: "type") == "alertCancelled")
            #expect(note.string(at: "title") == "Alert Cancelled")
            #expect(note.string(at: "message") == "Alice cancelled their alert.")
            #expect(note.string(at: "contactData", "action") == "alertCancelled")
        }
        #expect(alice.request(Op.alertCancel)?.errorCode == .notFound)
    }

    @Test func anAlertWithoutRespondersTellsNobodyElse() throws {
        let loner = try Person("Loner", port: broker.port)
        #expect(loner.ok(Op.alertTrigger)["alertId"]?.stringValue != nil)
        #expect(bob.phone.settle().isEmpty)
    }
}
