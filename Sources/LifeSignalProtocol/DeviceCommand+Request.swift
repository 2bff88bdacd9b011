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
        }
    }

    /// The request's fields; an optional left out is not sent.
    public var fields: JSONObject {
        switch self {
        case .profileUpdate(let update):
            return update.fields
        case .qrLookup(let qrCode):
            return [RequestField.qrCode: .string(qrCode)]
        case .deviceRegister(let token, let platform):
            var fields: JSONObject = [RequestField.token: .string(token)]
            if let platform { fields[RequestField.platform] = .string(platform) }
            return fields
        case .contactsAdd(let qrCode, let isResponder, let isDependent):
            return [RequestField.qrCode: .string(qrCode), RequestField.isResponder: .bool(isResponder),
                    RequestField.isDependent: .bool(isDependent)]
        case .contactsRemove(let contactID), .pingSend(let contactID), .pingRespond(let contactID),
             .pingClear(let contactID):
            return [RequestField.contactID: .string(contactID)]
        case .contactsSetRoles(let contactID, let isResponder, let isDependent):
            return [RequestField.contactID: .string(contactID), RequestField.isResponder: .bool(isResponder),
                    RequestField.isDependent: .bool(isDependent)]
        case .alertTrigger(let message):
            return message.map { [RequestField.message: .string($0)] } ?? [:]
        case .notificationsList(let before, let limit):
            var fields: JSONObject = [RequestField.limit: .int(Int64(limit))]
            if let before { fields[RequestField.before] = .string(before) }
            return fields
        case .notificationsRead(let id), .notificationsDelete(let id):
            return [RequestField.id: .string(id)]
        case .qrRotate, .deviceUnregister, .devicesList, .contactsList, .checkIn, .alertCancel, .notificationsReadAll:
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
        if let name { fields[RequestField.name] = .string(name) }
        if let phone { fields[RequestField.phone] = phone.map(JSONValue.string) ?? .null }
        if let checkInIntervalSec { fields[RequestField.checkInIntervalSec] = .int(checkInIntervalSec) }
        var preferences: JSONObject = [:]
        if let push { preferences[RequestField.push] = .bool(push) }
        if let mutedTypes { preferences[RequestField.mutedTypes] = .array(mutedTypes.map { .string($0.rawValue) }) }
        if push != nil || mutedTypes != nil { fields[RequestField.preferences] = .object(preferences) }
        return fields
    }
}

/// The field names of device requests (§5), spelled once for reading and writing them.
enum RequestField {
    static let qrCode = "qrCode"
    static let token = "token"
    static let platform = "platform"
    static let isResponder = "isResponder"
    static let isDependent = "isDependent"
    static let contactID = "contactId"
    static let message = "message"
    static let limit = "limit"
    static let before = "before"
    static let id = "id"
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
}
