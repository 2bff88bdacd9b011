import LifeSignalProtocol
import LifeSignalUV
import Logging

/// The broker's registry: its listener, every connection, and the user sessions that are loaded.
///
/// Lives on the loop (`unownedExecutor`); connections enter it synchronously with
/// `assumeIsolated`. Users are loaded on demand and unloaded when no device is online
/// and nothing of theirs is being committed.
public actor Broker {
    /// A user's place in the registry.
    enum Entry {
        case loading(waiters: [(UserSession?) -> Void])
        case loaded(UserSession)
    }

    nonisolated let loop: EventLoop
    nonisolated let store: BrokerStore
    nonisolated let logger: Logger
    /// Committed pushes go to the gateway through here, off the loop (§7).
    nonisolated let pushOutbox: PushOutbox
    nonisolated public var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    let configuration: BrokerConfiguration
    var users: [String: Entry] = [:]
    var connections: [UInt64: ClientConnection] = [:]
    /// Which loaded device holds each push token, so a token that moves is dropped at once.
    var pushTokenOwners: [String: DeviceKey] = [:]
    /// Callers waiting for a stale session to be unloaded and loaded again.
    var pendingReloads: [String: [(UserSession?) -> Void]] = [:]
    /// Every pending check-in deadline; made on the loop when the broker starts.
    var deadlines: DeadlineScheduler?
    private var listener: TCPListener?
    private var sweepTimer: Timer?

    func setSweepTimer(_ timer: Timer) { sweepTimer = timer }

    /// `pushGateway` defaults to `RecordingPushGateway`: the store already keeps every push.
    public init(configuration: BrokerConfiguration, store: BrokerStore, loop: EventLoop, logger: Logger,
                pushGateway: (any PushGateway)? = nil) {
        self.configuration = configuration
        self.store = store
        self.loop = loop
        self.logger = logger
        pushOutbox = PushOutbox(gateway: pushGateway ?? RecordingPushGateway(logger: logger), logger: logger)
    }

    /// Binds and starts accepting; returns the port (the real one when 0 was asked for).
    public func start() throws -> Int {
        let listener = try TCPListener(loop: loop, host: configuration.host, port: configuration.port)
        let configuration = self.configuration
        try listener.start { [unowned self] tcp in
            let connection = ClientConnection(tcp: tcp, broker: self, configuration: configuration)
            assumeIsolated { $0.accept(connection) }
        }
        self.listener = listener
        startSweeping()
        try startDeadlines()
        return listener.localPort
    }

    /// Stops accepting; existing connections are left to the loop's graceful shutdown.
    public func stopAccepting() {
        listener?.close()
        listener = nil
        sweepTimer?.close()
        sweepTimer = nil
        deadlines?.close()
        deadlines = nil
    }

    private func accept(_ connection: ClientConnection) {
        connections[connection.id] = connection
        connection.tcp.delegate = connection
        connection.tcp.startReading()
    }

    func connectionClosed(_ connection: ClientConnection) {
        connections[connection.id] = nil
        if let (session, deviceID) = connection.attachment {
            session.assumeIsolated { session in
                session.detach(connection, deviceID: deviceID)
                session.unloadIfIdle()
            }
        }
    }
}
