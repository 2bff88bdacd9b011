/// One entry of `devices.list` (PROTOCOL.md §5).
public struct DeviceInfo: Sendable, Hashable {
    public var device: String
    public var platform: String?
    public var hasToken: Bool
    public var online: Bool
    public var lastSeenAt: Int64?

    public init(device: String, platform: String? = nil, hasToken: Bool, online: Bool, lastSeenAt: Int64? = nil) {
        self.device = device
        self.platform = platform
        self.hasToken = hasToken
        self.online = online
        self.lastSeenAt = lastSeenAt
    }

    public var json: JSONValue {
        .object(JSONObject(uniquePairs: [
            ("device", .string(device)),
            ("platform", platform.map(JSONValue.string) ?? .null),
            ("hasToken", .bool(hasToken)),
            ("online", .bool(online)),
            ("lastSeenAt", lastSeenAt.map(JSONValue.int) ?? .null),
        ]))
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let context = "device"
        let object = try json.documentObject(context)
        device = try object.string("device", in: context)
        platform = try object.optionalString("platform", in: context)
        hasToken = try object.bool("hasToken", in: context)
        online = try object.bool("online", in: context)
        lastSeenAt = try object.optionalInt("lastSeenAt", in: context)
    }
}
