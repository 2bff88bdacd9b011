/// The broker's answer to `hello` (PROTOCOL.md §3): written by the broker (`fields`), read by a
/// device (`init(fields:)`).
public struct HelloResult: Sendable, Equatable {
    public var session: String
    public var user: User
    /// The user's last event seq when the session started; the catch-up ends here.
    public var lastSeq: Int64
    public var heartbeatMs: Int64
    /// The largest request frame body the broker accepts.
    public var maxFrameBytes: Int
    public var serverTime: Int64
    /// The id of the broker serving this connection (v1.1, for diagnostics); nil from a v1.0 broker.
    public var broker: String?
    /// The version the session speaks when the device said v1.2 or later (§12); nil for version 1.
    public var version: Int64?

    public init(
        session: String, user: User, lastSeq: Int64, heartbeatMs: Int64, maxFrameBytes: Int, serverTime: Int64,
        broker: String? = nil, version: Int64? = nil
    ) {
        self.version = version
        self.session = session
        self.user = user
        self.lastSeq = lastSeq
        self.heartbeatMs = heartbeatMs
        self.maxFrameBytes = maxFrameBytes
        self.serverTime = serverTime
        self.broker = broker
    }

    /// Reads the fields of hello's `ok`.
    public init(fields: JSONObject) throws(ProtocolError) {
        session = try fields.string(FieldName.session)
        guard let user = fields[FieldName.user] else { throw .badRequest("missing field '\(FieldName.user)'") }
        self.user = try User(json: user)
        lastSeq = try fields.int(FieldName.lastSeq)
        heartbeatMs = try fields.int(FieldName.heartbeatMs)
        guard heartbeatMs > 0 else { throw .badRequest("field '\(FieldName.heartbeatMs)' must be positive") }
        let maxFrame = try fields.int(FieldName.maxFrameBytes)
        guard let maxFrameBytes = Int(exactly: maxFrame), maxFrameBytes >= 2 else {
            throw .badRequest("field '\(FieldName.maxFrameBytes)' must be at least 2")
        }
        self.maxFrameBytes = maxFrameBytes
        serverTime = try fields.int(FieldName.serverTime)
        broker = try fields.optionalString(FieldName.broker)
        version = try fields.optionalInt(FieldName.version)
    }

    /// The fields of hello's `ok`, as the broker writes them.
    public var fields: JSONObject {
        var fields: JSONObject = [
            FieldName.session: .string(session),
            FieldName.user: user.json,
            FieldName.lastSeq: .int(lastSeq),
            FieldName.heartbeatMs: .int(heartbeatMs),
            FieldName.maxFrameBytes: .int(Int64(maxFrameBytes)),
            FieldName.serverTime: .int(serverTime),
        ]
        fields[FieldName.broker] = broker.map(JSONValue.string)
        fields[FieldName.version] = version.map(JSONValue.int)
        return fields
    }

    /// The fields as the broker sent them.
    public var json: JSONValue { .object(fields) }
}
