import LifeSignalUV

/// Work the store could not do, done again once it can: nothing that a failing store touched
/// is left to memory alone (a missed check-in in particular is never dropped).
extension Broker {
    enum StoreRetry: Equatable {
        /// A missed deadline whose users could not be loaded.
        case missedDeadline(userID: String, deadline: Int64)
        /// A user whose write failed: read back so that the scheduler takes the stored deadline.
        case reload(userID: String)
        /// The pending deadlines, read at start-up.
        case loadDeadlines
    }

    static let storeRetryMs: UInt64 = 1_000

    /// Runs `retry` again in a second (all retries due then run together); one already due is
    /// not queued twice, however often its user fails meanwhile.
    func retryAfterStoreFailure(_ retry: StoreRetry) {
        // A stopped broker retries nothing: what failed is read from the store at the next start.
        guard let serving, !storeRetries.contains(retry) else { return }
        logStoreFailure("store failure: retrying", ["lifesignal.retry": "\(retry)"])
        storeRetries.append(retry)
        guard storeRetries.count == 1 else { return }  // the timer is already running
        if serving.storeRetryTimer == nil {
            serving.storeRetryTimer = try? Timer(loop: loop)
            serving.storeRetryTimer?.unref()
        }
        serving.storeRetryTimer?.start(afterMs: Self.storeRetryMs) { [unowned self] in
            onLoop { broker in
                let due = broker.storeRetries
                broker.storeRetries = []
                for retry in due {
                    switch retry {
                    case .missedDeadline(let userID, let deadline): broker.deadlineMissed(userID, deadline)
                    case .reload(let userID): broker.reloadFromStore(userID)
                    case .loadDeadlines: broker.loadPendingDeadlines()
                    }
                }
            }
        }
    }

    /// A write that touched this user failed, so memory (and the deadline scheduler with it) may
    /// be ahead of the store: a deadline that fired may not be stored as fired, a check-in that
    /// moved it may not be stored at all. Loading the user schedules the stored deadline again
    /// (`finishLoading`); until the store can be read, this is retried.
    func reloadFromStore(_ userID: String) {
        withSession(userID) { [self] lookup in
            if case .failure = lookup { onLoop { $0.retryAfterStoreFailure(.reload(userID: userID)) } }
        }
    }
}
