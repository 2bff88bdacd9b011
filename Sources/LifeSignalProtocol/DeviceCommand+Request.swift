/// The other direction of `DeviceCommand.init(_:)`: the request a client sends for a command, so
/// that a client spells no op or field name of its own. `DeviceCommand(request)` reads back the
/// command it was made from (`RequestRoundTripTests`).
extension DeviceCommand {
    public var op: String {
        switch self {
        case .profileUpdate: Op.profileUpdate
        case .qrRotate: Op.qrRotate
        case .qrLookup: Op.qrLookup
        case .deviceRegister: Op.deviceRegister
        case .deviceUnregister: Op.deviceUnregister
        case .devicesList: Op.devicesList
        case .contactsAdd: Op.contactsAdd
        case .contactsRemove: Op.contactsRemove
        case .contactsSetRoles: Op.contactsSetRoles
        case .contactsList: Op.contactsList
        case .pingSend: Op.pingSend
        case .pingRespond: Op.pingRespond
        case .pingClear: Op.pingClear
        case .checkIn: Op.checkIn
        case .alertTrigger: Op.alertTrigger
        case .alertCancel: Op.alertCancel
        case .notificationsList: Op.notificationsList
        case .notificationsRead: Op.notificationsRead
        case .notificationsReadAll: Op.notificationsReadAll
        case .notificationsDelete: Op.notificationsDelete
        case .accountDelete: Op.accountDelete
        case .deviceLink: Op.deviceLink
        case .deviceRevoke: Op.deviceRevoke
        }
    }

    /// The request's fields; an optional left out is not sent.
    public var fields: JSONObject {
        switch self {
        case .profileUpdate(let update):
            return update.fields
        case .qrLookup(let qrCode):
            return [FieldName.qrCode: .string(qrCode)]
        case .deviceRegister(let token, let platform):
            var fields: JSONObject = [FieldName.token: .string(token)]
            if let platform { fields[FieldName.platform] = .string(platform) }
            return fields
        case .contactsAdd(let qrCode, let isResponder, let isDependent):
            return [FieldName.qrCode: .string(qrCode), FieldName.isResponder: .bool(isResponder),
                    FieldName.isDependent: .bool(isDependent)]
        case .contactsRemove(let contactID), .pingSend(let contactID), .pingRespond(let contactID),
             .pingClear(let contactID):
            return [FieldName.contactID: .string(contactID)]
        case .contactsSetRoles(let contactID, let isResponder, let isDependent):
            return [FieldName.contactID: .string(contactID), FieldName.isResponder: .bool(isResponder),
                    FieldName.isDependent: .bool(isDependent)]
        case .alertTrigger(let message):
            return message.map { [FieldName.message: .string($0)] } ?? [:]
        case .notificationsList(let before, let limit):
            var fields: JSONObject = [FieldName.limit: .int(Int64(limit))]
            if let before { fields[FieldName.before] = .string(before) }
            return fields
        case .notificationsRead(let id), .notificationsDelete(let id):
            return [FieldName.id: .string(id)]
        case .accountDelete(let confirm):
            return [FieldName.confirm: .string(confirm)]
        case .deviceRevoke(let device):
            return [FieldName.device: .string(device)]
        case .qrRotate, .deviceUnregister, .devicesList, .contactsList, .checkIn, .alertCancel, .notificationsReadAll,
             .deviceLink:
            return [:]
        }
    }

    /// The request for this command, numbered `rid`.
    public func request(rid: Int64? = nil) -> Request { Request(op: op, rid: rid, fields: fields) }
}

extension ProfileUpdate {
    /// The fields this update gives; `phone: .some(nil)` is sent as null (removes the number).
    public var fields: JSONObject {
        var fields: JSONObject = [:]
        if let name { fields[FieldName.name] = .string(name) }
        if let phone { fields[FieldName.phone] = phone.map(JSONValue.string) ?? .null }
        if let checkInIntervalSec { fields[FieldName.checkInIntervalSec] = .int(checkInIntervalSec) }
        var preferences: JSONObject = [:]
        if let push { preferences[FieldName.push] = .bool(push) }
        if let mutedTypes { preferences[FieldName.mutedTypes] = .array(mutedTypes.map { .string($0.rawValue) }) }
        if push != nil || mutedTypes != nil { fields[FieldName.preferences] = .object(preferences) }
        return fields
    }
}

/// The field names of requests (§3, §5), of replies (§5) and of events' data (§6), each spelled
/// once for reading and writing them (`EventData` writes its document keys as static strings).
/// The ones `Event.data` names are usable from inlined code: the rules build every event's data
/// through it.
@usableFromInline
enum FieldName {
    static let qrCode = "qrCode"
    static let opID = "opId"
    static let token = "token"
    static let platform = "platform"
    static let isResponder = "isResponder"
    static let isDependent = "isDependent"
    @usableFromInline static let contactID = "contactId"
    static let message = "message"
    static let limit = "limit"
    static let before = "before"
    @usableFromInline static let id = "id"
    static let name = "name"
    static let phone = "phone"
    static let checkInIntervalSec = "checkInIntervalSec"
    static let preferences = "preferences"
    static let push = "push"
    static let mutedTypes = "mutedTypes"
    static let version = "version"
    static let user = "user"
    static let device = "device"
    static let resume = "resume"
    static let contact = "contact"
    static let notification = "notification"
    @usableFromInline static let count = "count"
    static let contacts = "contacts"
    @usableFromInline static let devices = "devices"
    static let notifications = "notifications"
    static let unreadCount = "unreadCount"
    static let pingID = "pingId"
    static let alertID = "alertId"
    static let session = "session"
    static let lastSeq = "lastSeq"
    static let heartbeatMs = "heartbeatMs"
    static let maxFrameBytes = "maxFrameBytes"
    static let serverTime = "serverTime"
    static let broker = "broker"
    static let confirm = "confirm"
    static let deviceToken = "deviceToken"
    static let code = "code"
    static let expiresAt = "expiresAt"
    @usableFromInline static let revoked = "revoked"
    static let linkedAt = "linkedAt"
    static let hasCredential = "hasCredential"
}
