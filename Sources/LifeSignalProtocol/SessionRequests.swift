/// `register` (§3): a new account's name and phone, read and validated; and the request a client
/// sends for one.
public struct Register: Sendable, Equatable {
    public var name: String
    public var phone: String?
    /// v1.2 (§12): the registering device, which gets a token of its own.
    public var device: String?
    public var platform: String?

    public init(name: String, phone: String? = nil, device: String? = nil, platform: String? = nil) {
        self.name = name
        self.phone = phone
        self.device = device
        self.platform = platform
    }

    public init(_ request: Request) throws(ProtocolError) {
        name = try Validate.name(try request.string(FieldName.name))
        phone = try request.optionalString(FieldName.phone).map { (phone) throws(ProtocolError) in
            try Validate.phone(phone)
        }
        device = try request.optionalString(FieldName.device).map { (device) throws(ProtocolError) in
            try Validate.deviceID(device)
        }
        platform = try request.optionalString(FieldName.platform).map { (value) throws(ProtocolError) in
            try Validate.platform(value)
        }
    }

    public var fields: JSONObject {
        var fields: JSONObject = [FieldName.name: .string(name)]
        if let phone { fields[FieldName.phone] = .string(phone) }
        if let device { fields[FieldName.device] = .string(device) }
        if let platform { fields[FieldName.platform] = .string(platform) }
        return fields
    }
}

/// `hello` (§3): who a device says it is and where its events resume, read and validated; and
/// the request a client sends for one.
public struct Hello: Sendable, Equatable {
    /// One of `ProtocolVersion.supported`.
    public var version: Int64
    public var userID: String
    public var token: String
    public var deviceID: String
    public var platform: String?
    /// The seq of the last event the device applied.
    public var resume: Int64?

    public init(userID: String, token: String, deviceID: String, platform: String? = nil, resume: Int64? = nil,
                version: Int64 = ProtocolVersion.current) {
        self.version = version
        self.userID = userID
        self.token = token
        self.deviceID = deviceID
        self.platform = platform
        self.resume = resume
    }

    /// Every field is checked before the version, so a hello of another version with a bad
    /// field is refused for the field.
    public init(_ request: Request) throws(ProtocolError) {
        version = try request.int(FieldName.version)
        userID = try Validate.id(try request.string(FieldName.user), field: FieldName.user)
        token = try Validate.id(try request.string(FieldName.token), field: FieldName.token)
        deviceID = try Validate.deviceID(try request.string(FieldName.device))
        platform = try request.optionalString(FieldName.platform).map { (value) throws(ProtocolError) in
            try Validate.platform(value)
        }
        resume = try request.optionalInt(FieldName.resume)
        guard ProtocolVersion.supported.contains(version) else {
            throw ProtocolError(.unsupportedVersion, "this broker speaks versions \(ProtocolVersion.v1) and \(ProtocolVersion.v1_2)")
        }
    }

    public var fields: JSONObject {
        var fields: JSONObject = [
            FieldName.version: .int(version), FieldName.user: .string(userID),
            FieldName.token: .string(token), FieldName.device: .string(deviceID),
        ]
        if let platform { fields[FieldName.platform] = .string(platform) }
        if let resume { fields[FieldName.resume] = .int(resume) }
        return fields
    }
}

/// `signin` (§12, before hello): a new device spends a link code and gets a token of its own.
public struct Signin: Sendable, Equatable {
    public var code: String
    public var device: String
    public var platform: String?

    public init(code: String, device: String, platform: String? = nil) {
        self.code = code
        self.device = device
        self.platform = platform
    }

    public init(_ request: Request) throws(ProtocolError) {
        code = try Validate.id(try request.string(FieldName.code), field: FieldName.code)
        device = try Validate.deviceID(try request.string(FieldName.device))
        platform = try request.optionalString(FieldName.platform).map { (value) throws(ProtocolError) in
            try Validate.platform(value)
        }
    }

    public var fields: JSONObject {
        var fields: JSONObject = [FieldName.code: .string(code), FieldName.device: .string(device)]
        if let platform { fields[FieldName.platform] = .string(platform) }
        return fields
    }
}
