/// `register` (§3): a new account's name and phone, read and validated; and the request a client
/// sends for one.
public struct Register: Sendable, Equatable {
    public var name: String
    public var phone: String?

    public init(name: String, phone: String? = nil) {
        self.name = name
        self.phone = phone
    }

    public init(_ request: Request) throws(ProtocolError) {
        name = try Validate.name(try request.string(RequestField.name))
        phone = try request.optionalString(RequestField.phone).map { (phone) throws(ProtocolError) in
            try Validate.phone(phone)
        }
    }

    public var fields: JSONObject {
        var fields: JSONObject = [RequestField.name: .string(name)]
        if let phone { fields[RequestField.phone] = .string(phone) }
        return fields
    }
}

/// `hello` (§3): who a device says it is and where its events resume, read and validated; and
/// the request a client sends for one (always in this protocol's version).
public struct Hello: Sendable, Equatable {
    public var userID: String
    public var token: String
    public var deviceID: String
    public var platform: String?
    /// The seq of the last event the device applied.
    public var resume: Int64?

    public init(userID: String, token: String, deviceID: String, platform: String? = nil, resume: Int64? = nil) {
        self.userID = userID
        self.token = token
        self.deviceID = deviceID
        self.platform = platform
        self.resume = resume
    }

    /// Every field is checked before the version, so a hello of another version with a bad
    /// field is refused for the field.
    public init(_ request: Request) throws(ProtocolError) {
        let version = try request.int(RequestField.version)
        userID = try Validate.id(try request.string(RequestField.user), field: RequestField.user)
        token = try Validate.id(try request.string(RequestField.token), field: RequestField.token)
        deviceID = try Validate.deviceID(try request.string(RequestField.device))
        platform = try request.optionalString(RequestField.platform).map { (value) throws(ProtocolError) in
            try Validate.platform(value)
        }
        resume = try request.optionalInt(RequestField.resume)
        guard version == ProtocolVersion.current else {
            throw ProtocolError(.unsupportedVersion, "this broker speaks version \(ProtocolVersion.current)")
        }
    }

    public var fields: JSONObject {
        var fields: JSONObject = [
            RequestField.version: .int(ProtocolVersion.current), RequestField.user: .string(userID),
            RequestField.token: .string(token), RequestField.device: .string(deviceID),
        ]
        if let platform { fields[RequestField.platform] = .string(platform) }
        if let resume { fields[RequestField.resume] = .int(resume) }
        return fields
    }
}
