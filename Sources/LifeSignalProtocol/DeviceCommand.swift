/// What an authenticated device asks for (PROTOCOL §5), its fields read and validated: every
/// executor dispatches on this, so that each op's fields are read, and refused, in one place.
/// `keepalive`, `bye` and a second `hello` (§3) are the connection's, not a command.
public enum DeviceCommand: Sendable, Equatable {
    case profileUpdate(ProfileUpdate)
    case qrRotate
    case qrLookup(qrCode: String)
    case deviceRegister(token: String, platform: String?)
    case deviceUnregister
    case devicesList
    case contactsAdd(qrCode: String, isResponder: Bool, isDependent: Bool)
    case contactsRemove(contactID: String)
    case contactsSetRoles(contactID: String, isResponder: Bool, isDependent: Bool)
    case contactsList
    case pingSend(contactID: String)
    case pingRespond(contactID: String)
    case pingClear(contactID: String)
    case checkIn
    case alertTrigger(message: String?)
    case alertCancel
    case notificationsList(before: String?, limit: Int)
    case notificationsRead(id: String)
    case notificationsReadAll
    case notificationsDelete(id: String)
    /// `confirm`: the user's current name, as the user typed it to confirm (§12).
    case accountDelete(confirm: String)
    /// A one-time code for linking a new device (§12).
    case deviceLink
    /// That device's credential, push token and stored device go (§12).
    case deviceRevoke(device: String)

    /// Reads `request`: `unknown_op` for an op that is not a device's, `bad_request` for a
    /// missing, mistyped or invalid field.
    public init(_ request: Request) throws(ProtocolError) {
        switch request.op {
        case Op.profileUpdate: self = .profileUpdate(try ProfileUpdate(request))
        case Op.qrRotate: self = .qrRotate
        case Op.qrLookup: self = .qrLookup(qrCode: try Self.qrCode(request))
        case Op.deviceRegister:
            self = .deviceRegister(
                token: try Validate.pushToken(try request.string(FieldName.token)),
                platform: try request.optionalString(FieldName.platform).map { (value) throws(ProtocolError) in
                    try Validate.platform(value)
                })
        case Op.deviceUnregister: self = .deviceUnregister
        case Op.devicesList: self = .devicesList
        case Op.contactsAdd:
            self = .contactsAdd(qrCode: try Self.qrCode(request),
                                isResponder: try request.bool(FieldName.isResponder), isDependent: try request.bool(FieldName.isDependent))
        case Op.contactsRemove: self = .contactsRemove(contactID: try Self.contactID(request))
        case Op.contactsSetRoles:
            // The roles first: the order in which a request with several bad fields is refused.
            let (isResponder, isDependent) = (try request.bool(FieldName.isResponder), try request.bool(FieldName.isDependent))
            self = .contactsSetRoles(contactID: try Self.contactID(request), isResponder: isResponder,
                                     isDependent: isDependent)
        case Op.contactsList: self = .contactsList
        case Op.pingSend: self = .pingSend(contactID: try Self.contactID(request))
        case Op.pingRespond: self = .pingRespond(contactID: try Self.contactID(request))
        case Op.pingClear: self = .pingClear(contactID: try Self.contactID(request))
        case Op.checkIn: self = .checkIn
        case Op.alertTrigger:
            self = .alertTrigger(message: try request.optionalString(FieldName.message).map { (text) throws(ProtocolError) in
                try Validate.message(text)
            })
        case Op.alertCancel: self = .alertCancel
        case Op.notificationsList:
            let limit = try request.optionalInt(FieldName.limit) ?? Int64(Validate.notificationPage)
            guard (1...Int64(Validate.notificationPage)).contains(limit) else {
                throw .badRequest("field 'limit' must be 1…\(Validate.notificationPage)")
            }
            let before = try request.optionalString(FieldName.before).map { (id) throws(ProtocolError) in
                try Validate.id(id, field: FieldName.before)
            }
            self = .notificationsList(before: before, limit: Int(limit))
        case Op.notificationsRead: self = .notificationsRead(id: try Self.notificationID(request))
        case Op.notificationsReadAll: self = .notificationsReadAll
        case Op.notificationsDelete: self = .notificationsDelete(id: try Self.notificationID(request))
        case Op.accountDelete: self = .accountDelete(confirm: try request.string(FieldName.confirm))
        case Op.deviceLink: self = .deviceLink
        case Op.deviceRevoke: self = .deviceRevoke(device: try Validate.deviceID(try request.string(FieldName.device)))
        default: throw ProtocolError(.unknownOp, "unknown op '\(request.op)'")
        }
    }

    private static func qrCode(_ request: Request) throws(ProtocolError) -> String {
        try Validate.id(try request.string(FieldName.qrCode), field: FieldName.qrCode)
    }

    private static func contactID(_ request: Request) throws(ProtocolError) -> String {
        try Validate.id(try request.string(FieldName.contactID), field: FieldName.contactID)
    }

    private static func notificationID(_ request: Request) throws(ProtocolError) -> String {
        try Validate.id(try request.string(FieldName.id), field: FieldName.id)
    }
}

/// The fields a `profile.update` gives (§5), each validated; a field left out stays as it is.
public struct ProfileUpdate: Sendable, Equatable {
    public var name: String?
    /// `.some(nil)`: the phone number is removed.
    public var phone: String??
    /// Checked against the broker's minimum by the rule, which knows it.
    public var checkInIntervalSec: Int64?
    public var push: Bool?
    public var mutedTypes: [NotificationType]?

    public init(name: String? = nil, phone: String?? = nil, checkInIntervalSec: Int64? = nil, push: Bool? = nil,
                mutedTypes: [NotificationType]? = nil) {
        self.name = name
        self.phone = phone
        self.checkInIntervalSec = checkInIntervalSec
        self.push = push
        self.mutedTypes = mutedTypes
    }

    init(_ request: Request) throws(ProtocolError) {
        if let name = try request.optionalString(FieldName.name) { self.name = try Validate.name(name) }
        if request.has(FieldName.phone) {
            phone = .some(try request.optionalString(FieldName.phone).map { (phone) throws(ProtocolError) in
                try Validate.phone(phone)
            })
        }
        checkInIntervalSec = try request.optionalInt(FieldName.checkInIntervalSec)
        guard let preferences = try request.optionalObject(FieldName.preferences) else { return }
        if let value = preferences[FieldName.push] {
            guard let push = value.boolValue else { throw .badRequest("field 'preferences.push' must be a boolean") }
            self.push = push
        }
        if let muted = preferences[FieldName.mutedTypes] {
            guard let items = muted.arrayValue else {
                throw .badRequest("field 'preferences.mutedTypes' must be an array of notification types")
            }
            var types: [NotificationType] = []
            for item in items {
                guard let type = item.stringValue.flatMap(NotificationType.init(rawValue:)) else {
                    throw .badRequest("field 'preferences.mutedTypes' has an unknown notification type")
                }
                if !types.contains(type) { types.append(type) }
            }
            mutedTypes = types
        }
    }

    /// `preferences` with the changes this update gives.
    public func applied(to preferences: Preferences) -> Preferences {
        var result = preferences
        if let push { result.push = push }
        if let mutedTypes { result.mutedTypes = mutedTypes }
        return result
    }
}
