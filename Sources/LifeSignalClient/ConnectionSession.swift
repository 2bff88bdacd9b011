import LifeSignalProtocol

/// The protocol side of one connection, with no I/O (a state machine that returns actions, as
/// postgres-nio does): it numbers requests, matches responses, applies the catch-up and events to the
/// device state and says when the session is live. Tests drive it with parsed frames.
///
/// `Waiter` is whatever the owner resumes when a response arrives; a nil waiter is an internal
/// request (`hello`, `keepalive`) whose result only the session looks at. `State` is what the
/// catch-up and the events keep current: the client's `DeviceState`, or the load generator's
/// `StreamPosition` (`SessionState`).
public struct ConnectionSession<Waiter, State: SessionState> {
    public enum Phase: Equatable {
        /// Connected, no `hello` (a `register` connection).
        case open
        /// `hello` sent with this rid.
        case greeting(rid: Int64)
        /// `hello` accepted (`hello`); applying events or a snapshot until its `lastSeq` is reached.
        case catchingUp
        case live
        /// The connection must end; nothing more is accepted.
        case failed
    }

    public enum Action {
        case complete(Waiter, Result<JSONObject, LifeSignalClientError>)
        /// Yield on `events` (the state has already applied it).
        case emit(ClientEvent)
        /// The catch-up is applied: the session is live.
        case caughtUp(HelloResult)
        /// End the connection for this reason. Pending waiters are the owner's to fail (`failAll`).
        case drop(LifeSignalClientError)
        /// An answer to an internal request failed; worth a log line, nothing more.
        case internalRequestFailed(op: String, ProtocolError)
    }

    // Public and inlinable, so that a caller in another module (the load generator, thousands of
    // devices on one loop; a transport of an app's own) gets it specialized for its waiter and
    // state. Unspecialized, every call looked up generic metadata at run time: 2 to 3 times the
    // generator's CPU per answer (docs/BENCHMARKS.md). A `package` declaration's body is not
    // offered to other modules for specialization, so `package` was not enough.
    @inlinable public var phase: Phase { currentPhase }
    // A plain value, read on every frame; the accepted hello (strings of the user) apart from it.
    @usableFromInline var currentPhase = Phase.open
    @usableFromInline var acceptedHello: HelloResult?
    @usableFromInline var pending = PendingRequests<(op: String, waiter: Waiter?, sentAtMs: UInt64)>()
    @usableFromInline var nextRID: Int64 = 1
    /// The broker's limit on request bodies, known once `hello` is accepted.
    @usableFromInline var maxRequestBytes = Int.max

    @inlinable public init() {}

    @inlinable public var inFlightCount: Int { pending.count }

    /// What the oldest request in flight will complete (nil for an internal one): the load
    /// generator recognizes an `ok` nobody reads without parsing it. `mutating`, so that an owner
    /// keeping the session in a class reads it in place: reading a property of a struct stored in
    /// a class copied the whole session first (its pending requests, its hello), twice a frame in
    /// the load generator (callgrind).
    @inlinable public mutating func peekOldestWaiter() -> Waiter? { pending.first?.waiter.waiter }

    /// The request waiting longest for its answer (answers come in order, so it is the one late
    /// first), and when it was sent.
    @inlinable public var oldestUnanswered: (op: String, sentAtMs: UInt64)? {
        pending.first.map { ($0.waiter.op, $0.waiter.sentAtMs) }
    }

    /// `hello` is answered and the missed events or snapshot are still coming.
    @inlinable public var isCatchingUp: Bool {
        if case .catchingUp = phase { return true }
        return false
    }

    @inlinable public var hello: HelloResult? {
        switch currentPhase {
        case .catchingUp, .live: return acceptedHello
        case .open, .greeting, .failed: return nil
        }
    }

    /// The framed `hello` with `token`, sent at `nowMs`. `resume` is the seq of the last event this
    /// device applied.
    mutating func hello(_ configuration: ClientConfiguration, token: String, resume: Int64?, at nowMs: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        hello(Hello(userID: configuration.userID, token: token, deviceID: configuration.deviceID,
                    platform: configuration.platform, resume: resume), at: nowMs, into: &bytes)
        return bytes
    }

    /// Appends the framed `hello` to `buffer`.
    @inlinable public mutating func hello(_ hello: Hello, at nowMs: UInt64, into buffer: inout [UInt8]) {
        currentPhase = .greeting(rid: nextRID)
        RequestFrame.append(op: Op.hello, rid: nextRID, hello.fields, to: &buffer)
        expectAnswer(Op.hello, waiter: nil, at: nowMs)
    }

    /// The framed request, sent at `nowMs`; its response will complete `waiter`.
    mutating func request(_ op: String, _ fields: JSONObject, waiter: Waiter?, at nowMs: UInt64)
        throws(LifeSignalClientError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        try request(op, fields, waiter: waiter, at: nowMs, into: &bytes)
        return bytes
    }

    /// Appends the framed request to `buffer`; nothing is appended when it is larger than the
    /// broker takes.
    @inlinable public mutating func request(_ op: String, _ fields: JSONObject, waiter: Waiter?, at nowMs: UInt64,
                                  into buffer: inout [UInt8]) throws(LifeSignalClientError) {
        let start = buffer.count
        RequestFrame.append(op: op, rid: nextRID, fields, to: &buffer)
        let bodyBytes = buffer.count - start - 4
        guard bodyBytes <= maxRequestBytes else {
            buffer.removeSubrange(start...)
            throw .requestTooLarge(bytes: bodyBytes, limit: maxRequestBytes)
        }
        expectAnswer(op, waiter: waiter, at: nowMs)
    }

    /// The request just written takes the next rid; its answer will come in its turn (§2).
    @inlinable mutating func expectAnswer(_ op: String, waiter: Waiter?, at nowMs: UInt64) {
        pending.append(rid: nextRID, waiter: (op, waiter, nowMs))
        nextRID += 1
    }

    /// Handles one frame from the broker. `state` is the device's state, shared by all connections.
    @inlinable public mutating func receive(_ message: ServerMessage, state: inout State?) -> [Action] {
        if currentPhase == .failed { return [] }
        switch message {
        case .ok(let rid, let fields):
            return response(rid: rid, .success(fields), state: &state)
        case .error(nil, let error):
            // Not an answer to anything we sent (we always send a rid): `replaced`, or a fatal framing
            // error. Those close the connection; others are only worth noting.
            if error.code.closesConnection { return fail(.server(error)) }
            return [.internalRequestFailed(op: "-", error)]
        case .error(let rid, let error):
            var actions = response(rid: rid, .failure(error), state: &state)
            if error.code.closesConnection, currentPhase != .failed { actions += fail(.server(error)) }
            return actions
        case .event(let seq, let name, let data):
            return event(seq: seq, name: name, data: data, state: &state)
        case .snapshot(let snapshot):
            return self.snapshot(snapshot, state: &state)
        }
    }

    /// Empties the pending queue; the owner fails these waiters.
    @inlinable public mutating func failAll() -> [Waiter] {
        currentPhase = .failed
        return pending.removeAll().compactMap(\.waiter.waiter)
    }

    // MARK: - Responses

    @inlinable mutating func response(rid: Int64?, _ result: Result<JSONObject, ProtocolError>, state: inout State?)
        -> [Action]
    {
        guard let entry = pending.popFirst() else {
            return fail(.protocolViolation("response with rid \(rid.map(String.init) ?? "none") to no request"))
        }
        guard rid == entry.rid else {
            return fail(.protocolViolation(
                "response with rid \(rid.map(String.init) ?? "none"), expected \(entry.rid)"))
        }
        if case .greeting(let helloRID) = currentPhase, helloRID == entry.rid {
            return helloAnswered(result, state: &state)
        }
        guard let waiter = entry.waiter.waiter else {
            if case .failure(let error) = result { return [.internalRequestFailed(op: entry.waiter.op, error)] }
            return []
        }
        return [.complete(waiter, result.mapError { .server($0) })]
    }

    @inlinable mutating func helloAnswered(_ result: Result<JSONObject, ProtocolError>, state: inout State?)
        -> [Action]
    {
        let fields: JSONObject
        switch result {
        case .failure(let error): return fail(.server(error))
        case .success(let ok): fields = ok
        }
        let hello: HelloResult
        do throws(ProtocolError) {
            hello = try HelloResult(fields: fields)
        } catch {
            return fail(.protocolViolation("hello: \(error.message)"))
        }
        maxRequestBytes = hello.maxFrameBytes
        acceptedHello = hello
        currentPhase = .catchingUp
        // With nothing to catch up (resume == lastSeq) no further frame would say so. Only equality
        // counts here: a resume ahead of the broker's lastSeq is answered with a snapshot.
        guard let state, state.lastSeq == hello.lastSeq else { return [] }
        return caughtUpIfDone(state: state)
    }

    // MARK: - Catch-up and events

    @inlinable mutating func event(seq: Int64, name: String, data: JSONValue, state: inout State?) -> [Action] {
        guard let hello else { return fail(.protocolViolation("event \(seq) before hello")) }
        guard var current = state, current.userID == hello.user.id else {
            return fail(.protocolViolation("event \(seq) before any snapshot"))
        }
        do {
            try current.apply(seq: seq, name: name, data: data)
        } catch {
            return fail(error)
        }
        state = current
        return [.emit(.event(seq: seq, name: name, data: data))] + caughtUpIfDone(state: current)
    }

    @inlinable mutating func snapshot(_ snapshot: Snapshot, state: inout State?) -> [Action] {
        guard let hello else { return fail(.protocolViolation("snapshot before hello")) }
        guard snapshot.user.id == hello.user.id else {
            return fail(.protocolViolation("snapshot of user \(snapshot.user.id), expected \(hello.user.id)"))
        }
        let replaced = State(snapshot: snapshot)
        state = replaced
        return [.emit(.snapshot(snapshot))] + caughtUpIfDone(state: replaced)
    }

    /// After a frame of the catch-up: done once the state reaches the hello's `lastSeq`.
    @inlinable mutating func caughtUpIfDone(state: State) -> [Action] {
        guard currentPhase == .catchingUp, let hello = acceptedHello, state.userID == hello.user.id,
              state.lastSeq >= hello.lastSeq
        else { return [] }
        currentPhase = .live
        return [.caughtUp(hello)]
    }

    @inlinable mutating func fail(_ error: LifeSignalClientError) -> [Action] {
        currentPhase = .failed
        return [.drop(error)]
    }
}
