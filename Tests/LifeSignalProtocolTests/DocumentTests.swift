import LifeSignalProtocol
import Testing

@Suite("Documents")
struct DocumentTests {
    static let fullUser = User(
        id: "u_1", name: "Alice", phone: "+15550100", qrCode: "K3F9QZ2M8WXA", checkInIntervalSec: 3600,
        lastCheckInAt: 1_763_800_000_000, checkInDeadline: 1_763_803_600_000, isNonResponsive: true,
        alert: AlertInfo(id: "a_1", startedAt: 1_763_800_000_500, message: "help"),
        preferences: Preferences(push: false, mutedTypes: [.ping, .checkIn]), createdAt: 1_763_700_000_000)
    static let bareUser = User(id: "u_2", name: "Bob", qrCode: "QR2", createdAt: 1)

    static let fullContact = Contact(
        id: "u_2", name: "Bob", isResponder: true, isDependent: true, addedAt: 10, incomingPingAt: 11,
        outgoingPingAt: 12, lastCheckInAt: 13, checkInDeadline: 14, isNonResponsive: true,
        alert: AlertInfo(id: "a_2", startedAt: 15, message: "fell on the stairs"))
    static let bareContact = Contact(id: "u_3", name: "Carol", isResponder: false, isDependent: false, addedAt: 20)

    static let fullNotification = Notification(
        id: "n_1", type: .ping, title: "Ping", message: "Alice pinged you.", timestamp: 30, isRead: true,
        relatedContactID: "u_1", relatedAlertID: "a_1", relatedPingID: "p_1",
        contactData: ContactData(id: "u_1", name: "Alice", role: .responder, action: .ping),
        alertData: AlertInfo(id: "a_1", startedAt: 29, message: nil))
    static let bareNotification = Notification(
        id: "n_2", type: .added, title: "Contact Added", message: "You added Bob.", timestamp: 31)

    /// Through bytes and back, as a client receives it.
    static func reparsed(_ json: JSONValue) throws -> JSONValue {
        try JSONValue.parse(json.serialized())
    }

    @Test func userRoundTrip() throws {
        for user in [Self.fullUser, Self.bareUser] {
            #expect(try User(json: Self.reparsed(user.json)) == user)
        }
    }

    /// `User.alert` lives behind a reference: still a value, compared by content.
    @Test func aUsersAlertIsAValue() {
        var copy = Self.fullUser
        copy.alert?.message = "on my way"
        #expect(Self.fullUser.alert?.message == "help")
        #expect(copy.alert?.message == "on my way" && copy != Self.fullUser)
        copy.alert = AlertInfo(id: "a_1", startedAt: 1_763_800_000_500, message: "help")
        #expect(copy == Self.fullUser)
        copy.alert = nil
        #expect(copy != Self.fullUser && copy.json.objectValue?["alert"]?.isNull == true)
    }

    @Test func userFieldsAndExplicitNulls() {
        #expect(Self.bareUser.json.objectValue?.keys == [
            "id", "name", "phone", "qrCode", "checkInIntervalSec", "lastCheckInAt", "checkInDeadline",
            "isNonResponsive", "alert", "preferences", "createdAt",
        ])
        #expect(Self.bareUser.json.description == #"{"id":"u_2","name":"Bob","phone":null,"qrCode":"QR2","#
            + #""checkInIntervalSec":86400,"lastCheckInAt":null,"checkInDeadline":null,"isNonResponsive":false,"#
            + #""alert":null,"preferences":{"push":true,"mutedTypes":[]},"createdAt":1}"#)
        #expect(Self.fullUser.json.objectValue?["alert"]?.objectValue?.keys == ["id", "startedAt", "message"])
    }

    @Test func contactRoundTrip() throws {
        for contact in [Self.fullContact, Self.bareContact] {
            #expect(try Contact(json: Self.reparsed(contact.json)) == contact)
        }
    }

    @Test func contactFieldsAndExplicitNulls() {
        #expect(Self.bareContact.json.description == #"{"id":"u_3","name":"Carol","isResponder":false,"#
            + #""isDependent":false,"role":"none","addedAt":20,"incomingPingAt":null,"outgoingPingAt":null,"#
            + #""lastCheckInAt":null,"checkInDeadline":null,"isNonResponsive":false,"hasActiveAlert":false,"#
            + #""alert":null}"#)
    }

    /// v1.1: a responder sees what the alert says; `hasActiveAlert` is derived from it.
    @Test func contactAlertCarriesTheMessageAndDerivesHasActiveAlert() throws {
        let fields = try #require(Self.fullContact.json.objectValue)
        #expect(fields["hasActiveAlert"] == .bool(true))
        #expect(fields["alert"]?.description == #"{"id":"a_2","startedAt":15,"message":"fell on the stairs"}"#)
        #expect(Self.bareContact.hasActiveAlert == false)
        // A v1.0 broker sends no `alert`: the contact reads as one without.
        var old = try #require(Self.bareContact.json.objectValue)
        old["alert"] = nil
        #expect(try Contact(json: .object(old)) == Self.bareContact)
    }

    @Test(arguments: [
        (true, true, ContactRole.both), (true, false, .responder), (false, true, .dependent), (false, false, .none),
    ])
    func contactRoleIsDerivedFromTheFlags(isResponder: Bool, isDependent: Bool, role: ContactRole) {
        #expect(ContactRole(isResponder: isResponder, isDependent: isDependent) == role)
        #expect(role.isResponder == isResponder)
        #expect(role.isDependent == isDependent)
        let contact = Contact(id: "u", name: "n", isResponder: isResponder, isDependent: isDependent, addedAt: 0)
        #expect(contact.role == role)
        #expect(contact.json.objectValue?["role"] == .string(role.rawValue))
    }

    @Test func notificationRoundTrip() throws {
        for notification in [Self.fullNotification, Self.bareNotification] {
            #expect(try Notification(json: Self.reparsed(notification.json)) == notification)
        }
        #expect(Self.bareNotification.json.objectValue?.keys == [
            "id", "type", "title", "message", "timestamp", "isRead", "relatedContactID", "relatedAlertID",
            "relatedPingID", "contactData", "alertData",
        ])
        #expect(Self.bareNotification.json.description.contains(#""contactData":null,"alertData":null}"#))
        #expect(Self.fullNotification.json.objectValue?["alertData"]?.description
            == #"{"id":"a_1","startedAt":29,"message":null}"#)
        #expect(Self.fullNotification.json.objectValue?["contactData"]?.description
            == #"{"id":"u_1","name":"Alice","role":"responder","action":"ping"}"#)
    }

    @Test func everyNotificationTypeAndActionRoundTrips() throws {
        for type in NotificationType.allCases {
            var notification = Self.bareNotification
            notification.type = type
            #expect(try Notification(json: Self.reparsed(notification.json)) == notification)
        }
        for action in ContactAction.allCases {
            for role in ContactRole.allCases {
                let data = ContactData(id: "u", name: "n", role: role, action: action)
                #expect(try ContactData(json: Self.reparsed(data.json)) == data)
            }
        }
        #expect(NotificationType.allCases.map(\.rawValue) == [
            "added", "removed", "role", "ping", "pingResponse", "alert", "alertCancelled", "nonResponsive", "checkIn",
        ])
        #expect(ContactAction.allCases.map(\.rawValue) == [
            "added", "removed", "roleChanged", "ping", "pingResponded", "alert", "alertCancelled", "nonResponsive",
            "checkedIn",
        ])
    }

    @Test func deviceInfoRoundTrip() throws {
        let devices = [
            DeviceInfo(device: "alice-phone", platform: "ios", hasToken: true, online: true, lastSeenAt: 5),
            DeviceInfo(device: "cli", hasToken: false, online: false),
            DeviceInfo(device: "tablet", hasToken: false, online: false, linkedAt: 7, hasCredential: true),
        ]
        for device in devices {
            #expect(try DeviceInfo(json: Self.reparsed(device.json)) == device)
        }
        #expect(devices[1].json.description == #"{"device":"cli","platform":null,"hasToken":false,"online":false,"#
            + #""lastSeenAt":null,"linkedAt":null,"hasCredential":false}"#)
        // From a broker of version 1.1: neither field, so no credential of its own.
        let older = try JSONValue.parse(Array(#"{"device":"cli","platform":null,"hasToken":false,"online":false,"lastSeenAt":null}"#.utf8))
        #expect(try DeviceInfo(json: older) == devices[1])
    }

    @Test func alertAndPreferencesRoundTrip() throws {
        let alerts = [AlertInfo(id: "a", startedAt: 1, message: "m"), AlertInfo(id: "b", startedAt: 2)]
        for alert in alerts {
            #expect(try AlertInfo(json: Self.reparsed(alert.json)) == alert)
        }
        let preferences = Preferences(push: false, mutedTypes: NotificationType.allCases)
        #expect(try Preferences(json: Self.reparsed(preferences.json)) == preferences)
        #expect(Preferences() == Preferences(push: true, mutedTypes: []))
    }

    @Test func snapshotRoundTrip() throws {
        let snapshot = Snapshot(
            seq: 41, user: Self.fullUser, contacts: [Self.fullContact, Self.bareContact],
            notifications: [Self.fullNotification, Self.bareNotification], unreadCount: 1)
        #expect(try Snapshot(json: Self.reparsed(snapshot.json)) == snapshot)
    }

    @Test func preferencesMergeOnlyPresentFields() throws {
        let base = Preferences(push: true, mutedTypes: [.ping])
        #expect(try base.merging(["push": false]) == Preferences(push: false, mutedTypes: [.ping]))
        #expect(try base.merging(["mutedTypes": ["alert", "alert", "role"]])
            == Preferences(push: true, mutedTypes: [.alert, .role]))
        #expect(try base.merging([:]) == base)
        #expect(throws: ProtocolError.self) { try base.merging(["mutedTypes": ["nope"]]) }
        #expect(throws: ProtocolError.self) { try base.merging(["push": 1]) }
        #expect(throws: ProtocolError.self) { try base.merging("push") }
        #expect(base.allowsPush(of: .alert))
        #expect(!base.allowsPush(of: .ping))
        #expect(!Preferences(push: false).allowsPush(of: .alert))
    }

    @Test func absentNullableFieldsDecodeAsNil() throws {
        let user = try User(json: [
            "id": "u", "name": "n", "qrCode": "q", "checkInIntervalSec": 60, "isNonResponsive": false,
            "preferences": ["push": true, "mutedTypes": []], "createdAt": 0,
        ])
        #expect(user.phone == nil)
        #expect(user.alert == nil)
    }

    @Test func malformedDocumentsAreBadRequestNamingThePath() {
        func message(_ body: () throws(ProtocolError) -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                #expect(error.code == .badRequest)
                return error.message
            }
        }
        var user = Self.fullUser.json.objectValue!
        user["createdAt"] = nil
        #expect(message { () throws(ProtocolError) in _ = try User(json: .object(user)) }?
            .contains("user.createdAt") == true)

        user = Self.fullUser.json.objectValue!
        user["preferences"] = ["push": "yes", "mutedTypes": []]
        #expect(message { () throws(ProtocolError) in _ = try User(json: .object(user)) }?
            .contains("user.preferences.push") == true)

        user = Self.fullUser.json.objectValue!
        user["alert"] = ["id": "a", "startedAt": 1.5]
        #expect(message { () throws(ProtocolError) in _ = try User(json: .object(user)) }?
            .contains("user.alert.startedAt") == true)

        var notification = Self.fullNotification.json.objectValue!
        notification["type"] = "bogus"
        #expect(message { () throws(ProtocolError) in _ = try Notification(json: .object(notification)) }?
            .contains("notification.type") == true)

        #expect(message { () throws(ProtocolError) in _ = try Contact(json: [1, 2]) }?.contains("contact") == true)
    }

    @Test func constants() {
        #expect(ProtocolVersion.current == 2 && ProtocolVersion.supported == 1...2)
        #expect(User.defaultCheckInIntervalSec == 86_400)
        #expect(Op.all.count == 28)
        #expect(Op.accountDelete == "account.delete")
        #expect(Op.qrLookup == "qr.lookup")
        #expect(Op.contactsSetRoles == "contacts.setRoles")
        #expect(Op.checkIn == "checkin" && Op.checkin == "checkin")
        #expect(Op.beforeHello == ["register", "hello", "signin"])
        #expect(EventName.all == [
            "user.updated", "contact.updated", "contact.removed", "notification.added", "notification.updated",
            "notification.deleted", "notifications.readAll", "devices.changed",
        ])
    }
}
