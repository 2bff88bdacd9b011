import LifeSignalProtocol
import Logging
import NIOCore

/// A device's connection to the LifeSignal broker (PROTOCOL.md): `hello` with resume, pipelined
/// requests, a `DeviceState` kept current from the catch-up and live events, keepalives, and
/// automatic reconnection that resumes from the last applied seq.
///
/// The actor runs on the process's shared client event loop (SwiftNIO's), the thread that owns its
/// socket, so frames are handled where they are read. Requests may be issued from any task.
public actor LifeSignalClient {
    public nonisolated let configuration: ClientConfiguration
    /// Everything that happens, in order (see `ClientEvent`). One consumer; buffered without limit
    /// until read, and finished by `close()`.
    public nonisolated let events: AsyncStream<ClientEvent>
    nonisolated let loop: any EventLoop
    /// Made once from `configuration.tls`; nil: plain TCP.
    nonisolated let tls: ClientTLSContext?
    let eventSink: AsyncStream<ClientEvent>.Continuation
    let logger: Logger

    /// The device's state: nil until the first snapshot (or the configured `initialState`, or the
    /// state cache's).
    public internal(set) var state: DeviceState?
    var lifecycle = ClientLifecycle.idle
    /// Reconnect only a client that has been live: a first `connect()` reports its failure instead
    /// (unless `ReconnectPolicy.retriesFirstConnect`).
    var hasBeenLive = false
    var link: ClientLink?
    /// Bumped per connection attempt, so a late connect completion for an abandoned attempt is ignored.
    var attempt: UInt64 = 0
    /// The endpoint the next (or current) attempt uses, counting round the list.
    var endpointIndex = 0
    /// Attempts that failed in a row since the last live connection or backoff delay: until
    /// every endpoint has failed once, the next is tried at once.
    var failedInARow = 0
    /// Whether the attempt under way skips `hello` (`register`).
    var anonymousAttempt = false
    var connectWaiters: [CheckedContinuation<HelloResult?, any Error>] = []
    var backoff: Backoff
    let timers: ClientTimers
    var outbox = OutboxState()
    var stateCacheProgress = StateCacheProgress()
    let streams: Streams

    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    /// - Throws: if the TLS settings' CA files cannot be read, or the outbox storage cannot be read.
    public init(configuration: ClientConfiguration, logger: Logger = Logger(label: "lifesignal.client")) throws {
        self.configuration = configuration
        loop = SharedEventLoop.get()
        tls = try configuration.tls.map(ClientTLSContext.init)
        (events, eventSink) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: .unbounded)
        var logger = logger
        logger[metadataKey: "lifesignal.user"] = "\(configuration.userID)"
        logger[metadataKey: "lifesignal.device"] = "\(configuration.deviceID)"
        self.logger = logger
        backoff = Backoff(policy: configuration.reconnect)
        timers = ClientTimers(loop: loop)
        state = Self.startingState(configuration, logger: logger)
        streams = Streams()
        outbox.pending = try configuration.outbox?.load() ?? []
    }

    deinit {
        // Handles belong to the loop thread; close them there.
        let link = self.link
        let timers = self.timers
        loop.execute {
            link?.close()
            timers.closeAll()
        }
        eventSink.finish()
    }

    /// The `hello` of the live session, nil while not connected.
    public var hello: HelloResult? {
        lifecycle == .live ? link?.session.hello : nil
    }

    public var isConnected: Bool { lifecycle == .live }

    /// The broker endpoint of the current connection or attempt.
    public var endpoint: Endpoint { configuration.endpoints[endpointIndex % configuration.endpoints.count] }

    /// Connects, says `hello` (resuming from `state.lastSeq` if there is a state) and returns once the
    /// catch-up is applied. Connection drops after that reconnect automatically (`ReconnectPolicy`);
    /// so does a broker out of reach at first, with `ReconnectPolicy.retriesFirstConnect`.
    /// Each endpoint is tried in turn; one that does not answer within `responseTimeoutMs` is left.
    /// - Throws: `LifeSignalClientError`: `.connectionFailed`, `.timedOut`, `.server` (e.g.
    ///   `unauthenticated`), … (the last endpoint's, when none could be used)
    @discardableResult
    public func connect() async throws -> HelloResult {
        guard let hello = try await open(anonymous: false) else {
            throw LifeSignalClientError.protocolViolation("hello result missing")
        }
        return hello
    }

    /// Sends one request and returns the fields of its `ok` (without `op` and `rid`). Requests may be
    /// pipelined: each is sent at once and answered in order. Events the request caused for this user
    /// have been applied to `state` and yielded on `events` when it returns (PROTOCOL.md §6).
    /// - Throws: `LifeSignalClientError.server` with the broker's error; `.notConnected` while not
    ///   connected; `.connectionLost` if the connection drops before the answer; `.timedOut` if the
    ///   answer takes longer than `responseTimeoutMs` (the connection is dropped, and reconnects to
    ///   the next endpoint as after any drop).
    public func request(_ op: String, _ fields: JSONObject = [:]) async throws -> JSONObject {
        guard lifecycle == .live, let link else {
            throw lifecycle == .closed ? LifeSignalClientError.closed : LifeSignalClientError.notConnected
        }
        return try await send(op, fields, on: link)
    }

    /// Sends `command`'s request (its op and fields as `DeviceCommand` writes them); as above.
    public func request(_ command: DeviceCommand) async throws -> JSONObject {
        try await request(command.op, command.fields)
    }

    /// `bye`: the broker answers and closes; this client does not reconnect. `connect()` may be
    /// called again later.
    public func bye() async throws {
        guard lifecycle == .live, let link else {
            throw lifecycle == .closed ? LifeSignalClientError.closed : LifeSignalClientError.notConnected
        }
        lifecycle = .closing
        stopKeepalive()
        defer {
            // The broker closes after its answer; closing here too makes the end certain and immediate.
            endSaidBye(link)
            saveStateNow()
        }
        _ = try await send(Op.bye, [:], on: link)
    }

    /// Ends the client: closes the connection, stops reconnecting, fails what is in flight with
    /// `.closed` and finishes `events`. Idempotent.
    public func close() {
        guard lifecycle != .closed else { return }
        let wasLive = lifecycle == .live
        lifecycle = .closed
        timers.closeAll()
        if let link {
            self.link = nil
            link.close()
            for waiter in link.session.failAll() { waiter.resume(throwing: LifeSignalClientError.closed) }
        }
        resumeConnectWaiters(with: .failure(LifeSignalClientError.closed))
        if wasLive { publish(.disconnected(error: nil, willReconnect: false)) }
        eventSink.finish()
        finishOutboxStreams()
        saveStateNow()
        streams.setConnection(.idle)
        streams.finish()
    }

    func send(_ op: String, _ fields: JSONObject, on link: ClientLink) async throws -> JSONObject {
        try await withCheckedThrowingContinuation { continuation in
            do {
                sendRequest(try link.session.request(op, fields, waiter: continuation, at: loop.nowMs), on: link)
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    func resumeConnectWaiters(with result: Result<HelloResult?, any Error>) {
        let waiters = connectWaiters
        connectWaiters = []
        for waiter in waiters { waiter.resume(with: result) }
    }
}
