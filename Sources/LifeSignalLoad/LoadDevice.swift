import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV

/// One simulated device: a TCP connection, its frame decoder, and the client library's
/// `ConnectionSession` for the protocol (rids, register, hello, catch-up, answers in order).
///
/// Loop thread only. No Task, no thread and no LifeSignalClient per device: thousands of these
/// share one EventLoop, so each costs a socket and a few hundred bytes. It hands everything after
/// the catch-up to its delegate.
package final class LoadDevice: TCPConnectionDelegate {
    package enum State: Equatable {
        case idle, connecting, registering, greeting, catchingUp, ready, leaving, closed
    }

    /// Position in the run (or, for a scenario's extra devices, in the scenario's own list).
    package let index: Int
    /// The device id, also the registered user's name ("load-<number>").
    package let deviceID: String
    private unowned let delegate: LoadDeviceDelegate
    private let loop: EventLoop
    /// Where `connect()` goes; a scenario may move the device to another broker (failover).
    package var broker: Endpoint
    private let sourceAddress: String?

    private(set) var state = State.idle
    private(set) var credential: LoadCredential?
    /// The user's QR code, from the register result (scenarios that add contacts show it).
    private(set) var qrCode: String?
    /// The last seq seen (from the snapshot or events): what a reconnect resumes from.
    private var position: StreamPosition?
    package var lastSeq: Int64? { position?.lastSeq }
    /// `heartbeatMs` announced by the last hello's ok.
    private(set) var heartbeatMs: Int64?
    /// When output was last written (the loop's clock): the broker closes a connection that
    /// sends nothing for twice the heartbeat.
    private var lastSentMs: UInt64 = 0
    /// Requests a scenario sent (not the set-up's, nor the run's own keepalives): the series' `sent`.
    package private(set) var requestsSent: UInt64 = 0
    /// When the last `connect()` began and when its hello's ok was read (0 before that).
    private(set) var connectStartNs: UInt64 = 0
    private(set) var helloOkNs: UInt64 = 0
    /// What the last hello's catch-up delivered, checked against PROTOCOL §6 (no gap, no repeat).
    private(set) var lastCatchUp = CatchUp()

    private var connection: TCPConnection?
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
    private var session = ConnectionSession<Sent, StreamPosition>()
    /// Frames staged during one callback, written with one `write` at its end.
    private var output: [UInt8] = []
    /// Read time of the bytes being handled; requests sent in reaction reuse it as their start.
    private(set) var currentReadNs: UInt64 = 0
    private var insideRead = false

    /// - Parameter credential: an existing user to say hello as (another device of that user);
    ///   nil registers a new user named `deviceID` on the first connect.
    package init(
        index: Int, deviceID: String, credential: LoadCredential? = nil, loop: EventLoop, broker: Endpoint,
        sourceAddress: String?, delegate: LoadDeviceDelegate
    ) {
        self.index = index
        self.deviceID = deviceID
        self.credential = credential
        self.loop = loop
        self.broker = broker
        self.sourceAddress = sourceAddress
        self.delegate = delegate
    }

    package var inFlight: Int { session.inFlightCount }

    // MARK: - Session

    /// Connects, registers a new user the first time (then reuses it) and says hello, resuming
    /// from `lastSeq` when there is one.
    package func connect() {
        guard state == .idle || state == .closed else { return }
        state = .connecting
        connectStartNs = MonotonicClock.nowNs()
        helloOkNs = 0
        decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
        session = ConnectionSession()
        TCPConnection.connect(loop: loop, host: broker.host, port: broker.port, sourceAddress: sourceAddress) {
            [self] result in
            switch result {
            case .success(let connection):
                guard state == .connecting else {
                    connection.close()  // closed while connecting
                    return
                }
                self.connection = connection
                connection.delegate = self
                connection.startReading()
                if let credential {
                    sendHello(credential)
                } else {
                    state = .registering
                    stage(Op.register, kind: LoadRequestKind.register, Register(name: deviceID).fields)
                    flushOutput()
                }
            case .failure(let error):
                guard state == .connecting else { return }
                state = .closed
                delegate.device(self, setupFailed: "connect to \(broker): \(error)")
                delegate.deviceDidClose(self)
            }
        }
    }

    /// Sends `bye` (the broker answers and closes). Responses still due arrive first and are dropped.
    package func sayBye() {
        guard state == .ready, connection != nil else {
            close()
            return
        }
        state = .leaving
        stage(Op.bye, kind: LoadRequestKind.bye, wantsFields: false)
        flushOutput()
    }

    /// Closes now; only `deviceDidClose` follows (at once when it was still connecting).
    package func close() {
        guard state != .closed else { return }
        let wasConnecting = state == .connecting
        state = .leaving
        if let connection {
            connection.close()
        } else {
            state = .closed
            if wasConnecting { delegate.deviceDidClose(self) }  // its connect completion is ignored
        }
    }

    private func sendHello(_ credential: LoadCredential) {
        state = .greeting
        let hello = Hello(userID: credential.userID, token: credential.token, deviceID: deviceID, resume: lastSeq)
        session.hello(hello, at: loop.cachedNowMs, into: &output)
        flushOutput()
    }

    // MARK: - Requests

    /// Sends a request once ready; its response goes to the delegate with `startNs` as its start
    /// (default: the current read's time inside a read callback, else now). With `wantsFields`
    /// false an `ok` is recognized without a full parse and arrives with empty fields.
    package func send(_ command: DeviceCommand, kind: UInt8, startNs: UInt64? = nil, wantsFields: Bool = true) {
        send(command.op, kind: kind, command.fields, startNs: startNs, wantsFields: wantsFields)
    }

    package func send(
        _ op: String, kind: UInt8, _ fields: JSONObject = [:], startNs: UInt64? = nil, wantsFields: Bool = true
    ) {
        guard state == .ready else { return }
        stage(op, kind: kind, fields, startNs: startNs, wantsFields: wantsFields)
        if !insideRead { flushOutput() }
    }

    private func stage(
        _ op: String, kind: UInt8, _ fields: JSONObject = [:], startNs: UInt64? = nil, wantsFields: Bool = true
    ) {
        let start = startNs ?? (insideRead ? currentReadNs : MonotonicClock.nowNs())
        if LoadRequestKind.isScenarios(kind) { requestsSent += 1 }
        let sent = Sent(kind: kind, startNs: start, wantsFields: wantsFields)
        do {
            try session.request(op, fields, waiter: sent, at: loop.cachedNowMs, into: &output)
        } catch {
            fail("\(op): \(error)")
        }
    }

    /// Sends a `keepalive` the run does not count when nothing was sent for half the heartbeat
    /// (what the client library does), so that a device that only receives stays connected.
    package func keepAliveIfIdle(nowMs: UInt64) {
        guard state == .ready, let heartbeatMs, nowMs &- lastSentMs >= UInt64(heartbeatMs / 2) else { return }
        send(Op.keepalive, kind: LoadRequestKind.connectionKeepalive, wantsFields: false)
    }

    private func flushOutput() {
        guard !output.isEmpty else { return }
        lastSentMs = loop.cachedNowMs
        connection?.write(output)
        output.removeAll(keepingCapacity: true)
    }

    // MARK: - TCPConnectionDelegate

    package func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        currentReadNs = MonotonicClock.nowNs()
        insideRead = true
        do {
            // Handlers never touch `decoder`, so feeding it while they run is no overlapping access.
            try decoder.feed(bytes) { body in
                handleFrame(body)
                return state != .closed && !connection.isClosed
            }
        } catch {
            fail("broker sent a bad frame: \(error)")
        }
        insideRead = false
        flushOutput()
    }

    package func connectionDidClose(_ connection: TCPConnection, error: UVError?) {
        let previous = state
        state = .closed
        self.connection = nil
        _ = session.failAll()
        output.removeAll(keepingCapacity: true)
        let reason = error.map { "\($0)" }
        switch previous {
        case .ready:
            delegate.device(self, didDisconnect: reason ?? "closed by the broker")
        case .connecting, .registering, .greeting, .catchingUp:
            delegate.device(self, setupFailed: "connection closed during set-up: \(reason ?? "closed by the broker")")
        case .idle, .leaving, .closed:
            break
        }
        delegate.deviceDidClose(self)
    }

    // MARK: - Frames

    private func handleFrame(_ body: UnsafeRawBufferPointer) {
        let message: ServerMessage
        // The hot path of closed-loop scenarios: an `ok` nobody reads, recognized by its prefix.
        if let oldest = session.peekOldestWaiter(), !oldest.wantsFields, let rid = LoadFrames.okRid(body) {
            message = .ok(rid: rid, fields: [:])
        } else {
            do {
                message = try ServerMessage.parse(body)
            } catch {
                return fail("unreadable frame from the broker: \(error)")
            }
        }
        let seqBefore = position?.lastSeq
        let actions = session.receive(message, state: &position)
        if state == .greeting, let hello = session.hello { greeted(hello) }
        for action in actions {
            switch action {
            case .complete(let sent, let result):
                answered(sent, result)
            case .emit(.event(let seq, let name, _)):
                if state == .catchingUp {
                    lastCatchUp.record(seq, after: seqBefore)
                } else if state == .ready {
                    delegate.device(self, didReceiveEvent: name, seq: seq, receivedNs: currentReadNs)
                }
            case .emit(.snapshot):
                if state == .catchingUp { lastCatchUp.snapshot = true }
            case .emit:
                break
            case .caughtUp:
                becomeReady()
            case .drop(let error):
                fail(state == .greeting ? "hello: \(error)" : "\(error)")
            case .internalRequestFailed:
                break
            }
        }
    }

    /// Hello's `ok`: the catch-up it announced follows (or nothing, when the device is current).
    private func greeted(_ hello: HelloResult) {
        helloOkNs = currentReadNs
        heartbeatMs = hello.heartbeatMs
        lastCatchUp = CatchUp()
        state = .catchingUp
    }

    private func answered(_ sent: Sent, _ result: Result<JSONObject, LifeSignalClientError>) {
        switch (state, sent.kind) {
        case (.registering, LoadRequestKind.register):
            switch result {
            case .success(let fields):
                guard case .registered(let user, let token, _)? = try? Reply(answering: Op.register, fields: fields) else {
                    return fail("register: unexpected answer")
                }
                let credential = LoadCredential(userID: user.id, token: token)
                self.credential = credential
                qrCode = user.qrCode
                sendHello(credential)
            case .failure(let error):
                fail("register: \(error)")
            }
        case (.ready, _):
            var errorCode: ProtocolError.Code?
            if case .failure(let error) = result { errorCode = error.serverError?.code ?? .internal }
            delegate.device(self, didReceive: LoadResponse(
                kind: sent.kind, startNs: sent.startNs, receivedNs: currentReadNs, errorCode: errorCode))
        default:
            break  // responses still due after bye, or the bye itself: the broker closes next
        }
    }

    private func becomeReady() {
        state = .ready
        delegate.deviceIsReady(self)
    }

    /// The session must end (a refused set-up step, a protocol violation by the broker): reported
    /// as a disconnect, or as a set-up failure before the device was ready.
    private func fail(_ reason: String) {
        let previous = state
        close()
        if previous == .ready {
            delegate.device(self, didDisconnect: reason)
        } else if previous != .leaving && previous != .closed {
            delegate.device(self, setupFailed: reason)
        }
    }
}

extension LoadDevice {
    /// What a request in flight was: its answer goes to the right handler, timed from `startNs`.
    struct Sent {
        /// A `LoadRequestKind` value.
        var kind: UInt8
        /// When the request was sent, or meant to be sent (open-loop scenarios measure from there).
        var startNs: UInt64
        /// False when nobody reads the `ok`'s fields: the device may skip parsing it.
        var wantsFields: Bool
    }
}
