import LifeSignalProtocol
import Logging
import NIOCore

// Connecting, reading, dropping and reconnecting. Everything here runs on the loop thread: socket
// callbacks enter through `ClientLink` with `assumeIsolated`.
extension LifeSignalClient {
    /// Opens a connection and waits until it is live; `anonymous` skips `hello` (for `register`).
    func open(anonymous: Bool) async throws -> HelloResult? {
        switch lifecycle {
        case .closed:
            throw LifeSignalClientError.closed
        case .live:
            return hello
        case .closing:
            throw LifeSignalClientError.notConnected
        case .idle:
            startAttempt(anonymous: anonymous)
        case .waitingToReconnect:
            // Someone is waiting: try now rather than at the end of the backoff delay.
            timers.stopReconnect()
            startAttempt(anonymous: anonymous)
        case .connecting:
            break  // join the attempt under way
        }
        return try await withCheckedThrowingContinuation { connectWaiters.append($0) }
    }

    func startAttempt(anonymous: Bool = false) {
        lifecycle = .connecting
        if !anonymous { streams.setConnection(.connecting) }
        anonymousAttempt = anonymous
        attempt &+= 1
        let thisAttempt = attempt
        guard !anonymous, let credentials = configuration.credentials else {
            return connect(attempt: thisAttempt, anonymous: anonymous, token: configuration.token)
        }
        // A provider that never answers (a keychain prompt left open) fails the attempt in time.
        let timeout = configuration.responseTimeoutMs
        timers.credentials.start(afterMs: timeout) { [weak self] in
            self?.assumeIsolated { $0.credentialsArrived(.failure(CredentialsTimeout(ms: timeout)), attempt: thisAttempt) }
        }
        Task { [weak self] in
            let token: Result<String, any Error>
            do {
                token = .success(try await credentials())
            } catch {
                token = .failure(error)
            }
            await self?.credentialsArrived(token, attempt: thisAttempt)
        }
    }

    /// The provider's token, or its failure, or the timeout: whichever comes first for the attempt.
    private func credentialsArrived(_ token: Result<String, any Error>, attempt: UInt64) {
        guard attempt == self.attempt, lifecycle == .connecting else { return }
        timers.credentials.stop()
        switch token {
        case .success(let token): connect(attempt: attempt, anonymous: false, token: token)
        case .failure(let timeout as CredentialsTimeout):
            attemptEnded(reason: .timedOut("no credentials from the provider within \(timeout.ms) ms"))
        case .failure(let error): attemptEnded(reason: .connectionFailed("no credentials: \(error)"))
        }
    }

    private struct CredentialsTimeout: Error {
        let ms: UInt64
    }

    private func connect(attempt thisAttempt: UInt64, anonymous: Bool, token: String) {
        let endpoint = self.endpoint
        logger.debug("connecting", metadata: ["lifesignal.attempt": "\(backoff.attempt)", "lifesignal.broker": "\(endpoint)"])
        let (tls, maxFrameBytes) = (self.tls, configuration.maxIncomingFrameBytes)
        ClientTransport.connect(to: endpoint, tls: tls, timeout: .milliseconds(Int64(clamping: configuration.responseTimeoutMs)),
                                on: loop)
            .whenComplete { [weak self] result in
                guard let self else {
                    if case .success(let channel) = result { channel.close(promise: nil) }
                    return
                }
                // The channel's loop is the actor's executor; the connection never leaves it.
                self.assumeIsolated {
                    $0.connectFinished(result, attempt: thisAttempt, anonymous: anonymous, token: token,
                                       maxFrameBytes: maxFrameBytes)
                }
            }
    }

    private func connectFinished(_ result: Result<any Channel, any Error>, attempt: UInt64, anonymous: Bool,
                                 token: String, maxFrameBytes: Int) {
        let endpoint = self.endpoint
        guard attempt == self.attempt, lifecycle == .connecting else {
            if case .success(let channel) = result { channel.close(promise: nil) }
            return
        }
        switch result {
        case .failure(let error):
            // On Network.framework a failed TLS handshake fails the connect.
            attemptEnded(reason: .connectionFailed("\(endpoint): \(TLSFailure(error).map { "\($0)" } ?? "\(error)")"))
        case .success(let channel):
            guard let handler = try? channel.pipeline.syncOperations.handler(type: LinkHandler.self) else {
                channel.close(promise: nil)
                return attemptEnded(reason: .connectionFailed("\(endpoint): the connection's pipeline is incomplete"))
            }
            let link = ClientLink(channel: channel, client: self, maxFrameBytes: maxFrameBytes, isAnonymous: anonymous)
            handler.link = link
            self.link = link
            if anonymous {
                lifecycle = .live
                resumeConnectWaiters(with: .success(nil))
            } else {
                sendRequest(link.session.hello(configuration, token: token, resume: state?.lastSeq, at: loop.nowMs),
                            on: link)
            }
        }
    }

    // MARK: - Reading

    func linkDidRead(_ link: ClientLink, _ bytes: UnsafeRawBufferPointer) {
        guard link === self.link else { return }
        var dropReason: LifeSignalClientError?
        do {
            try link.decoder.feed(bytes) { body in
                dropReason = handleFrame(body, on: link)
                return dropReason == nil
            }
        } catch {
            dropReason = .protocolViolation("\(error)")
        }
        if let dropReason { drop(link, reason: dropReason) }
    }

    /// Returns why the connection must end, if it must.
    private func handleFrame(_ body: UnsafeRawBufferPointer, on link: ClientLink) -> LifeSignalClientError? {
        let message: ServerMessage
        do throws(ProtocolError) {
            message = try ServerMessage.parse(body)
        } catch where error.code == .unknownOp {
            // A newer broker's frame kind: nothing this version could do with it.
            logger.debug("ignoring unknown frame", metadata: ["lifesignal.error": "\(error.message)"])
            return nil
        } catch {
            return .protocolViolation(error.message)
        }
        var dropReason: LifeSignalClientError?
        for action in link.session.receive(message, state: &state) {
            switch action {
            case .complete(let waiter, let result):
                waiter.resume(with: result)
            case .emit(let event):
                publish(event)
            case .caughtUp(let hello):
                becameLive(hello)
            case .drop(let reason):
                dropReason = reason
            case .internalRequestFailed(let op, let error):
                logger.debug("internal request failed", metadata: [
                    "lifesignal.op": "\(op)", "lifesignal.error": "\(error)",
                ])
            }
        }
        return dropReason
    }

    private func becameLive(_ hello: HelloResult) {
        lifecycle = .live
        hasBeenLive = true
        failedInARow = 0
        backoff.reset()
        logger.debug("connected", metadata: ["lifesignal.seq": "\(hello.lastSeq)"])
        startKeepalive(heartbeatMs: hello.heartbeatMs)
        publish(.connected(hello))
        resumeConnectWaiters(with: .success(hello))
        replayOutbox()
    }

    // MARK: - Ending

    /// Ends the connection now for `reason` (a protocol violation, a seq gap, a fatal broker error).
    func drop(_ link: ClientLink, reason: LifeSignalClientError) {
        guard link === self.link else { return }
        switch reason {
        case .sequenceGap, .protocolViolation:
            logger.warning("dropping connection", metadata: ["lifesignal.error": "\(reason)"])
        default:
            logger.debug("dropping connection", metadata: ["lifesignal.error": "\(reason)"])
        }
        link.close()
        linkEnded(link, reason: reason)
    }

    func linkDidClose(_ link: ClientLink, error: (any Error)?) {
        guard link === self.link else { return }
        if let error, let tls = TLSFailure(error) {
            // The broker was never reached: a certificate refused, or no TLS at the other end.
            return linkEnded(link, reason: .connectionFailed("\(endpoint): \(tls)"))
        }
        let reason = error.map { "\($0)" } ?? "closed by the broker"
        linkEnded(link, reason: .connectionLost(reason))
    }

    /// After `bye`'s answer (or failure): close without waiting for the broker to.
    func endSaidBye(_ link: ClientLink) {
        guard link === self.link, lifecycle == .closing else { return }
        link.close()
        linkEnded(link, reason: .closed)
    }

    private func linkEnded(_ link: ClientLink, reason: LifeSignalClientError) {
        self.link = nil
        stopKeepalive()
        let saidBye = lifecycle == .closing
        for waiter in link.session.failAll() {
            waiter.resume(throwing: saidBye ? LifeSignalClientError.closed : reason)
        }
        if saidBye {
            lifecycle = .idle
            publish(.disconnected(error: nil, willReconnect: false))
            resumeConnectWaiters(with: .failure(LifeSignalClientError.closed))
            return
        }
        attemptEnded(reason: reason)
    }

    /// After a failed attempt or a lost connection: report it, then reconnect unless the reason is
    /// final. The next attempt goes to the next endpoint: at once while some endpoint has not
    /// failed since the last live connection, after the backoff delay once all have.
    private func attemptEnded(reason: LifeSignalClientError) {
        let wasLive = lifecycle == .live
        endpointIndex = (endpointIndex + 1) % configuration.endpoints.count
        failedInARow = wasLive ? 0 : failedInARow + 1
        let isFinal = Self.isFinal(reason, hasBeenLive: hasBeenLive)
        if Self.signsOut(reason) { clearStateCache() }
        let anotherEndpointLeft = failedInARow < configuration.endpoints.count && !isFinal
        let policy = configuration.reconnect
        let retry = policy.isEnabled && (hasBeenLive || policy.retriesFirstConnect) && !isFinal
        // A first connect() that does not wait for its broker still tries each endpoint once.
        if !retry && !hasBeenLive && anotherEndpointLeft {
            startAttempt(anonymous: anonymousAttempt)
            return
        }
        // A first connect() that waits for the broker goes on waiting through the retries.
        if hasBeenLive || !retry { resumeConnectWaiters(with: .failure(reason)) }
        // One `disconnected` per outage: on leaving live, and when giving up; not per failed retry.
        if wasLive || (hasBeenLive && !retry) {
            publish(.disconnected(error: reason, willReconnect: retry))
        }
        if retry && anotherEndpointLeft && configuration.endpoints.count > 1 {
            // Another broker may be up: no delay before trying it.
            startAttempt()
        } else if retry {
            failedInARow = 0
            scheduleReconnect(after: reason)
        } else {
            lifecycle = .idle
        }
    }

    /// Errors after which reconnecting cannot help, or would fight another connection (§3, §9).
    /// `too_many_devices` is final only for a device that never got in: one that was live had a
    /// slot, and may have lost the race for it to another device reconnecting after a broker
    /// restart; it waits and retries like after any other refusal.
    static func isFinal(_ reason: LifeSignalClientError, hasBeenLive: Bool = false) -> Bool {
        guard case .server(let error) = reason else { return false }
        if error.code == .tooManyDevices { return !hasBeenLive }
        return [.unauthenticated, .replaced, .unsupportedVersion, .revoked, .accountDeleted].contains(error.code)
    }

    /// Final errors that say the account is no longer this device's: a revoked device must not
    /// go on showing it, so its cached state goes.
    static func signsOut(_ reason: LifeSignalClientError) -> Bool {
        guard case .server(let error) = reason else { return false }
        return [.unauthenticated, .revoked, .accountDeleted].contains(error.code)
    }

    // MARK: - Reconnecting

    private func scheduleReconnect(after reason: LifeSignalClientError) {
        lifecycle = .waitingToReconnect
        let delay = backoff.nextDelayMs()
        timers.reconnect.start(afterMs: delay) { [weak self] in
            self?.assumeIsolated { $0.reconnectTimerFired() }
        }
        logger.debug("reconnecting later", metadata: ["lifesignal.delayMs": "\(delay)"])
        publish(.reconnecting(attempt: backoff.attempt, delayMs: delay, error: reason))
    }

    private func reconnectTimerFired() {
        guard lifecycle == .waitingToReconnect else { return }
        startAttempt()
    }
}
