import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--notification-history`: the newest notifications are kept, older ones pruned
/// in steps with the pushes recorded for them, and the unread count stays exact.
@Suite("Quota: notification history", .serialized)
struct NotificationHistoryTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    /// A history of 5, so pruned in steps of 5; Bob is Alice's responder, so he can ping her.
    init() throws {
        broker = try BrokerProcess(arguments: ["--notification-history", "5"])
        alice = try Person("Alice", port: broker.port)
        bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)  // Alice: "You added Bob."
        _ = alice.settle()
        _ = bob.settle()
    }

    /// Bob pings Alice `count` times; returns the ids of her notifications, oldest first.
    @discardableResult
    private func bobPingsAlice(_ count: Int) -> [String] {
        for _ in 0..<count { _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)]) }
        return alice.phone.settle().notifications.compactMap { $0["id"]?.stringValue }
    }

    private func list(_ connection: RawConnection) -> (ids: [String], unread: Int64?) {
        let fields = connection.request(Op.notificationsList)?.okFields
        let ids = fields?["notifications"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
        return (ids, fields?["unreadCount"]?.intValue)
    }

    @Test func theNewestAreKeptAndTheUnreadCountCountsOnlyThem() throws {
        let added = try #require(list(alice.phone).ids.first)
        let early = bobPingsAlice(4)  // five: the "added" one and four pings
        // The oldest two are read.
        for id in [added, early[0]] { _ = alice.ok(Op.notificationsRead, ["id": .string(id)]) }
        let late = bobPingsAlice(5)  // ten: a step is due, the oldest five go (two read, three not)

        let kept = list(alice.phone)
        #expect(kept.ids == late.reversed())
        #expect(kept.unread == 5)
        // A device that connects now is sent the same, and so is everyone after a crash.
        let tablet = try RawConnection(port: broker.port)
        #expect(tablet.hello(alice.credential, device: "tablet")?.okFields != nil)
        guard case .snapshot(let snapshot) = tablet.next() else {
            Issue.record("no snapshot")
            return
        }
        #expect(snapshot.notifications.map(\.id) == late.reversed())
        #expect(snapshot.unreadCount == 5)
        try broker.restart(afterSignal: SIGKILL)
        let back = try RawConnection(port: broker.port)
        #expect(back.hello(alice.credential, device: "back")?.okFields != nil)
        _ = back.next()
        #expect(list(back).ids == late.reversed())
        #expect(list(back).unread == 5)
        // A pruned notification is gone, as if deleted.
        #expect(back.request(Op.notificationsRead, ["id": .string(early[1])])?.errorCode == .notFound)
    }

    @Test func betweenPruneStepsTheHistoryIsStillExactlyTheNewest() throws {
        let ids = bobPingsAlice(13)  // fourteen in all: pruned to five at ten, four more stored since
        let visible = Array(ids.suffix(5).reversed())
        #expect(list(alice.phone).ids == visible)
        #expect(list(alice.phone).unread == 5)
        // The ones stored until the next step are gone for every read, as pruned ones are.
        let hidden = ids[ids.count - 9]
        #expect(alice.request(Op.notificationsList, ["before": .string(hidden)])?.errorCode == .notFound)
        #expect(alice.request(Op.notificationsRead, ["id": .string(hidden)])?.errorCode == .notFound)
        #expect(alice.request(Op.notificationsDelete, ["id": .string(hidden)])?.errorCode == .notFound)
        // A page that reaches the end of the history stops there.
        #expect(alice.ok(Op.notificationsList, ["before": .string(visible[2])])["notifications"]?.arrayValue?.count == 2)
        // A new device's snapshot is the same history.
        let tablet = try RawConnection(port: broker.port)
        #expect(tablet.hello(alice.credential, device: "tablet")?.okFields != nil)
        guard case .snapshot(let snapshot) = tablet.next() else {
            Issue.record("no snapshot")
            return
        }
        #expect(snapshot.notifications.map(\.id) == visible)
        #expect(snapshot.unreadCount == 5)
        // And so after a restart, whose load trims what was stored.
        try broker.restart(arguments: ["--notification-history", "5"])
        let back = try RawConnection(port: broker.port)
        #expect(back.hello(alice.credential, device: "back")?.okFields != nil)
        _ = back.next()
        #expect(list(back).ids == visible)
        #expect(list(back).unread == 5)
    }

    @Test func thePushesOfPrunedNotificationsGoWithThem() throws {
        // Alice's tablet is offline with a token: every notification is pushed to it.
        let tablet = try alice.addDevice("tablet")
        alice.register(token: "alice-tablet", on: tablet)
        alice.takeOffline(tablet, named: "tablet")
        // Thirteen in all: the step at ten pruned the oldest five ("added" and four pings).
        let ids = bobPingsAlice(12)
        let pushed = Set(try RecordedPushes.read(broker, user: alice.id).compactMap { $0["notificationId"]?.stringValue })
        #expect(pushed.isDisjoint(with: ids.prefix(4)), "pushes of pruned notifications are kept")
        #expect(pushed == Set(ids.suffix(8)))
        // A load trims to the history, pushes and all.
        try broker.restart(arguments: ["--notification-history", "5"])
        let back = try RawConnection(port: broker.port)
        #expect(back.hello(alice.credential, device: "back")?.okFields != nil)
        let trimmed = Set(try RecordedPushes.read(broker, user: alice.id).compactMap { $0["notificationId"]?.stringValue })
        #expect(trimmed == Set(ids.suffix(5)))
    }
}

/// The history beyond the 100 notifications a loaded user keeps in memory.
@Suite("Quota: notification history beyond memory", .serialized)
struct NotificationHistoryBeyondMemoryTests {
    @Test func aNotificationReadFromTheStoreIsGoneOncePruned() throws {
        let broker = try BrokerProcess(arguments: ["--notification-history", "150"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        let oldest = try #require(alice.phone.settle().notifications.first?["id"]?.stringValue)
        for _ in 0..<149 { _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)]) }
        // 150 in all: the oldest is past the 100 in memory, read from the store, and read.
        _ = alice.ok(Op.notificationsRead, ["id": .string(oldest)])
        #expect(alice.ok(Op.notificationsList)["unreadCount"]?.intValue == 149)
        // 64 more: a step is due, and the oldest 64 go.
        for _ in 0..<64 { _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)]) }
        #expect(alice.request(Op.notificationsRead, ["id": .string(oldest)])?.errorCode == .notFound)
        #expect(alice.ok(Op.notificationsList)["unreadCount"]?.intValue == 150)
    }
}
