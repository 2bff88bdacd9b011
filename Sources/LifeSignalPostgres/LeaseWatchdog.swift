import LifeSignalUV

/// Gives up the leases that waited too long, for a whole pool with one timer: a task group with a
/// sleeping child per lease cost every statement two extra tasks and a timer (docs/BENCHMARKS.md,
/// "Cluster": at 5,000 pings/s the p50 of a cross-broker ping 28/23/23 → 21/19/22 ms without it).
final class LeaseWatchdog: Sendable {
    private let expiries = Expiries()
    private let checker: Task<Void, Never>

    /// Checks every `period`: a lease is given up at most that long after its deadline.
    init(period: Duration = .milliseconds(100)) {
        let expiries = self.expiries
        checker = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
                for expire in expiries.takeDue(at: .now) { expire() }
            }
        }
    }

    /// Runs `expire` once `deadline` has passed, unless `forget` comes first.
    func watch(until deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        expiries.add(deadline, expire)
    }

    func forget(_ token: UInt64) { expiries.remove(token) }

    deinit { checker.cancel() }

    private final class Expiries: Sendable {
        private struct State {
            var nextToken: UInt64 = 0
            var pending: [UInt64: (deadline: ContinuousClock.Instant, expire: @Sendable () -> Void)] = [:]
        }

        private let state = Locked(State())

        func add(_ deadline: ContinuousClock.Instant, _ expire: @escaping @Sendable () -> Void) -> UInt64 {
            state.withLock { state in
                state.nextToken += 1
                state.pending[state.nextToken] = (deadline, expire)
                return state.nextToken
            }
        }

        func remove(_ token: UInt64) {
            _ = state.withLock { $0.pending.removeValue(forKey: token) }
        }

        func takeDue(at now: ContinuousClock.Instant) -> [@Sendable () -> Void] {
            state.withLock { state in
                let due = state.pending.filter { $0.value.deadline <= now }
                for token in due.keys { state.pending[token] = nil }
                return due.values.map(\.expire)
            }
        }
    }
}
