import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalStoreSQLite
import LifeSignalUV
import Logging

/// This broker's part in a cluster (PROTOCOL §11, ARCHITECTURE.md, "The cluster"): requests run as
/// steps of the `ClusterExecutor` against PostgreSQL; committed events reach this broker's devices
/// through their `UserFeed`, and other brokers' devices through hints; every broker fires due
/// deadlines.
///
/// Loop thread only (owned by the `Broker`, entered from its connections, timers and the
/// completions `run` brings back to the loop). `@unchecked Sendable` so that those completions,
/// which run on the loop, may capture it.
final class ClusterNode: @unchecked Sendable {
    let executor: ClusterExecutor
    let loop: EventLoop
    let logger: Logger
    let configuration: BrokerConfiguration
    /// Set by the broker that owns this node, once it exists; it outlives the node's work.
    weak var broker: Broker?
    /// The id presence rows and hellos name (`Broker.brokerID`), known once the broker listens.
    private(set) var brokerID = ""
    /// Users with a device connected here.
    var feeds: [String: UserFeed] = [:]
    /// Head seqs committed here since the last hint went out.
    var pendingHints: [String: Int64] = [:]
    var hintTimer: Timer?
    var hintsScheduled = false
    var housekeepingTimer: Timer?
    var housekeepingTicks = 0
    /// Each housekeeping task runs one at a time: a slow database is not asked twice.
    var housekeepingUnderWay: Set<HousekeepingTask> = []
    var listening: Task<Void, Never>?
    /// Feeds' reads of the log waiting for the next query, and queries running (ClusterNode+Delivery).
    var pendingReads: [String: (after: Int64, completion: @Sendable (Result<[(seq: Int64, body: String)], any Error>) -> Void)] = [:]
    var readsInFlight = 0
    /// Steps waiting for the next batch, and batches running (ClusterNode+Batches).
    var queuedSteps: [QueuedStep] = []
    /// When each batch under way started (MonotonicClock ns).
    var batchesStartedNs: [UInt64] = []
    /// Failed batches are logged at a bounded rate.
    var logThrottle = LogThrottle()
    let commitMetrics = CommitMetrics()
    /// What the last housekeeping task found, so that losing PostgreSQL is logged once.
    var isDatabaseReachable = true
    /// Presence (ClusterNode+Presence): a lost write makes it doubtful; when devices whose rows
    /// may be left went offline; hellos under way, by device.
    var presenceNeedsCheck = false
    var offlineSince: [DeviceKey: Int64] = [:]
    var attaching: [DeviceKey: Int] = [:]

    init(executor: ClusterExecutor, loop: EventLoop, logger: Logger, configuration: BrokerConfiguration) {
        self.executor = executor
        self.loop = loop
        self.logger = logger
        self.configuration = configuration
    }

    /// Starts serving as `brokerID`: forgets what a previous run of this id left in presence,
    /// listens for hints, and starts the timers (heartbeat, head check, deadlines).
    func start(brokerID: String) throws {
        self.brokerID = brokerID
        run({ executor in
            try await executor.clearPresence(brokerID: brokerID)
            try await executor.heartbeat(brokerID: brokerID)
        }, then: { [logger] result in
            if case .failure(let error) = result {
                logger.warning("cluster presence not reset", metadata: ["lifesignal.error": "\(error)"])
            }
        })
        startListening()
        try startHousekeeping()
        hintTimer = try Timer(loop: loop)
        hintTimer?.unref()
    }

    /// Stops the timers and the hint listener; devices are left to the loop's shutdown.
    func stop() {
        housekeepingTimer?.close()
        housekeepingTimer = nil
        hintTimer?.close()
        hintTimer = nil
        listening?.cancel()
        listening = nil
    }

    /// Runs `work` against the executor off the loop, then `then` on the loop with its result.
    /// Counted in the broker's store backlog meanwhile, so `overloaded` sheds as it does embedded.
    func run<T: Sendable>(_ work: @escaping @Sendable (ClusterExecutor) async throws -> T,
                          then: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let (executor, loop) = (self.executor, self.loop)
        broker?.onLoop { $0.storeBacklog += 1 }
        Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await work(executor))
            } catch {
                result = .failure(error)
            }
            loop.execute { [self] in
                broker?.onLoop { $0.storeBacklog -= 1 }
                then(result)
            }
        }
    }

    /// Logs what may repeat many times a second (PostgreSQL gone) at most once per
    /// `LogThrottle.intervalMs` per message, with the number left out since.
    func logThrottled(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) {
        guard let suppressed = logThrottle.admit(key: message.description, nowMs: loop.cachedNowMs) else { return }
        var metadata = metadata
        if suppressed > 0 { metadata["lifesignal.suppressed"] = "\(suppressed)" }
        logger.log(level: level, message, metadata: metadata)
    }

    /// The answer for an error of a step: the rules' own refusal as it is, anything else (the
    /// database lost, a timeout) `internal`, never a lie about the user (§9): where the commit
    /// had been sent when the connection was lost, it may have taken effect, and the answer says so.
    static func protocolError(_ error: any Error) -> ProtocolError {
        switch error {
        case let error as ProtocolError:
            return error
        case let timeout as PostgresWorkTimeout where timeout.duringCommit:
            return commitUnconfirmed
        case is PostgresCommitUnknown:
            return commitUnconfirmed
        default:
            return ProtocolError(.internal, "the cluster store could not be reached; nothing was changed")
        }
    }

    private static let commitUnconfirmed =
        ProtocolError(.internal, "the cluster store did not confirm the commit; the change may have been made")
}
