/// One entry of `devices.list` (PROTOCOL.md §5; `linkedAt` and `hasCredential` §12).
public struct DeviceInfo: Sendable, Hashable {
    public var device: String
    public var platform: String?
    public var hasToken: Bool
    public var online: Bool
    public var lastSeenAt: Int64?
    /// When the device got its own credential (`register` with `device`, or `signin`).
    public var linkedAt: Int64?
    /// Whether the device has a credential of its own (else it says hello with the account's).
    public var hasCredential: Bool

    public init(device: String, platform: String? = nil, hasToken: Bool, online: Bool, lastSeenAt: Int64? = nil,
                linkedAt: Int64? = nil, hasCredential: Bool = false) {
        self.device = device
        self.platform = platform
        self.hasToken = hasToken
        self.online = online
        self.lastSeenAt = lastSeenAt
        self.linkedAt = linkedAt
        self.hasCredential = hasCredential
    }

    public var json: JSONValue {
        .object(JSONObject(uniquePairs: [
            ("device", .string(device)),
            ("platform", platform.map(JSONValue.string) ?? .null),
            ("hasToken", .bool(hasToken)),
            ("online", .bool(online)),
            ("lastSeenAt", lastSeenAt.map(JSONValue.int) ?? .null),
            (FieldName.linkedAt, linkedAt.map(JSONValue.int) ?? .null),
            (FieldName.hasCredential, .bool(hasCredential)),
        ]))
    }

    /// A broker of version 1.1 sends neither `linkedAt` nor `hasCredential`.
    public init(json: JSONValue) throws(ProtocolError) {
        let context = "device"
        let object = try json.documentObject(context)
        device = try object.string("device", in: context)
        platform = try object.optionalString("platform", in: context)
        hasToken = try object.bool("hasToken", in: context)
        online = try object.bool("online", in: context)
        lastSeenAt = try object.optionalInt("lastSeenAt", in: context)
        linkedAt = try object.optionalInt(FieldName.linkedAt, in: context)
        hasCredential = try object.optionalBool(FieldName.hasCredential, in: context) ?? false
    }
}
