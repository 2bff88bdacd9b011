import LifeSignalProtocol
import Testing

/// PROTOCOL.md §5, the notification rows: list, read, readAll, delete, and unreadCount.
@Suite("Notification history", .serialized)
struct NotificationRulesTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        let cast = try AliceAndBob()
        (broker, alice, bob) = (cast.broker, cast.alice, cast.bob)
    }

    private func receivePings(_ count: Int) {
        for _ in 0..<count { bob.phone.send(Op.pingSend, ["contactId": .string(alice.id)]) }
        _ = bob.settle()
        _ = alice.settle()
    }

    private func list(_ fields: JSONObject = [:]) -> (ids: [String], unread: Int64?) {
        let result = alice.ok(Op.notificationsList, fields)
        let ids = result["notifications"]?.arrayValue?.compactMap { $0.objectValue?.string(at: "id") } ?? []
        return (ids, result["unreadCount"]?.intValue)
    }

    @Test func listingIsNewestFirstWithLimitAndCursor() throws {
        receivePings(5)
        let all = list()
        #expect(all.ids.count == 6)  // five pings and "You added Bob."
        #expect(all.unread == 6)
        let messages = alice.ok(Op.notificationsList, ["limit": 2])["notifications"]?.arrayValue?
            .compactMap { $0.objectValue?.string(at: "message") }
        #expect(messages == ["Bob pinged you.", "Bob pinged you."])
        #expect(list(["limit": 2]).ids == Array(all.ids.prefix(2)))
        #expect(list(["limit": 2, "before": .string(all.ids[1])]).ids == Array(all.ids[2...3]))
        #expect(list(["before": .string(all.ids[5])]).ids.isEmpty)
        #expect(alice.request(Op.notificationsList, ["limit": 0])?.errorCode == .badRequest)
        #expect(alice.request(Op.notificationsList, ["limit": 101])?.errorCode == .badRequest)
        #expect(alice.request(Op.notificationsList, ["before": "n_unknown"])?.errorCode == .notFound)
    }

    @Test func pagesReachPastWhatTheBrokerKeepsInMemory() throws {
        receivePings(150)
        var seen: [String] = []
        var cursor: String?
        while true {
            var fields: JSONObject = ["limit": 40]
            if let cursor { fields["before"] = .string(cursor) }
            let page = list(fields).ids
            if page.isEmpty { break }
            seen += page
            cursor = page.last
        }
        #expect(seen.count == 151)
        #expect(Set(seen).count == 151)
        #expect(list(["limit": 100]).ids == Array(seen.prefix(100)))

        // Reading and deleting the oldest works like any other, and the count follows.
        let oldest = try #require(seen.last)
        #expect(alice.ok(Op.notificationsRead, ["id": .string(oldest)]).isEmpty)
        #expect(list(["limit": 1]).unread == 150)
        #expect(alice.ok(Op.notificationsDelete, ["id": .string(oldest)]).isEmpty)
        #expect(list(["before": .string(seen[seen.count - 2])]).ids.isEmpty)
        #expect(alice.request(Op.notificationsRead, ["id": .string(oldest)])?.errorCode == .notFound)
    }

    @Test func readingTellsEveryDeviceOnceAndCountsDown() throws {
        receivePings(2)
        let newest = try #require(list().ids.first)
        #expect(alice.ok(Op.notificationsRead, ["id": .string(newest)]).isEmpty)
        for events in alice.settle() {
            let updated = events.named(EventName.notificationUpdated)
            #expect(updated.count == 1)
            #expect(updated.first?.notification?.string(at: "id") == newest)
            #expect(updated.first?.notification?.bool(at: "isRead") == true)
        }
        #expect(list().unread == 2)
        // Already read: ok, and no event.
        #expect(alice.ok(Op.notificationsRead, ["id": .string(newest)]).isEmpty)
        #expect(alice.settle().allSatisfy { $0.isEmpty })
        #expect(list().unread == 2)
    }

    @Test func readAllMarksEverythingAndTellsEveryDevice() throws {
        receivePings(3)
        #expect(alice.ok(Op.notificationsReadAll)["count"]?.intValue == 4)
        for events in alice.settle() {
            #expect(events.named(EventName.notificationsReadAll).first?.data.int(at: "count") == 4)
        }
        #expect(list().unread == 0)
        let anyUnread = alice.ok(Op.notificationsList)["notifications"]?.arrayValue?
            .contains { $0.objectValue?.bool(at: "isRead") == false }
        #expect(anyUnread == false)
    }

    @Test func deletingRemovesItForEveryDevice() throws {
        receivePings(1)
        let ids = list().ids
        #expect(alice.ok(Op.notificationsDelete, ["id": .string(ids[0])]).isEmpty)
        for events in alice.settle() {
            #expect(events.named(EventName.notificationDeleted).first?.data.string(at: "id") == ids[0])
        }
        #expect(list().ids == Array(ids.dropFirst()))
        #expect(list().unread == 1)
        #expect(alice.request(Op.notificationsDelete, ["id": .string(ids[0])])?.errorCode == .notFound)
    }

    @Test func someoneElsesNotificationIsNotFoundAndUntouched() throws {
        receivePings(1)
        let alicesNewest = try #require(list().ids.first)
        #expect(bob.request(Op.notificationsRead, ["id": .string(alicesNewest)])?.errorCode == .notFound)
        #expect(bob.request(Op.notificationsDelete, ["id": .string(alicesNewest)])?.errorCode == .notFound)
        #expect(bob.request(Op.notificationsList, ["before": .string(alicesNewest)])?.errorCode == .notFound)
        #expect(list().ids.first == alicesNewest)
        #expect(list().unread == 2)
        #expect(bob.request(Op.notificationsRead, [:])?.errorCode == .badRequest)
    }

    @Test func aSnapshotCarriesContactsNotificationsAndTheUnreadCount() throws {
        receivePings(2)
        let laptop = try RawConnection(port: broker.port)
        #expect(laptop.hello(alice.credential, device: "laptop")?.okFields != nil)
        guard case .snapshot(let snapshot) = laptop.next() else {
            Issue.record("expected a snapshot")
            return
        }
        #expect(snapshot.contacts.map(\.id) == [bob.id])
        #expect(snapshot.contacts.first?.role == .responder)
        #expect(snapshot.notifications.count == 3)
        #expect(snapshot.unreadCount == 3)
        #expect(snapshot.notifications.first?.message == "Bob pinged you.")
    }
}
