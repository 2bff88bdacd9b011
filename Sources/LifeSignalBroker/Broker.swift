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
    nonisolated public var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    let configuration: BrokerConfiguration
    var users: [String: Entry] = [:]
    var connections: [UInt64: ClientConnection] = [:]
    /// Which loaded device holds each push token, so a token that moves is dropped at once.
    var pushTokenOwners: [String: DeviceKey] = [:]
    /// Callers waiting for a stale session to be unloaded and loaded again.
    var pendingReloads: [String: [(UserSession?) -> Void]] = [:]
    private var listener: TCPListener?
    private var sweepTimer: Timer?

    func setSweepTimer(_ timer: Timer) { sweepTimer = timer }

    public init(configuration: BrokerConfiguration, store: BrokerStore, loop: EventLoop, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.loop = loop
        self.logger = logger
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
        return listener.localPort
    }

    /// Stops accepting; existing connections are left to the loop's graceful shutdown.
    public func stopAccepting() {
        listener?.close()
        listener = nil
        sweepTimer?.close()
        sweepTimer = nil
    }

    public var onlineConnectionCount: Int { connections.count }

    private func accept(_ connection: ClientConnection) {
        connections[connection.id] = connection
        connection.tcp.delegate = connection
        connection.tcp.startReading()
    }

    func connectionClosed(_ connection: ClientConnection) {
        connections[connection.id] = nil
        if let (session, deviceID) = connection.attachment {
            let idle = session.assumeIsolated { session in
                session.detach(connection, deviceID: deviceID)
                return session.isIdle
            }
            if idle { evictIfIdle(session) }
        }
    }
}
