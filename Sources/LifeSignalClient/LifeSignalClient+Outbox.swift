import LifeSignalProtocol

/// The outbox (PROTOCOL §12): writes made offline, or whose answer was lost, are kept in
/// `configuration.outbox` and sent in the order they were queued, each under its own `opId`,
/// until the broker has answered them. A write the broker has run once is answered from what it
/// kept if it comes again, so its effect happens once however often it is sent.
extension LifeSignalClient {
    /// The client's outbox: what is pending, and who is watching it.
    struct OutboxState {
        var pending: [PendingOperation] = []
        /// The replay under way, if any.
        var replay: Task<Void, Never>?
        var pendingWatchers: [UInt64: AsyncStream<[PendingOperation]>.Continuation] = [:]
        var outcomeWatchers: [UInt64: AsyncStream<OperationOutcome>.Continuation] = [:]
        var nextWatcher: UInt64 = 0

        mutating func newWatcher() -> UInt64 {
            defer { nextWatcher += 1 }
            return nextWatcher
        }
    }

    /// Queues `command`, saved in the outbox before this returns, and sends it as soon as the
    /// client is live (at once if it is). Its outcome comes on `operationOutcomes()`.
    /// - Throws: `.notQueueable` for a read or `account.delete` (nothing to keep, or nothing to
    ///   send it again as); `.noOutbox` without `configuration.outbox`; the storage's error, in
    ///   which case nothing was queued.
    @discardableResult
    public func enqueue(_ command: DeviceCommand) throws -> PendingOperation {
        guard command.keepsOutcome else { throw LifeSignalClientError.notQueueable(command.op) }
        guard let storage = configuration.outbox else { throw LifeSignalClientError.noOutbox }
        let operation = PendingOperation(command: command)
        try storage.save(outbox.pending + [operation])
        outbox.pending.append(operation)
        publishPending()
        replayOutbox()
        return operation
    }

    /// What waits in the outbox, oldest first.
    public var pendingOperations: [PendingOperation] { outbox.pending }

    /// The pending operations now, then again after every change. Each call is a stream of its
    /// own; cancelling it stops only it.
    public func pendingOperationUpdates() -> AsyncStream<[PendingOperation]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [PendingOperation].self, bufferingPolicy: .bufferingNewest(1))
        let id = outbox.newWatcher()
        outbox.pendingWatchers[id] = continuation
        continuation.yield(outbox.pending)
        continuation.onTermination = { [weak self] _ in Task { await self?.stopWatchingPending(id) } }
        return stream
    }

    /// Each operation's outcome as the broker answers it, from now on.
    public func operationOutcomes() -> AsyncStream<OperationOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: OperationOutcome.self)
        let id = outbox.newWatcher()
        outbox.outcomeWatchers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.stopWatchingOutcomes(id) } }
        return stream
    }

    private func stopWatchingPending(_ id: UInt64) { outbox.pendingWatchers[id] = nil }
    private func stopWatchingOutcomes(_ id: UInt64) { outbox.outcomeWatchers[id] = nil }

    /// Sends what is pending now and returns once the outbox is empty, or the replay stopped (the
    /// connection dropped, or the broker asked for patience: the rest is sent later).
    public func flushOutbox() async {
        replayOutbox()
        await outbox.replay?.value
    }

    /// Sends what is pending, one at a time and in order, while the client is live.
    func replayOutbox() {
        guard outbox.replay == nil, lifecycle == .live, !outbox.pending.isEmpty else { return }
        outbox.replay = Task { await drainOutbox() }
    }

    private func drainOutbox() async {
        defer { outbox.replay = nil }
        while lifecycle == .live, let next = outbox.pending.first {
            do {
                finish(next, .success(try await request(next.op, next.requestFields)))
            } catch LifeSignalClientError.server(let error) where !Self.isWorthRetrying(error.code) {
                finish(next, .failure(error))
            } catch {
                // Not answered (the link dropped, the broker is busy): kept, and sent again on the
                // next connection, or shortly if this one stays.
                if case .server = error as? LifeSignalClientError { retryOutboxShortly() }
                return
            }
        }
    }

    /// A refusal that says nothing of the request itself: the same request may well run later.
    static func isWorthRetrying(_ code: ProtocolError.Code) -> Bool {
        [.internal, .overloaded, .rateLimited].contains(code)
    }

    private func retryOutboxShortly() {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            await self?.replayOutbox()
        }
    }

    /// The broker answered `operation`: it leaves the outbox. Should saving that fail, it is sent
    /// again after a restart and answered from the broker's kept outcome.
    private func finish(_ operation: PendingOperation, _ result: Result<JSONObject, ProtocolError>) {
        outbox.pending.removeAll { $0.id == operation.id }
        do {
            try configuration.outbox?.save(outbox.pending)
        } catch {
            logger.warning("outbox not saved", metadata: ["lifesignal.error": "\(error)"])
        }
        publishPending()
        for watcher in outbox.outcomeWatchers.values { watcher.yield(OperationOutcome(operation: operation, result: result)) }
    }

    private func publishPending() {
        for watcher in outbox.pendingWatchers.values { watcher.yield(outbox.pending) }
    }

    /// Ends every outbox stream (`close()`).
    func finishOutboxStreams() {
        for watcher in outbox.pendingWatchers.values { watcher.finish() }
        for watcher in outbox.outcomeWatchers.values { watcher.finish() }
        outbox.pendingWatchers = [:]
        outbox.outcomeWatchers = [:]
    }
}
