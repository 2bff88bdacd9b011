import LifeSignalUV

/// The one answer of a lease (`ClusterDatabase.withConnection`), whichever comes first: the
/// work's result, the lease's timeout before a connection came, the work's timeout, or the
/// caller's cancellation. The caller is resumed once, at once, even while the work it gave up
/// on is still stuck on its connection.
final class LeaseAnswer<T: Sendable>: Sendable {
    private enum Stage { case waitingForConnection, leased, answered }

    private struct State {
        var stage = Stage.waitingForConnection
        var continuation: CheckedContinuation<T, any Error>?
        var cancelled = false
        var cancelLease: (@Sendable () -> Void)?
        var whenLeased: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// The caller waits here for the answer.
    func await(_ continuation: CheckedContinuation<T, any Error>) {
        let cancelled = state.withLock { state in
            guard !state.cancelled else {
                state.stage = .answered
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// A connection came: true if the work may still run on it.
    func leased() -> Bool {
        let whenLeased: (@Sendable () -> Void)?? = state.withLock { state in
            guard state.stage == .waitingForConnection else { return nil }
            state.stage = .leased
            return .some(state.whenLeased)
        }
        guard let whenLeased else { return false }
        whenLeased?()
        return true
    }

    /// Runs `action` once a connection came (at once if one already has).
    func onLeased(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            guard state.stage == .waitingForConnection else { return true }
            state.whenLeased = action
            return false
        }
        if runNow { action() }
    }

    /// No connection came in time: answers `error`, unless a connection came first.
    func timeOutLease(_ error: any Error) -> Bool {
        answer(.failure(error), onlyIf: .waitingForConnection)
    }

    /// The answer, unless one was given already. True when this one is it.
    @discardableResult
    func give(_ result: Result<T, any Error>) -> Bool {
        answer(result, onlyIf: nil)
    }

    /// How to give up the lease's task when the caller is cancelled.
    func cancelWith(_ cancelLease: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLock { state in
            state.cancelLease = cancelLease
            return state.cancelled
        }
        if cancelNow { cancelLease() }
    }

    /// Cancels the lease's task (its work was given up).
    func cancelLease() {
        state.withLock { $0.cancelLease }?()
    }

    /// The caller was cancelled: it is answered so, and the lease's task is cancelled.
    func cancel() {
        let cancelLease = state.withLock { state in
            state.cancelled = true
            return state.cancelLease
        }
        _ = answer(.failure(CancellationError()), onlyIf: nil)
        cancelLease?()
    }

    private func answer(_ result: Result<T, any Error>, onlyIf stage: Stage?) -> Bool {
        let continuation: CheckedContinuation<T, any Error>?? = state.withLock { state in
            guard state.stage != .answered, stage == nil || state.stage == stage else { return nil }
            state.stage = .answered
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard let continuation else { return false }
        continuation?.resume(with: result)
        return true
    }
}
