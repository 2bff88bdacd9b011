/// A broker event (§6): written by the broker as its name and `data`, read back by a device from
/// them, with each field name spelled once here (`EventRoundTripTests`).
public enum Event: Sendable, Equatable {
    case userUpdated(User)
    case contactUpdated(Contact)
    case contactRemoved(contactID: String)
    case notificationAdded(Notification)
    case notificationUpdated(Notification)
    case notificationDeleted(id: String)
    case notificationsReadAll(count: Int64)
    /// The user's devices now (§12): one was linked, revoked or changed its push token.
    /// `revoked` names the device a revocation removed: its connections are closed with
    /// `revoked` instead of being told.
    case devicesChanged([DeviceInfo], revoked: String?)
    /// One this version does not know: the protocol may add events, and the seq still counts it.
    case unknown(name: String)

    /// Inlinable, as `data`: every event a rule makes goes through both, from another module.
    @inlinable
    public var name: String {
        switch self {
        case .userUpdated: EventName.userUpdated
        case .contactUpdated: EventName.contactUpdated
        case .contactRemoved: EventName.contactRemoved
        case .notificationAdded: EventName.notificationAdded
        case .notificationUpdated: EventName.notificationUpdated
        case .notificationDeleted: EventName.notificationDeleted
        case .notificationsReadAll: EventName.notificationsReadAll
        case .devicesChanged: EventName.devicesChanged
        case .unknown(let name): name
        }
    }

    /// What the broker writes as the event's `data`.
    @inlinable
    public var data: EventData {
        switch self {
        case .userUpdated(let user): .user(user)
        case .contactUpdated(let contact): .contact(contact)
        case .contactRemoved(let contactID): [FieldName.contactID: .string(contactID)]
        case .notificationAdded(let notification), .notificationUpdated(let notification): .notification(notification)
        case .notificationDeleted(let id): [FieldName.id: .string(id)]
        case .notificationsReadAll(let count): [FieldName.count: .int(count)]
        case .devicesChanged(let devices, let revoked):
            .object(Self.devicesChangedFields(devices, revoked: revoked))
        case .unknown: [:]
        }
    }

    /// Reads an event as a device receives it; an unknown name is `.unknown`, whatever its data,
    /// and so is a notification's event whose notification is of a type this version does not know.
    public init(name: String, data: JSONValue) throws(ProtocolError) {
        switch name {
        case EventName.userUpdated: self = .userUpdated(try User(json: Self.field(FieldName.user, of: data)))
        case EventName.contactUpdated: self = .contactUpdated(try Contact(json: Self.field(FieldName.contact, of: data)))
        case EventName.contactRemoved: self = .contactRemoved(contactID: try Self.string(FieldName.contactID, of: data))
        case EventName.notificationAdded:
            guard let notification = try Notification.ofKnownType(json: Self.field(FieldName.notification, of: data)) else {
                self = .unknown(name: name)
                return
            }
            self = .notificationAdded(notification)
        case EventName.notificationUpdated:
            guard let notification = try Notification.ofKnownType(json: Self.field(FieldName.notification, of: data)) else {
                self = .unknown(name: name)
                return
            }
            self = .notificationUpdated(notification)
        case EventName.notificationDeleted: self = .notificationDeleted(id: try Self.string(FieldName.id, of: data))
        case EventName.notificationsReadAll:
            guard let count = try Self.field(FieldName.count, of: data).intValue else {
                throw .badRequest("field '\(FieldName.count)' must be an integer")
            }
            self = .notificationsReadAll(count: count)
        case EventName.devicesChanged:
            guard case .object(let object) = data, let list = object[FieldName.devices]?.arrayValue else {
                throw .badRequest("missing field '\(FieldName.devices)'")
            }
            var devices: [DeviceInfo] = []
            for entry in list { devices.append(try DeviceInfo(json: entry)) }
            self = .devicesChanged(devices, revoked: object[FieldName.revoked]?.stringValue)
        default: self = .unknown(name: name)
        }
    }

    @usableFromInline static func devicesChangedFields(_ devices: [DeviceInfo], revoked: String?) -> JSONObject {
        var fields: JSONObject = [FieldName.devices: .array(devices.map(\.json))]
        if let revoked { fields[FieldName.revoked] = .string(revoked) }
        return fields
    }

    private static func field(_ key: String, of data: JSONValue) throws(ProtocolError) -> JSONValue {
        guard case .object(let object) = data else { throw .badRequest("event data must be an object") }
        guard let value = object[key] else { throw .badRequest("missing field '\(key)'") }
        return value
    }

    private static func string(_ key: String, of data: JSONValue) throws(ProtocolError) -> String {
        guard let value = try field(key, of: data).stringValue else { throw .badRequest("field '\(key)' must be a string") }
        return value
    }
}
