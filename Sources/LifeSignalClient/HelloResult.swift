import LifeSignalProtocol

/// The broker's answer to `hello` (PROTOCOL.md §3).
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

    public init(
        session: String, user: User, lastSeq: Int64, heartbeatMs: Int64, maxFrameBytes: Int, serverTime: Int64,
        broker: String? = nil
    ) {
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
        session = try fields.string("session")
        guard let user = fields["user"] else { throw .badRequest("missing field 'user'") }
        self.user = try User(json: user)
        lastSeq = try fields.int("lastSeq")
        heartbeatMs = try fields.int("heartbeatMs")
        guard heartbeatMs > 0 else { throw .badRequest("field 'heartbeatMs' must be positive") }
        let maxFrame = try fields.int("maxFrameBytes")
        guard let maxFrameBytes = Int(exactly: maxFrame), maxFrameBytes >= 2 else {
            throw .badRequest("field 'maxFrameBytes' must be at least 2")
        }
        self.maxFrameBytes = maxFrameBytes
        serverTime = try fields.int("serverTime")
        broker = try fields.optionalString("broker")
    }

    /// The fields as the broker sent them.
    public var json: JSONValue {
        var fields: JSONObject = [
            "session": .string(session),
            "user": user.json,
            "lastSeq": .int(lastSeq),
            "heartbeatMs": .int(heartbeatMs),
            "maxFrameBytes": .int(Int64(maxFrameBytes)),
            "serverTime": .int(serverTime),
        ]
        fields["broker"] = broker.map(JSONValue.string)
        return .object(fields)
    }
}
