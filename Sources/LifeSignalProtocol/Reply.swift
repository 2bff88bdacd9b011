/// What an `ok` carries besides `op` and `rid` (§3, §5): written by the broker as fields, read
/// back by a device that knows what it asked, each field name spelled once here
/// (`ReplyRoundTripTests`).
public enum Reply: Sendable, Equatable {
    /// `bye`, `contacts.remove`, `ping.respond`, `ping.clear`, `alert.cancel`,
    /// `notifications.read` and `.delete`, `device.register` and `.unregister`.
    case empty
    /// `register`: the new user and the token their devices say hello with; with `device` given
    /// (§12), that device's own token too.
    case registered(User, token: String, deviceToken: String? = nil)
    /// `hello`: the session, where the catch-up ends and the connection's terms.
    case hello(HelloResult)
    /// `keepalive`: the broker's clock.
    case serverTime(Int64)
    /// `profile.update` and `checkin`: the user's document as it now is.
    case user(User)
    /// `qr.rotate`: the new code.
    case qrCode(String)
    /// `qr.lookup` (v1.2): whose code it is.
    case qrCodeOwner(QRCodeOwner)
    /// `contacts.add` and `contacts.setRoles`: the user's view of the contact.
    case contact(Contact)
    case contacts([Contact])
    case devices([DeviceInfo])
    /// `ping.send`.
    case ping(id: String)
    /// `alert.trigger`: the new alert, or the one already active.
    case alert(id: String)
    /// `notifications.list`: newest first, with the user's unread count.
    case notifications([Notification], unreadCount: Int64)
    /// `notifications.readAll`: how many were marked read.
    case readAll(count: Int64)
    /// `device.link` (§12): the one-time code and when it expires.
    case linkCode(String, expiresAt: Int64)
    /// `signin` (§12): whose device it now is, and its own token.
    case signedIn(User, deviceToken: String)

    /// The user of a `.user` reply.
    public var user: User? { if case .user(let user) = self { user } else { nil } }

    /// The contact of a `.contact` reply.
    public var contact: Contact? { if case .contact(let contact) = self { contact } else { nil } }

    /// The fields the broker writes into the `ok`.
    public var fields: JSONObject {
        switch self {
        case .empty: [:]
        case .registered(let user, let token, let deviceToken):
            Self.registeredFields(user, token: token, deviceToken: deviceToken)
        case .hello(let hello): hello.fields
        case .serverTime(let time): [FieldName.serverTime: .int(time)]
        case .user(let user): [FieldName.user: user.json]
        case .qrCode(let code): [FieldName.qrCode: .string(code)]
        case .qrCodeOwner(let owner): [FieldName.contact: owner.json]
        case .contact(let contact): [FieldName.contact: contact.json]
        case .contacts(let contacts): [FieldName.contacts: .array(contacts.map(\.json))]
        case .devices(let devices): [FieldName.devices: .array(devices.map(\.json))]
        case .ping(let id): [FieldName.pingID: .string(id)]
        case .alert(let id): [FieldName.alertID: .string(id)]
        case .notifications(let page, let unreadCount):
            [FieldName.notifications: .array(page.map(\.json)), FieldName.unreadCount: .int(unreadCount)]
        case .readAll(let count): [FieldName.count: .int(count)]
        case .linkCode(let code, let expiresAt): [FieldName.code: .string(code), FieldName.expiresAt: .int(expiresAt)]
        case .signedIn(let user, let deviceToken): [FieldName.user: user.json, FieldName.deviceToken: .string(deviceToken)]
        }
    }

    /// Reads the `ok` that answered `op` (the wire name a device sent). An op whose `ok` carries
    /// nothing, or one this version does not know, is `.empty`.
    public init(answering op: String, fields: JSONObject) throws(ProtocolError) {
        switch op {
        case Op.register:
            self = .registered(try User(json: Self.field(FieldName.user, of: fields)),
                               token: try fields.string(FieldName.token),
                               deviceToken: try fields.optionalString(FieldName.deviceToken))
        case Op.hello: self = .hello(try HelloResult(fields: fields))
        case Op.keepalive: self = .serverTime(try fields.int(FieldName.serverTime))
        case Op.profileUpdate, Op.checkIn: self = .user(try User(json: Self.field(FieldName.user, of: fields)))
        case Op.qrRotate: self = .qrCode(try fields.string(FieldName.qrCode))
        case Op.qrLookup: self = .qrCodeOwner(try QRCodeOwner(json: Self.field(FieldName.contact, of: fields)))
        case Op.contactsAdd, Op.contactsSetRoles:
            self = .contact(try Contact(json: Self.field(FieldName.contact, of: fields)))
        case Op.contactsList: self = .contacts(try Self.list(FieldName.contacts, of: fields, Contact.init(json:)))
        case Op.devicesList: self = .devices(try Self.list(FieldName.devices, of: fields, DeviceInfo.init(json:)))
        case Op.pingSend: self = .ping(id: try fields.string(FieldName.pingID))
        case Op.alertTrigger: self = .alert(id: try fields.string(FieldName.alertID))
        case Op.notificationsList:
            let unread = try fields.int(FieldName.unreadCount)
            guard unread >= 0 else { throw .badRequest("field '\(FieldName.unreadCount)' must not be negative") }
            self = .notifications(try Self.list(FieldName.notifications, of: fields, Notification.ofKnownType(json:))
                                    .compactMap { $0 },
                                  unreadCount: unread)
        case Op.notificationsReadAll: self = .readAll(count: try fields.int(FieldName.count))
        case Op.signin:
            self = .signedIn(try User(json: Self.field(FieldName.user, of: fields)),
                             deviceToken: try fields.string(FieldName.deviceToken))
        case Op.deviceLink: self = .linkCode(try fields.string(FieldName.code), expiresAt: try fields.int(FieldName.expiresAt))
        default: self = .empty
        }
    }

    private static func registeredFields(_ user: User, token: String, deviceToken: String?) -> JSONObject {
        var fields: JSONObject = [FieldName.user: user.json, FieldName.token: .string(token)]
        if let deviceToken { fields[FieldName.deviceToken] = .string(deviceToken) }
        return fields
    }

    private static func field(_ key: String, of fields: JSONObject) throws(ProtocolError) -> JSONValue {
        guard let value = fields[key] else { throw .badRequest("missing field '\(key)'") }
        return value
    }

    private static func list<Element>(_ key: String, of fields: JSONObject,
                                      _ read: (JSONValue) throws(ProtocolError) -> Element) throws(ProtocolError)
        -> [Element]
    {
        var elements: [Element] = []
        for element in try fields.array(key) { elements.append(try read(element)) }
        return elements
    }
}
