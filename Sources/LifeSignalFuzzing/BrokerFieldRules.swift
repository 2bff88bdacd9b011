import LifeSignalProtocol

/// The field reads and §10 checks the broker makes for each op before it touches any state, in the
/// broker's order (Broker+Unauthenticated.swift, Session/UserSession+*.swift), so fuzzed requests
/// reach them without a broker. What the checks return is checked too: `broken` lists violations.
struct BrokerFieldRules {
    private(set) var broken: [String] = []

    mutating func apply(to request: Request) throws(ProtocolError) {
        switch request.op {
        case Op.register:
            try name(request.string("name"))
            if let phone = try request.optionalString("phone") { try self.phone(phone) }
        case Op.hello:
            let version = try request.int("version")
            try id(request.string("user"), "user")
            _ = try request.string("token")
            try deviceID(request.string("device"))
            if let platform = try request.optionalString("platform") { try id(platform, "platform") }
            _ = try request.optionalInt("resume")
            if version != ProtocolVersion.current { throw .unsupportedVersion("version \(version)") }
        case Op.profileUpdate:
            if let name = try request.optionalString("name") { try self.name(name) }
            if request.has("phone"), let phone = try request.optionalString("phone") { try self.phone(phone) }
            if let interval = try request.optionalInt("checkInIntervalSec") {
                let checked = try Validate.checkInInterval(interval, minimum: 60)
                let allowed = 60...Validate.maxCheckInIntervalSec
                note(checked == interval && allowed.contains(checked), "interval \(checked)")
            }
            if let preferences = try request.optionalObject("preferences") {
                let merged = try Preferences().merging(.object(preferences))
                note(Set(merged.mutedTypes).count == merged.mutedTypes.count, "muted types repeat")
            }
        case Op.deviceRegister:
            let token = try Validate.pushToken(try request.string("token"))
            note(!token.isEmpty && token.count <= Validate.maxPushTokenLength, "token of \(token.count) characters")
            if let platform = try request.optionalString("platform") { try id(platform, "platform") }
        case Op.contactsAdd:
            _ = try request.string("qrCode")
            _ = try request.bool("isResponder")
            _ = try request.bool("isDependent")
        case Op.contactsSetRoles:
            _ = try request.bool("isResponder")
            _ = try request.bool("isDependent")
            try id(request.string("contactId"), "contactId")
        case Op.contactsRemove, Op.pingSend, Op.pingRespond, Op.pingClear:
            try id(request.string("contactId"), "contactId")
        case Op.alertTrigger:
            if let message = try request.optionalString("message") {
                let checked = try Validate.message(message)
                note(checked == message && checked.count <= Validate.maxMessageLength, "message changed")
            }
        case Op.notificationsList:
            let limit = try request.optionalInt("limit") ?? 100
            guard (1...100).contains(limit) else { throw .badRequest("field 'limit' must be 1…100") }
            if let before = try request.optionalString("before") { try id(before, "before") }
        case Op.notificationsRead, Op.notificationsDelete:
            try id(request.string("id"), "id")
        case Op.keepalive, Op.bye, Op.qrRotate, Op.deviceUnregister, Op.devicesList, Op.contactsList, Op.checkIn,
            Op.alertCancel, Op.notificationsReadAll:
            break
        default:
            throw .unknownOp("unknown op '\(request.op)'")
        }
    }

    // MARK: - Checks whose results are checked

    /// Trimmed, 1–100 characters, no control characters; and checking it again changes nothing.
    private mutating func name(_ raw: String) throws(ProtocolError) {
        let name = try Validate.name(raw)
        note((1...Validate.maxNameLength).contains(name.count), "name of \(name.count) characters")
        note(name.first?.isWhitespace == false && name.last?.isWhitespace == false, "name not trimmed")
        note(!name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "control in name")
        note((try? Validate.name(name)) == name, "name not stable under Validate.name")
    }

    private mutating func phone(_ raw: String) throws(ProtocolError) {
        let phone = try Validate.phone(raw)
        note(phone.count <= Validate.maxPhoneLength, "phone of \(phone.count) characters")
        note((try? Validate.phone(phone)) == phone, "phone not stable under Validate.phone")
    }

    private mutating func id(_ raw: String, _ field: String) throws(ProtocolError) {
        let id = try Validate.id(raw, field: field)
        note(id == raw && !id.isEmpty && id.count <= Validate.maxIDLength, "\(field) of \(id.count) characters")
    }

    private mutating func deviceID(_ raw: String) throws(ProtocolError) {
        let device = try Validate.deviceID(raw)
        note(
            device == raw && (1...Validate.maxDeviceIDLength).contains(device.utf8.count)
                && device.utf8.allSatisfy { $0 < 0x80 },
            "device id \(device.debugDescription)")
    }

    private mutating func note(_ holds: Bool, _ violation: @autoclosure () -> String) {
        if !holds { broken.append(violation()) }
    }
}
