import LifeSignalProtocol

/// The field reads and §10 checks the broker makes for each op before it touches any state, in the
/// broker's order (Broker+Unauthenticated.swift, Session/UserSession+*.swift), so fuzzed requests
/// reach them without a broker. What the checks return is checked too, and every string check must
/// accept exactly what §10 allows (`SpecStringRule`, in characters and in bytes): `broken` lists
/// violations.
struct BrokerFieldRules {
    private(set) var broken: [String] = []

    mutating func apply(to request: Request) throws(ProtocolError) {
        switch request.op {
        case Op.register:
            try name(request.string("name"))
            if let phone = try request.optionalString("phone") { try self.phone(phone) }
            if let device = try request.optionalString("device") { try deviceID(device) }
            if let platform = try request.optionalString("platform") { try self.platform(platform) }
        case Op.signin:
            try id(request.string("code"), "code")
            try deviceID(request.string("device"))
            if let platform = try request.optionalString("platform") { try self.platform(platform) }
        case Op.hello:
            let version = try request.int("version")
            try id(request.string("user"), "user")
            try id(request.string("token"), "token")
            try deviceID(request.string("device"))
            if let platform = try request.optionalString("platform") { try self.platform(platform) }
            _ = try request.optionalInt("resume")
            if !ProtocolVersion.supported.contains(version) { throw .unsupportedVersion("version \(version)") }
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
            let token = try agreeing(.pushToken, "token", request.string("token"), Validate.pushToken)
            note((1...Validate.maxPushTokenLength).contains(token.utf8.count), "token of \(token.utf8.count) bytes")
            if let platform = try request.optionalString("platform") { try self.platform(platform) }
        case Op.contactsAdd:
            try id(request.string("qrCode"), "qrCode")
            _ = try request.bool("isResponder")
            _ = try request.bool("isDependent")
        case Op.qrLookup:
            try id(request.string("qrCode"), "qrCode")
        case Op.contactsSetRoles:
            _ = try request.bool("isResponder")
            _ = try request.bool("isDependent")
            try id(request.string("contactId"), "contactId")
        case Op.contactsRemove, Op.pingSend, Op.pingRespond, Op.pingClear:
            try id(request.string("contactId"), "contactId")
        case Op.alertTrigger:
            if let message = try request.optionalString("message") {
                let checked = try agreeing(.message, "message", message, Validate.message)
                note(checked == message, "message changed")
            }
        case Op.notificationsList:
            let limit = try request.optionalInt("limit") ?? 100
            guard (1...100).contains(limit) else { throw .badRequest("field 'limit' must be 1…100") }
            if let before = try request.optionalString("before") { try id(before, "before") }
        case Op.notificationsRead, Op.notificationsDelete:
            try id(request.string("id"), "id")
        case Op.deviceRevoke:
            try deviceID(request.string("device"))
        case Op.accountDelete:
            // Compared with the user's name by the rule, which only the broker knows.
            _ = try request.string("confirm")
        case Op.keepalive, Op.bye, Op.qrRotate, Op.deviceUnregister, Op.devicesList, Op.contactsList, Op.checkIn,
            Op.alertCancel, Op.notificationsReadAll, Op.deviceLink:
            break
        default:
            throw .unknownOp("unknown op '\(request.op)'")
        }
    }

    // MARK: - Checks whose results are checked

    /// Trimmed, 1–100 characters and at most 400 bytes, no control characters; and checking it
    /// again changes nothing.
    private mutating func name(_ raw: String) throws(ProtocolError) {
        let name = try agreeing(.name, "name", raw) { (raw) throws(ProtocolError) in try Validate.name(raw) }
        note((1...Validate.maxNameLength).contains(name.count), "name of \(name.count) characters")
        note(name.utf8.count <= Validate.maxNameBytes, "name of \(name.utf8.count) bytes")
        note(name.first?.isWhitespace == false && name.last?.isWhitespace == false, "name not trimmed")
        note(!name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "control in name")
        note((try? Validate.name(name)) == name, "name not stable under Validate.name")
    }

    private mutating func phone(_ raw: String) throws(ProtocolError) {
        let phone = try agreeing(.phone, "phone", raw, Validate.phone)
        note(phone.utf8.count <= Validate.maxPhoneLength, "phone of \(phone.utf8.count) bytes")
        note((try? Validate.phone(phone)) == phone, "phone not stable under Validate.phone")
    }

    private mutating func id(_ raw: String, _ field: String) throws(ProtocolError) {
        let id = try agreeing(.opaque, field, raw) { (raw) throws(ProtocolError) in try Validate.id(raw, field: field) }
        note(id == raw && (1...Validate.maxIDLength).contains(id.utf8.count), "\(field) of \(id.utf8.count) bytes")
    }

    private mutating func deviceID(_ raw: String) throws(ProtocolError) {
        let device = try agreeing(.deviceName, "device", raw, Validate.deviceID)
        note(
            device == raw && (1...Validate.maxDeviceIDLength).contains(device.utf8.count)
                && device.utf8.allSatisfy { $0 < 0x80 },
            "device id \(device.debugDescription)")
    }

    private mutating func platform(_ raw: String) throws(ProtocolError) {
        let platform = try agreeing(.deviceName, "platform", raw, Validate.platform)
        note(
            platform == raw && (1...Validate.maxPlatformLength).contains(platform.utf8.count)
                && platform.utf8.allSatisfy { $0 < 0x80 },
            "platform \(platform.debugDescription)")
    }

    /// `validate(raw)`, noting where it disagrees with §10: a string the spec allows refused, or
    /// one it does not allow accepted.
    private mutating func agreeing(
        _ rule: SpecStringRule, _ field: String, _ raw: String,
        _ validate: (String) throws(ProtocolError) -> String
    ) throws(ProtocolError) -> String {
        let allowed = rule.allows(raw)
        do {
            let value = try validate(raw)
            note(allowed, "accepted a \(field) §10 does not allow: \(Self.describe(raw))")
            return value
        } catch {
            note(!allowed, "refused a \(field) §10 allows: \(Self.describe(raw))")
            throw error
        }
    }

    private static func describe(_ s: String) -> String {
        "\(s.count) characters, \(s.utf8.count) bytes, \(String(s.prefix(24)).debugDescription)…"
    }

    private mutating func note(_ holds: Bool, _ violation: @autoclosure () -> String) {
        if !holds { broken.append(violation()) }
    }
}
