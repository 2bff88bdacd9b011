import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §8: a missed check-in reaches every responder device within a second of the
/// deadline, once per missed deadline, survives restarts, and the next check-in is "all clear".
@Suite("Check-in deadlines", .serialized)
struct DeadlineTests {
    /// Alice checks in every `interval` seconds; Bob, on two devices, is her responder.
    private func cast(interval: Int64, broker: BrokerProcess) throws -> (alice: Person, bob: Person) {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port, devices: 2)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": .int(interval)])
        _ = alice.settle()
        _ = bob.settle()
        return (alice, bob)
    }

    private func waitForNotification(_ device: RawConnection, type: String, timeout: Duration = .seconds(10))
        -> JSONObject?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let note = device.settle().notifications.first(where: { $0.string(at: "type") == type }) { return note }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    private func notifications(of person: Person, type: String) -> [JSONObject] {
        (person.ok(Op.notificationsList)["notifications"]?.arrayValue ?? [])
            .compactMap(\.objectValue).filter { $0.string(at: "type") == type }
    }

    @Test func aMissedCheckInReachesEveryResponderDeviceOnceWithinASecond() throws {
        let broker = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let (alice, bob) = try cast(interval: 1, broker: broker)
        let deadline = try #require(alice.ok(Op.checkIn)["user"]?.objectValue?.int(at: "checkInDeadline"))

        for device in bob.devices {
            let note = try #require(waitForNotification(device, type: "nonResponsive"))
            #expect(note.string(at: "title") == "Missed Check-in")
            #expect(note.string(at: "message") == "Alice missed their check-in.")
            #expect(note.string(at: "contactData", "action") == "nonResponsive")
            #expect(note.string(at: "relatedContactID") == alice.id)
            let late = try #require(note.int(at: "timestamp")) - deadline
            #expect(late >= 0 && late < 1_000, "notified \(late) ms after the deadline")
        }
        let view = bob.ok(Op.contactsList)["contacts"]?.arrayValue?.first?.objectValue
        #expect(view?.bool(at: "isNonResponsive") == true)
        #expect(alice.ok(Op.keepalive)["serverTime"] != nil)
        let aliceUser = alice.phone.settle().named(EventName.userUpdated).last?.data.objectValue(at: "user")
        #expect(aliceUser?.bool(at: "isNonResponsive") == true)

        // Once per missed deadline: two more intervals bring nothing new.
        Thread.sleep(forTimeInterval: 2.2)
        #expect(notifications(of: bob, type: "nonResponsive").count == 1)
    }

    @Test func theNextCheckInIsAllClearAndStartsANewDeadline() throws {
        let broker = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let (alice, bob) = try cast(interval: 1, broker: broker)
        _ = alice.ok(Op.checkIn)
        _ = try #require(waitForNotification(bob.phone, type: "nonResponsive"))

        let user = alice.ok(Op.checkIn)["user"]?.objectValue
        #expect(user?.bool(at: "isNonResponsive") == false)
        let clear = try #require(waitForNotification(bob.phone, type: "checkIn"))
        #expect(clear.string(at: "title") == "Checked In")
        #expect(clear.string(at: "message") == "Alice checked in.")
        #expect(clear.string(at: "contactData", "action") == "checkedIn")
        // The new deadline is missed in turn.
        _ = try #require(waitForNotification(bob.phone, type: "nonResponsive"))
        #expect(notifications(of: bob, type: "nonResponsive").count == 2)
        #expect(notifications(of: bob, type: "checkIn").count == 1)
    }

    @Test func aShorterIntervalMovesTheDeadline() throws {
        let broker = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let (alice, bob) = try cast(interval: 3_600, broker: broker)
        let checkedIn = try #require(alice.ok(Op.checkIn)["user"]?.objectValue?.int(at: "lastCheckInAt"))
        let moved = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 2])["user"]?.objectValue
        #expect(moved?.int(at: "checkInDeadline") == checkedIn + 2_000)
        let note = try #require(waitForNotification(bob.phone, type: "nonResponsive"))
        let late = try #require(note.int(at: "timestamp")) - (checkedIn + 2_000)
        #expect(late >= 0 && late < 1_000)
    }

    @Test func aLongerIntervalPostponesIt() throws {
        let broker = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let (alice, bob) = try cast(interval: 1, broker: broker)
        _ = alice.ok(Op.checkIn)
        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 3_600])
        Thread.sleep(forTimeInterval: 1.5)
        #expect(notifications(of: bob, type: "nonResponsive").isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aDeadlineThatPassedWhileTheBrokerWasDownFiresOnceAtStartUp(signal: Int32) throws {
        let broker = try BrokerProcess(arguments: ["--min-check-in-interval-sec", "1"])
        let (alice, bob) = try cast(interval: 1, broker: broker)
        let deadline = try #require(alice.ok(Op.checkIn)["user"]?.objectValue?.int(at: "checkInDeadline"))
        broker.stop(signal: signal)
        let downFor = Double(deadline - Int64(Date().timeIntervalSince1970 * 1000)) / 1000 + 0.5
        if downFor > 0 { Thread.sleep(forTimeInterval: downFor) }
        try broker.start()

        // Fired at start-up, before Bob is back: it is in his history (and his snapshot).
        let bobAgain = try RawConnection(port: broker.port)
        #expect(bobAgain.hello(bob.credential, device: "after")?.okFields != nil)
        var missed: [JSONObject] = []
        for _ in 0..<100 where missed.isEmpty {
            missed = (bobAgain.request(Op.notificationsList)?.okFields?["notifications"]?.arrayValue ?? [])
                .compactMap(\.objectValue).filter { $0.string(at: "type") == "nonResponsive" }
            if missed.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(missed.first?.string(at: "message") == "Alice missed their check-in.")
        // Exactly once, also after another restart.
        try broker.restart(afterSignal: SIGTERM)
        let check = try RawConnection(port: broker.port)
        _ = check.hello(bob.credential, device: "count")
        Thread.sleep(forTimeInterval: 0.5)
        let all = check.request(Op.notificationsList)?.okFields?["notifications"]?.arrayValue ?? []
        #expect(all.filter { $0.objectValue?.string(at: "type") == "nonResponsive" }.count == 1)
    }
}
