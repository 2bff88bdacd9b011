import LifeSignalProtocol
import Testing

/// An event as the broker writes it (`Event.name`, `Event.data`) reads back as the same event on a
/// device (`Event(name:data:)`), through the bytes of a frame.
@Suite struct EventRoundTripTests {
    static let notification = Notification(id: "n_1", type: .ping, title: "Ping", message: "Ann pinged you",
                                           timestamp: 1_000, relatedContactID: "u_2", relatedPingID: "p_1")

    static let events: [Event] = [
        .userUpdated(User(id: "u_1", name: "Ann", qrCode: "QR1", createdAt: 5)),
        .contactUpdated(Contact(id: "u_2", name: "Bob", isResponder: true, isDependent: false, addedAt: 7,
                                alert: AlertInfo(id: "al_1", startedAt: 9, message: "help"))),
        .contactRemoved(contactID: "u_2"),
        .notificationAdded(notification),
        .notificationUpdated(notification),
        .notificationDeleted(id: "n_1"),
        .notificationsReadAll(count: 3),
        .devicesChanged([DeviceInfo(device: "phone", platform: "ios", hasToken: true, online: true, lastSeenAt: 4,
                                    linkedAt: 2, hasCredential: true)], revoked: "tablet"),
        .devicesChanged([], revoked: nil),
    ]

    @Test(arguments: events)
    func anEventReadsBackAsItself(_ event: Event) throws {
        let data = try JSONValue.parse(event.data.json.serialized())
        #expect(try Event(name: event.name, data: data) == event)
    }

    @Test func everyEventNameHasAnEventHere() {
        #expect(Set(Self.events.map(\.name)) == Set(EventName.all))
    }

    /// A newer broker's notification type: its events count (the seq moves on) and change nothing,
    /// a snapshot and a page read without it; a known type with a bad field is still refused.
    @Test func aNotificationOfATypeThisVersionDoesNotKnowIsSkipped() throws {
        var newer = try #require(Self.notification.json.objectValue)
        newer["type"] = "birthday"
        let data: JSONValue = ["notification": .object(newer)]
        #expect(try Event(name: EventName.notificationAdded, data: data) == .unknown(name: EventName.notificationAdded))
        #expect(try Event(name: EventName.notificationUpdated, data: data) == .unknown(name: EventName.notificationUpdated))
        let snapshot = Snapshot(seq: 3, user: User(id: "u_1", name: "Ann", qrCode: "QR1", createdAt: 5), contacts: [],
                                notifications: [Self.notification], unreadCount: 2)
        var snapshotJSON = try #require(snapshot.json.objectValue)
        snapshotJSON["notifications"] = .array([.object(newer), Self.notification.json])
        #expect(try Snapshot(json: .object(snapshotJSON)).notifications == [Self.notification])
        let page: JSONObject = ["notifications": .array([.object(newer), Self.notification.json]), "unreadCount": 2]
        #expect(try Reply(answering: Op.notificationsList, fields: page) == .notifications([Self.notification], unreadCount: 2))
        var broken = try #require(Self.notification.json.objectValue)
        broken["isRead"] = "no"
        #expect(throws: ProtocolError.self) { try Event(name: EventName.notificationAdded, data: ["notification": .object(broken)]) }
    }

    @Test func anEventOfAnotherVersionIsUnknownAndAKnownOneWithBadDataIsRefused() throws {
        #expect(try Event(name: "contact.renamed", data: ["anything": 1]) == .unknown(name: "contact.renamed"))
        #expect(throws: ProtocolError.badRequest("missing field 'contactId'")) {
            try Event(name: EventName.contactRemoved, data: ["id": "u_2"])
        }
    }
}
