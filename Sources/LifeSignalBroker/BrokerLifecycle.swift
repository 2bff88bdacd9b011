import LifeSignalUV

/// The broker's lifecycle as one state, which owns what serving holds (as Hummingbird's
/// `Server.State` owns its channel): every listener and timer lives in `.serving` and is closed
/// with it, so none outlives `stopAccepting()` and none can be started after it.
enum BrokerLifecycle {
    case initial
    case serving(ServingResources)
    case stopped
}

/// What a serving broker holds. Loop only.
final class ServingResources {
    /// Nil while accepting pauses for want of descriptors (Broker+Listening).
    var listener: TCPListener?
    var listenRetryTimer: Timer?
    /// The timeout sweep (Broker+Timeouts).
    var sweepTimer: Timer?
    /// Every pending check-in deadline (embedded store; a cluster keeps them in PostgreSQL).
    var deadlines: DeadlineScheduler?
    /// Runs what the store could not do (Broker+StoreRecovery).
    var storeRetryTimer: Timer?

    func close() {
        listener?.close()
        listener = nil
        listenRetryTimer?.close()
        listenRetryTimer = nil
        sweepTimer?.close()
        sweepTimer = nil
        deadlines?.close()
        deadlines = nil
        storeRetryTimer?.close()
        storeRetryTimer = nil
    }
}

extension Broker {
    /// What serving holds, while the broker serves.
    var serving: ServingResources? { if case .serving(let resources) = lifecycle { resources } else { nil } }
    var deadlines: DeadlineScheduler? { serving?.deadlines }
    var isAccepting: Bool { serving?.listener != nil }
}
