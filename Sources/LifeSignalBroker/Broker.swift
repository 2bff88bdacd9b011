import DequeModule
import LifeSignalEngine
import LifeSignalLimits
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalStoreSQLite
import LifeSignalUV
import Logging

/// The broker's registry: its listener, every connection, and the user sessions that are loaded.
///
/// Confined to the loop (`LoopConfined`): the sessions, connections and timers on its thread call
/// into it directly, and anything else hops there with `onLoopAsync`. Users are loaded on demand
/// and unloaded when no device is online and nothing of theirs is being committed.
public final class Broker: LoopConfined, @unchecked Sendable {
    /// A user's place in the registry.
    enum Entry {
        case loading(waiters: [(SessionLookup) -> Void])
        case loaded(UserSession)
    }

    public let loop: EventLoop
    /// The embedded store; nil in a cluster, where `cluster` runs every request against PostgreSQL.
    let store: BrokerStore?
    /// This broker's part in a cluster (§11), or nil when it serves from the embedded store.
    let cluster: ClusterNode?
    let logger: Logger
    /// Whether `logger` takes a line per request (trace): read once, since a logger's level check
    /// costs a copy of the logger on every request.
    let logsRequests: Bool
    /// Committed pushes go to the gateway through here, off the loop (§7).
    let pushOutbox: PushOutbox
    /// Requests by op and result; nil when metrics are off, so that answering costs no clock reading.
    let requestMetrics: RequestMetrics?
    /// The same, for connections to use without a retain and a release per request (measured).
    let unretainedRequestMetrics: Unmanaged<RequestMetrics>?
    let counters: BrokerCounters

    let configuration: BrokerConfiguration
    /// `requestRate` / `requestBurst`, which every connection's budget is taken at (§9 `rate_limited`).
    let requestBudgetRate: TokenBucket.Rate
    var users: [String: Entry] = [:]
    var connections: [UInt64: ClientConnection] = [:]
    /// Which loaded device holds each push token, so a token that moves is dropped at once.
    var pushTokenOwners: [String: DeviceKey] = [:]
    /// Callers waiting for a stale session to be unloaded and loaded again.
    var pendingReloads: [String: [(SessionLookup) -> Void]] = [:]
    /// What the store could not do, tried again every second (Broker+StoreRecovery).
    var storeRetries: [StoreRetry] = []
    /// Connections at once (`maxConnections`, or derived from the open-file limit).
    let maxConnections: Int
    /// RLIMIT_NOFILE in force, after raising the soft limit to the hard one.
    let openFileLimit: Int
    /// Store submissions not yet completed (Broker+Backlog).
    var storeBacklog = 0 { didSet { storeBacklogMoved() } }
    /// The backlog at `maxPendingWrites`, and the connections at `maxConnections` (logged once each).
    var backlogOverload = OverloadEpisode()
    var connectionOverload = OverloadEpisode()
    /// Ids of connections in the order they came, for closing the oldest one still awaiting
    /// `hello` at the connection limit; ids that said hello or closed since are skipped then.
    var helloQueue = Deque<UInt64>()
    /// `register`s per source address.
    var registerLimiter: AddressRateLimiter
    /// `hello`s with bad credentials per source address (`failedHellosPerSecond`).
    var failedHellos: AddressRateLimiter
    /// `contacts.add`s with an unknown QR code per user (`failedAddsPerMinute`): per user, so
    /// that neither a new connection nor a reload starts afresh.
    var failedAdds: KeyedRateLimiter<String>
    /// Connections open per source address (`maxConnectionsPerAddress`).
    var connectionsPerAddress: AddressConnectionCounts
    var logThrottle = LogThrottle()
    /// Initial, serving (with the listener and timers it holds), or stopped.
    var lifecycle = BrokerLifecycle.initial
    /// The port actually bound, for listening again after a pause.
    var boundPort = 0
    /// When the previous sweep ran: the time its timeouts are judged at (see `closeTimedOutConnections`).
    var previousSweepMs: UInt64?

    /// `pushGateway` defaults to `RecordingPushGateway`: the store already keeps every push.
    public convenience init(configuration: BrokerConfiguration, store: BrokerStore, loop: EventLoop, logger: Logger,
                pushGateway: (any PushGateway)? = nil) {
        self.init(configuration: configuration, store: store, cluster: nil, loop: loop, logger: logger,
                  pushGateway: pushGateway)
    }

    /// A broker of a cluster: every request runs on `cluster` against PostgreSQL (§11).
    public convenience init(configuration: BrokerConfiguration, cluster: ClusterExecutor, loop: EventLoop, logger: Logger,
                pushGateway: (any PushGateway)? = nil) {
        self.init(configuration: configuration, store: nil, cluster: cluster, loop: loop, logger: logger,
                  pushGateway: pushGateway)
    }

    private init(configuration: BrokerConfiguration, store: BrokerStore?, cluster: ClusterExecutor?, loop: EventLoop,
                 logger: Logger, pushGateway: (any PushGateway)?) {
        self.configuration = configuration
        requestBudgetRate = TokenBucket.Rate(ratePerSecond: configuration.requestRate, burst: configuration.requestBurst)
        self.store = store
        self.cluster = cluster.map {
            ClusterNode(executor: $0, loop: loop, logger: logger, configuration: configuration)
        }
        self.loop = loop
        self.logger = logger
        logsRequests = logger.logLevel <= .trace
        requestMetrics = configuration.metricsPort == nil ? nil : RequestMetrics(loop: loop)
        unretainedRequestMetrics = requestMetrics.map { Unmanaged.passUnretained($0) }
        counters = BrokerCounters()
        registerLimiter = AddressRateLimiter(ratePerSecond: configuration.registerRate,
                                             burst: configuration.registerBurst)
        // Up to a second's worth of failed hellos at once, and a minute's worth of failed adds.
        failedHellos = AddressRateLimiter(ratePerSecond: configuration.failedHellosPerSecond,
                                          burst: max(1, Int(configuration.failedHellosPerSecond.rounded(.up))))
        failedAdds = KeyedRateLimiter(ratePerSecond: Double(configuration.failedAddsPerMinute) / 60,
                                      burst: max(1, configuration.failedAddsPerMinute))
        connectionsPerAddress = AddressConnectionCounts(limit: configuration.maxConnectionsPerAddress)
        let fileLimit = ProcessFileLimit.raiseToHard()
        openFileLimit = fileLimit
        maxConnections = configuration.maxConnections ?? OpenFileLimit.defaultMaxConnections(limit: fileLimit)
        pushOutbox = PushOutbox(gateway: pushGateway ?? RecordingPushGateway(logger: logger), logger: logger)
        self.cluster?.broker = self
    }

    /// Binds (unless given a listener bound already) and starts accepting; returns the port (the
    /// real one when 0 was asked for).
    public func start(listener bound: TCPListener? = nil) throws -> Int {
        guard case .initial = lifecycle else { throw StartFailure("a broker starts once") }
        let serving = ServingResources()
        lifecycle = .serving(serving)
        do {
            boundPort = try listen(port: configuration.port, bound: bound)
            startSweeping()
            pushOutbox.start(feedback: pushFeedback())
            if let cluster {
                try cluster.start(brokerID: brokerID)
            } else {
                try startDeadlines()
            }
        } catch {
            stopAccepting()
            throw error
        }
        return boundPort
    }

    /// Stops accepting; existing connections are left to the loop's graceful shutdown.
    public func stopAccepting() {
        serving?.close()
        lifecycle = .stopped
        cluster?.stop()
    }

    func accept(_ tcp: TCPConnection) {
        guard hasRoomForAddress(of: tcp), admit(tcp) else { return }
        countConnection(from: tcp)
        counters.connectionsAccepted.increment()
        let connection = ClientConnection(tcp: tcp, broker: self, configuration: configuration)
        connections[connection.id] = connection
        helloQueue.append(connection.id)
        compactHelloQueueIfNeeded()
        connection.tcp.delegate = connection
        connection.tcp.startReading()
        logger.debug("connection opened", metadata: [
            "lifesignal.conn": .stringConvertible(connection.id), "lifesignal.peer": "\(tcp.remoteAddress)",
        ])
    }

    func connectionClosed(_ connection: ClientConnection) {
        connections[connection.id] = nil
        logger.debug("connection closed", metadata: ["lifesignal.conn": .stringConvertible(connection.id)])
        uncountConnection(from: connection.tcp)
        if let attachment = connection.attachment {
            attachment.router.connectionEnded(connection, deviceID: attachment.deviceID)
        }
    }
}
