/// Everything a `LifeSignalClient` needs to reach the broker and say `hello` (PROTOCOL.md §3).
public struct ClientConfiguration: Sendable {
    /// The brokers to connect to, in order: any of them serves the device (PROTOCOL §11). A
    /// failed connect or a lost connection moves to the next one.
    public var endpoints: [Endpoint]
    /// The first endpoint's host: an IP literal or a name.
    public var host: String {
        get { endpoints[0].host }
        set { endpoints[0].host = newValue }
    }
    /// The first endpoint's port (default 7420).
    public var port: Int {
        get { endpoints[0].port }
        set { endpoints[0].port = newValue }
    }
    public var userID: String
    /// What `hello` says, unless `credentials` gives the token.
    public var token: String
    /// Called before every connection attempt for the token to say `hello` with (from the
    /// keychain, say, or renewed): a device's token that changed is used at the next attempt
    /// without a new client. A throw fails that attempt (`connectionFailed`), and so does no
    /// answer within `responseTimeoutMs` (`timedOut`); nil: `token`.
    public var credentials: (@Sendable () async throws -> String)?
    /// 1–64 characters of `[A-Za-z0-9._:-]`; one connection per (user, device).
    public var deviceID: String
    /// Free text such as "ios", "android", "cli"; sent in `hello` when set.
    public var platform: String?
    /// State saved by an earlier run: `hello` resumes from its `lastSeq`, so only what was missed is
    /// sent. Ignored if it belongs to another user.
    public var initialState: DeviceState?
    public var reconnect: ReconnectPolicy
    /// The largest frame this client accepts from the broker. Snapshots can be big, so it is generous.
    public var maxIncomingFrameBytes: Int
    /// How long a broker has to answer `hello` or any request (keepalives included), and to go on
    /// sending the catch-up. One that takes longer (frozen, or wedged) is left: what is in flight
    /// fails with `.timedOut` and the client moves to the next endpoint, as after a lost connection.
    public var responseTimeoutMs: UInt64
    /// TLS to every endpoint (a broker behind a TLS-terminating proxy); nil: plain TCP.
    public var tls: ClientTLS?
    /// Where queued writes wait until answered (`LifeSignalClient.enqueue`); none: no outbox.
    public var outbox: (any OutboxStorage)?
    /// Where the client keeps its last state between runs (`FileStateCache`); none: nothing kept.
    /// A new client shows the cached state at once, before it connects, unless `initialState` is
    /// given, and resumes from it. Saved shortly after each change and on `close()`, `bye()` and
    /// `didEnterBackground()`; cleared when the account is deleted or the device signed out.
    public var stateCache: (any StateCache)?

    public init(
        host: String = "127.0.0.1",
        port: Int = 7420,
        userID: String,
        token: String,
        deviceID: String,
        platform: String? = nil,
        initialState: DeviceState? = nil,
        reconnect: ReconnectPolicy = .default,
        maxIncomingFrameBytes: Int = 16 << 20,
        responseTimeoutMs: UInt64 = defaultResponseTimeoutMs,
        tls: ClientTLS? = nil
    ) {
        self.init(endpoints: [Endpoint(host: host, port: port)], userID: userID, token: token, deviceID: deviceID,
                  platform: platform, initialState: initialState, reconnect: reconnect,
                  maxIncomingFrameBytes: maxIncomingFrameBytes, responseTimeoutMs: responseTimeoutMs, tls: tls)
    }

    /// - Precondition: `endpoints` is not empty.
    public init(
        endpoints: [Endpoint],
        userID: String,
        token: String,
        deviceID: String,
        platform: String? = nil,
        initialState: DeviceState? = nil,
        reconnect: ReconnectPolicy = .default,
        maxIncomingFrameBytes: Int = 16 << 20,
        responseTimeoutMs: UInt64 = defaultResponseTimeoutMs,
        tls: ClientTLS? = nil
    ) {
        precondition(!endpoints.isEmpty, "a client needs at least one broker endpoint")
        self.endpoints = endpoints
        self.userID = userID
        self.token = token
        self.deviceID = deviceID
        self.platform = platform
        self.initialState = initialState
        self.reconnect = reconnect
        self.maxIncomingFrameBytes = maxIncomingFrameBytes
        self.responseTimeoutMs = max(1, responseTimeoutMs)
        self.tls = tls
    }

    /// Longer than a broker's own store deadline, so that a broker that cannot commit answers
    /// `internal` or `overloaded` before the client gives up on it.
    public static let defaultResponseTimeoutMs: UInt64 = 10_000
}
