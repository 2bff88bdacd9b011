import Foundation
import LifeSignalProtocol
import Testing

/// A responder always sees the dependent's current check-in and alert (§4: derived, never a copy
/// that drifts), an alert's message reaches the people who must act on it (v1.1), and a new
/// interval never makes a user non-responsive at once (§5).
@Suite("Safety views", .serialized)
struct SafetyViewTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        let cast = try AliceAndBob()
        (broker, alice, bob) = (cast.broker, cast.alice, cast.bob)
    }

    private func setBobsRole(responder: Bool) {
        _ = alice.ok(Op.contactsSetRoles, ["contactId": .string(bob.id), "isResponder": .bool(responder),
                                           "isDependent": false])
    }

    /// Bob's view of Alice, as his online phone holds it and as a new device of his is sent it.
    private func bobsViews() throws -> (live: JSONObject?, snapshot: JSONObject?) {
        let live = bob.phone.settle().named(EventName.contactUpdated).last?.contact
        let tablet = try RawConnection(port: broker.port)
        _ = tablet.hello(bob.credential, device: "tablet")
        guard case .snapshot(let snapshot)? = tablet.next() else { return (live, nil) }
        let view = snapshot.contacts.first { $0.id == alice.id }
        return (live, view?.json.objectValue)
    }

    @Test func aResponderGivenTheRoleBackSeesTheCheckInMadeWithoutIt() throws {
        setBobsRole(responder: false)
        let user = try #require(alice.ok(Op.checkIn)["user"]?.objectValue)
        _ = bob.settle()
        setBobsRole(responder: true)
        let (live, snapshot) = try bobsViews()
        for view in [live, snapshot] {
            #expect(view?.int(at: "lastCheckInAt") == user.int(at: "lastCheckInAt"))
            #expect(view?.int(at: "checkInDeadline") == user.int(at: "checkInDeadline"))
        }
    }

    @Test func aResponderGivenTheRoleBackSeesTheAlertRaisedWithoutIt() throws {
        setBobsRole(responder: false)
        let alertID = try #require(alice.ok(Op.alertTrigger, ["message": "fell on the stairs"])["alertId"]?.stringValue)
        _ = bob.settle()
        setBobsRole(responder: true)
        let (live, snapshot) = try bobsViews()
        for view in [live, snapshot] {
            #expect(view?.bool(at: "hasActiveAlert") == true)
            #expect(view?.string(at: "alert", "id") == alertID)
            #expect(view?.string(at: "alert", "message") == "fell on the stairs")
        }
    }

    /// The deadline passes while Dan has no role: he is not told (§5), but once he is Carol's
    /// responder again every view he is given shows her as she is, non-responsive, with her current
    /// deadline: the event of the role change, `contacts.list`, a new device's snapshot, and the same
    /// from the store after a restart.
    @Test func aResponderGivenTheRoleBackSeesTheMissedCheckInMadeWithoutIt() throws {
        let shortIntervals = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let carol = try Person("Carol", port: shortIntervals.port)
        let dan = try Person("Dan", port: shortIntervals.port)
        carol.add(dan, responder: true, dependent: false)
        func setDansRole(responder: Bool) {
            _ = carol.ok(Op.contactsSetRoles, ["contactId": .string(dan.id), "isResponder": .bool(responder),
                                               "isDependent": false])
        }
        setDansRole(responder: false)
        _ = carol.ok(Op.profileUpdate, ["checkInIntervalSec": 1])
        let checkedIn = try #require(carol.ok(Op.checkIn)["user"]?.objectValue)
        #expect(checkedIn.bool(at: "isNonResponsive") == false)

        // Her own document, polled (an empty profile.update changes nothing and answers with it),
        // until the broker has fired the missed deadline. Bounded: a deadline that never fires fails.
        var missed: JSONObject?
        let pollUntil = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < pollUntil {
            let user = carol.ok(Op.profileUpdate)["user"]?.objectValue
            if user?.bool(at: "isNonResponsive") == true { missed = user; break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let current = try #require(missed, "Carol's missed check-in never fired")
        let deadline = try #require(current.int(at: "checkInDeadline"))
        #expect(current.int(at: "lastCheckInAt") == checkedIn.int(at: "lastCheckInAt"))
        _ = dan.settle()

        setDansRole(responder: true)
        // Dan's view of Carol as `contacts.list` gives it and as a new device's snapshot has it.
        func dansViews(device: String) throws -> [(source: String, view: JSONObject?)] {
            let connection = try RawConnection(port: shortIntervals.port)
            defer { _ = connection.request(Op.bye) }
            guard connection.hello(dan.credential, device: device)?.okFields != nil,
                  case .snapshot(let snapshot)? = connection.next()
            else { throw RawConnection.SetupFailed() }
            let listed = connection.request(Op.contactsList)?.okFields?["contacts"]?.arrayValue?
                .compactMap(\.objectValue).first { $0.string(at: "id") == carol.id }
            return [("contacts.list", listed),
                    ("snapshot", snapshot.contacts.first { $0.id == carol.id }?.json.objectValue)]
        }
        let live = dan.phone.settle().named(EventName.contactUpdated).last?.contact
        let views = try [("contact.updated", live)] + dansViews(device: "tablet")
        try shortIntervals.restart()
        let afterRestart = try dansViews(device: "laptop").map { ("\($0.source) after a restart", $0.view) }
        // Her own document is still the one the views must show.
        let carolAfterRestart = try carol.observedSnapshot().user
        #expect(carolAfterRestart.isNonResponsive && carolAfterRestart.checkInDeadline == deadline)
        for (source, view) in views + afterRestart {
            #expect(view?.bool(at: "isDependent") == true, "\(source)")
            #expect(view?.bool(at: "isNonResponsive") == true, "\(source)")
            #expect(view?.int(at: "checkInDeadline") == deadline, "\(source)")
            #expect(view?.int(at: "lastCheckInAt") == current.int(at: "lastCheckInAt"), "\(source)")
        }
    }

    @Test func theAlertsMessageReachesResponders() throws {
        let alertID = try #require(alice.ok(Op.alertTrigger, ["message": "fell on the stairs"])["alertId"]?.stringValue)
        let raised = bob.phone.settle()
        let view = raised.named(EventName.contactUpdated).last?.contact
        #expect(view?.string(at: "alert", "message") == "fell on the stairs")
        #expect(view?.int(at: "alert", "startedAt") != nil)
        let note = try #require(raised.notifications.first)
        #expect(note.string(at: "alertData", "id") == alertID)
        #expect(note.string(at: "alertData", "message") == "fell on the stairs")

        _ = alice.ok(Op.alertCancel)
        let cancelled = bob.phone.settle()
        #expect(cancelled.named(EventName.contactUpdated).last?.contact?["alert"] == .null)
        #expect(cancelled.notifications.first?.string(at: "alertData", "id") == alertID)
        // Other notifications carry no alert.
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        #expect(alice.phone.settle().notifications.first?["alertData"] == .null)
    }

    @Test func anAlertPushCarriesItsMessage() throws {
        let tablet = try bob.addDevice("tablet")
        bob.register(token: "bob-token", on: tablet)
        bob.takeOffline(tablet, named: "tablet")
        _ = alice.ok(Op.alertTrigger, ["message": "fell on the stairs"])
        let data = try #require(try RecordedPushes.read(broker, user: bob.id).first?.fcm?["data"]?.objectValue)
        #expect(data["alertMessage"]?.stringValue == "fell on the stairs")
        _ = alice.ok(Op.alertCancel)
        let cancelled = try #require(try RecordedPushes.read(broker, user: bob.id).last?.fcm?["data"]?.objectValue)
        #expect(cancelled["type"]?.stringValue == "alertCancelled")
        #expect(cancelled["alertMessage"] == nil)
    }

    @Test func aShorterIntervalWhoseDeadlineHasPassedCountsFromNow() throws {
        let shortIntervals = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let carol = try Person("Carol", port: shortIntervals.port)
        let dan = try Person("Dan", port: shortIntervals.port)
        carol.add(dan, responder: true, dependent: false)
        _ = carol.ok(Op.profileUpdate, ["checkInIntervalSec": 3_600])
        let checkedIn = try #require(carol.ok(Op.checkIn)["user"]?.objectValue?.int(at: "lastCheckInAt"))
        // A fresh check-in: the new deadline counts from it.
        let fromCheckIn = carol.ok(Op.profileUpdate, ["checkInIntervalSec": 1_800])["user"]?.objectValue
        #expect(fromCheckIn?.int(at: "checkInDeadline") == checkedIn + 1_800_000)
        // Once the check-in is older than the new interval, the deadline counts from now.
        Thread.sleep(forTimeInterval: 1.2)
        let fromNow = try #require(carol.ok(Op.profileUpdate, ["checkInIntervalSec": 1])["user"]?.objectValue)
        #expect(try #require(fromNow.int(at: "checkInDeadline")) >= checkedIn + 2_200)
        #expect(fromNow.bool(at: "isNonResponsive") == false)
        _ = dan.settle()
        _ = carol.ok(Op.profileUpdate, ["checkInIntervalSec": 3_600])
        #expect(!dan.phone.settle().notifications.contains { $0.string(at: "type") == "nonResponsive" })
    }

    @Test func contactsHearOfAProfileChangeOnlyWhereTheirViewChanged() throws {
        let carol = try Person("Carol", port: broker.port)
        alice.add(carol, responder: false, dependent: true)  // Carol is Alice's dependent, not her responder
        _ = alice.ok(Op.checkIn)
        _ = alice.settle()
        _ = bob.settle()
        _ = carol.settle()

        _ = alice.ok(Op.profileUpdate, ["phone": "+15550100"])
        #expect(bob.phone.settle().isEmpty)
        #expect(carol.phone.settle().isEmpty)

        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 7_200])
        #expect(bob.phone.settle().named(EventName.contactUpdated).count == 1)
        #expect(carol.phone.settle().isEmpty)

        _ = alice.ok(Op.profileUpdate, ["name": "Alice Smith"])
        #expect(bob.phone.settle().named(EventName.contactUpdated).first?.contact?.string(at: "name") == "Alice Smith")
        #expect(carol.phone.settle().named(EventName.contactUpdated).first?.contact?.string(at: "name") == "Alice Smith")
    }

    @Test func helloNamesTheBrokerServingTheConnection() throws {
        let device = try RawConnection(port: broker.port)
        let fields = try #require(device.hello(alice.credential, device: "laptop")?.okFields)
        #expect(fields["broker"]?.stringValue?.hasSuffix(":\(device.port)") == true)
    }
}
