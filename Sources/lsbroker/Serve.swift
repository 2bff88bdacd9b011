import ArgumentParser
import Foundation
import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalPush
import LifeSignalVersion
import Logging

/// `lsbroker serve`: every option also reads `LSBROKER_<NAME>` from the environment, and falls back
/// to `BrokerConfiguration`'s default, which its help shows.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the broker until SIGINT or SIGTERM.")

    @Option(help: .setting("Address to listen on.", env: "HOST", default: Serve.defaults.host))
    var host: String?
    @Option(help: .setting("TCP port; 0 picks a free one.", env: "PORT", default: Serve.defaults.port))
    var port: Int?
    @Option(
        name: .customLong("data-dir"),
        help: .setting("Directory of the SQLite store.", env: "DATA_DIR", default: Serve.defaults.dataDirectory))
    var dataDirectory: String?
    @Option(
        name: .customLong("store-cache-mib"),
        help: .setting(
            "SQLite page cache per store connection, in MiB; the writer's holds the hot pages.", env: "STORE_CACHE_MIB",
            default: Serve.defaults.storeCacheMiB))
    var storeCacheMiB: Int?
    @Option(help: .setting("Largest frame accepted, in bytes.", env: "MAX_FRAME_BYTES", default: Serve.defaults.maxFrameBytes))
    var maxFrameBytes: Int?
    @Option(help: .setting(
        "Heartbeat announced to devices; 2x silence closes.", env: "HEARTBEAT_MS", default: Serve.defaults.heartbeatMs))
    var heartbeatMs: Int64?
    @Option(help: .setting(
        "Time a connection has to say hello.", env: "HELLO_TIMEOUT_MS", default: Serve.defaults.helloTimeoutMs))
    var helloTimeoutMs: Int64?
    @Option(help: .setting(
        "Devices of one user online at once.", env: "MAX_DEVICES_PER_USER", default: Serve.defaults.maxDevicesPerUser))
    var maxDevicesPerUser: Int?
    @Option(help: .setting("Events kept per user for resume.", env: "EVENT_RETENTION", default: Serve.defaults.eventRetention))
    var eventRetention: Int?
    @Option(help: .setting(
        "Smallest check-in interval allowed, in seconds.", env: "MIN_CHECK_IN_INTERVAL_SEC",
        default: Serve.defaults.minCheckInIntervalSec))
    var minCheckInIntervalSec: Int64?
    @Option(help: .setting(
        "Unsent bytes that cut a slow reader.", env: "MAX_OUTBOUND_BYTES", default: Serve.defaults.maxOutboundBytes))
    var maxOutboundBytes: Int?
    @Option(help: .setting(
        "Requests per second per connection; 0 turns the limit off.", env: "REQUEST_RATE", default: Serve.defaults.requestRate))
    var requestRate: Double?
    @Option(help: .setting("Requests a connection may send at once.", env: "REQUEST_BURST", default: Serve.defaults.requestBurst))
    var requestBurst: Int?
    @Option(help: .setting(
        "Registers per second per source address (IPv6: per /64); 0 turns it off.", env: "REGISTER_RATE",
        default: Serve.defaults.registerRate))
    var registerRate: Double?
    @Option(help: .setting(
        "Registers an address may send at once.", env: "REGISTER_BURST", default: Serve.defaults.registerBurst))
    var registerBurst: Int?
    @Option(help: .setting(
        "Uncommitted store rows (a read counts one) at which requests that need the store get overloaded.", env: "MAX_PENDING_WRITES",
        default: Serve.defaults.maxPendingWrites))
    var maxPendingWrites: Int?
    @Option(help: .setting("Connections at once.", env: "MAX_CONNECTIONS", default: "the open-file limit less 256"))
    var maxConnections: Int?
    @Option(help: .setting(
        "Id this broker gives in hello (diagnostics).", env: "BROKER_ID", default: "host name and port"))
    var brokerId: String?
    @Option(help: .setting(
        "Serve from this PostgreSQL, postgres://user[:password]@host[:port]/db[?pool=N&sslmode=MODE&sslrootcert=PATH], as one broker of a cluster (brokers given the same URL are one cluster); the data directory is not used. sslmode: disable, prefer (the default), require, verify-ca or verify-full.",
        env: "POSTGRES", default: "the embedded store in --data-dir"))
    var postgres: String?
    @Option(help: .setting(
        "Read the PostgreSQL password from this file (mode 600), not from the URL.", env: "POSTGRES_PASSWORD_FILE",
        default: "the URL's password, else PGPASSWORD or PGPASSFILE (~/.pgpass) as libpq reads them"))
    var postgresPasswordFile: String?
    @Option(help: .setting(
        "Seconds a PostgreSQL transaction may take, every statement and the commit; past it the connection is closed and its requests are answered internal.",
        env: "POSTGRES_TIMEOUT", default: Serve.defaults.postgresTimeout))
    var postgresTimeout: Double?
    // Per-user quotas (PROTOCOL §10); 0 turns each off.
    @Option(help: .setting(
        "Contacts per user; over it contacts.add gets limit_exceeded.", env: "MAX_CONTACTS",
        default: defaults.maxContacts))
    var maxContacts: Int?
    @Option(help: .setting(
        "Devices stored per user; a new one replaces the least recently seen offline one.", env: "MAX_STORED_DEVICES",
        default: defaults.maxStoredDevices))
    var maxStoredDevices: Int?
    @Option(help: .setting(
        "Newest notifications kept per user; older ones are pruned with their pushes.", env: "NOTIFICATION_HISTORY",
        default: defaults.notificationHistory))
    var notificationHistory: Int?
    @Option(help: .setting(
        "contacts.add with an unknown QR code per user and minute; then rate_limited.", env: "FAILED_ADDS_PER_MINUTE",
        default: defaults.failedAddsPerMinute))
    var failedAddsPerMinute: Int?
    @Option(help: .setting(
        "Hellos with bad credentials per second per source address (IPv6: per /64); then rate_limited and close.",
        env: "FAILED_HELLOS_PER_SECOND", default: defaults.failedHellosPerSecond))
    var failedHellosPerSecond: Double?
    @Option(help: .setting(
        "Connections open at once per source address (IPv6: per /64); then overloaded and close.",
        env: "MAX_CONNECTIONS_PER_ADDRESS", default: defaults.maxConnectionsPerAddress))
    var maxConnectionsPerAddress: Int?
    @Option(
        name: .customLong("fcm-service-account"),
        help: .setting(
            "Google service account JSON key file: send each push through FCM HTTP v1 with it.",
            env: "FCM_SERVICE_ACCOUNT", default: "none, pushes are only recorded"))
    var fcmServiceAccount: String?
    @Option(
        name: .customLong("fcm-endpoint"),
        help: .setting("Base URL of the FCM API (tests, proxies).", env: "FCM_ENDPOINT", default: FCMSettings.defaultEndpoint))
    var fcmEndpoint: String?
    @Flag(help: .init(
        "Tests only: accept a plain http:// --fcm-endpoint and token_uri (a local fake FCM). Env LSBROKER_FCM_ALLOW_PLAIN_HTTP=true.",
        visibility: .hidden))
    var fcmAllowPlainHttp = false
    @Option(help: .setting(
        "trace, debug, info, notice, warning, error or critical.", env: "LOG_LEVEL", default: Serve.defaultLogLevel))
    var logLevel: String?
    @Option(help: .setting(
        "text (swift-log's layout, the time in UTC to the millisecond) or json (one object per line).", env: "LOG_FORMAT", default: Serve.defaultLogFormat.rawValue))
    var logFormat: LogFormat?
    @Option(help: .setting(
        "Serve /metrics (Prometheus), /healthz and /readyz over HTTP on this port; 0 picks a free one.",
        env: "METRICS_PORT", default: "off"))
    var metricsPort: Int?
    @Option(help: .setting(
        "Address of the metrics and health endpoint; it is unauthenticated, so keep it private.",
        env: "METRICS_HOST", default: Serve.defaults.metricsHost))
    var metricsHost: String?

    /// What each setting is when neither its option nor its variable is given.
    static let defaults = BrokerConfiguration()
    static let defaultLogLevel = "info"
    static let defaultLogFormat = LogFormat.text

    func run() throws {
        let environment = Environment(ProcessInfo.processInfo.environment)
        var config = Self.defaults
        config.host = try environment.resolve(host, "HOST", config.host)
        config.port = try environment.resolve(port, "PORT", config.port)
        // Absolute, so that the log says where the store is whichever directory the broker was started in.
        config.dataDirectory = URL(fileURLWithPath: try environment.resolve(dataDirectory, "DATA_DIR", config.dataDirectory))
            .standardizedFileURL.path
        config.storeCacheMiB = try environment.resolve(storeCacheMiB, "STORE_CACHE_MIB", config.storeCacheMiB)
        config.maxFrameBytes = try environment.resolve(maxFrameBytes, "MAX_FRAME_BYTES", config.maxFrameBytes)
        config.heartbeatMs = try environment.resolve(heartbeatMs, "HEARTBEAT_MS", config.heartbeatMs)
        config.helloTimeoutMs = try environment.resolve(helloTimeoutMs, "HELLO_TIMEOUT_MS", config.helloTimeoutMs)
        config.maxDevicesPerUser = try environment.resolve(
            maxDevicesPerUser, "MAX_DEVICES_PER_USER", config.maxDevicesPerUser)
        config.eventRetention = try environment.resolve(eventRetention, "EVENT_RETENTION", config.eventRetention)
        config.minCheckInIntervalSec = try environment.resolve(
            minCheckInIntervalSec, "MIN_CHECK_IN_INTERVAL_SEC", config.minCheckInIntervalSec)
        config.maxOutboundBytes = try environment.resolve(
            maxOutboundBytes, "MAX_OUTBOUND_BYTES", config.maxOutboundBytes)
        config.requestRate = try environment.resolve(requestRate, "REQUEST_RATE", config.requestRate)
        config.requestBurst = try environment.resolve(requestBurst, "REQUEST_BURST", config.requestBurst)
        config.registerRate = try environment.resolve(registerRate, "REGISTER_RATE", config.registerRate)
        config.registerBurst = try environment.resolve(registerBurst, "REGISTER_BURST", config.registerBurst)
        config.maxPendingWrites = try environment.resolve(
            maxPendingWrites, "MAX_PENDING_WRITES", config.maxPendingWrites)
        config.maxConnections = try environment.resolve(maxConnections, "MAX_CONNECTIONS")
        config.brokerID = try environment.resolve(brokerId, "BROKER_ID")
        config.postgresURL = try environment.resolve(postgres, "POSTGRES")
        config.postgresPasswordFile = try environment.resolve(postgresPasswordFile, "POSTGRES_PASSWORD_FILE")
        config.postgresTimeout = try environment.resolve(postgresTimeout, "POSTGRES_TIMEOUT", config.postgresTimeout)
        guard config.postgresTimeout > 0, config.postgresTimeout <= 3_600 else {
            throw ValidationError("--postgres-timeout must be more than 0 and at most 3600 seconds")
        }
        if let url = config.postgresURL {
            do { _ = try PostgresURL(parsing: url).withPassword(fromFile: config.postgresPasswordFile) } catch {
                throw ValidationError("\(error)")
            }
        }
        config.maxContacts = try environment.resolve(maxContacts, "MAX_CONTACTS", config.maxContacts)
        config.maxStoredDevices = try environment.resolve(maxStoredDevices, "MAX_STORED_DEVICES", config.maxStoredDevices)
        config.notificationHistory = try environment.resolve(
            notificationHistory, "NOTIFICATION_HISTORY", config.notificationHistory)
        config.failedAddsPerMinute = try environment.resolve(
            failedAddsPerMinute, "FAILED_ADDS_PER_MINUTE", config.failedAddsPerMinute)
        config.failedHellosPerSecond = try environment.resolve(
            failedHellosPerSecond, "FAILED_HELLOS_PER_SECOND", config.failedHellosPerSecond)
        config.maxConnectionsPerAddress = try environment.resolve(
            maxConnectionsPerAddress, "MAX_CONNECTIONS_PER_ADDRESS", config.maxConnectionsPerAddress)
        config.metricsPort = try environment.resolve(metricsPort, "METRICS_PORT")
        config.metricsHost = try environment.resolve(metricsHost, "METRICS_HOST", config.metricsHost)
        config.fcm = try Self.fcmSettings(
            serviceAccount: try environment.resolve(fcmServiceAccount, "FCM_SERVICE_ACCOUNT"),
            endpoint: try environment.resolve(fcmEndpoint, "FCM_ENDPOINT", FCMSettings.defaultEndpoint),
            allowsPlainHTTP: fcmAllowPlainHttp || environment.resolve(nil, "FCM_ALLOW_PLAIN_HTTP", false))
        let levelName = try environment.resolve(logLevel, "LOG_LEVEL", Self.defaultLogLevel)
        guard let level = Logger.Level(rawValue: levelName) else {
            throw ValidationError("unknown log level '\(levelName)'")
        }
        let format = try environment.resolve(logFormat, "LOG_FORMAT", Self.defaultLogFormat)
        do {
            try config.validate()
        } catch {
            throw ValidationError("\(error)")  // a bad value, like one ArgumentParser finds: exit 64
        }

        format.bootstrap(level: level)
        let logger = Logger(label: "lsbroker")
        logger.info("starting", metadata: [
            "lifesignal.version": "\(LifeSignalVersion.current)",
            "lifesignal.store": "\(config.postgresURL == nil ? "sqlite" : "postgresql")",
            "lifesignal.pid": .stringConvertible(getpid()),
        ])
        // Before the broker exists: its metric handles come from the system bootstrapped here.
        let metrics = config.metricsPort == nil ? nil : MetricsExport.bootstrap()
        try BrokerServer.run(configuration: config, logger: logger, metrics: metrics)
    }
}

extension Serve {
    /// Reads the service account at start, so that a missing or bad key stops the broker here
    /// (exit 64) rather than at its first push.
    static func fcmSettings(serviceAccount path: String?, endpoint: String, allowsPlainHTTP: Bool) throws -> FCMSettings? {
        guard let path else { return nil }
        do {
            return try FCMSettings(serviceAccount: FCMServiceAccount(contentsOf: path), endpoint: endpoint,
                                   allowsPlainHTTP: allowsPlainHTTP)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// Environment fallbacks: an option given on the command line wins over `LSBROKER_<NAME>`.
struct Environment {
    let values: [String: String]
    init(_ values: [String: String]) { self.values = values }

    func resolve<T: LosslessStringConvertible>(_ option: T?, _ name: String, _ fallback: T) throws -> T {
        try resolve(option, name) ?? fallback
    }

    /// As above, for a setting whose default is decided later (nil when neither is given).
    func resolve<T: LosslessStringConvertible>(_ option: T?, _ name: String) throws -> T? {
        if let option { return option }
        guard let text = values["LSBROKER_" + name] else { return nil }
        guard let value = T(text) else { throw ValidationError("LSBROKER_\(name)='\(text)' is not valid") }
        return value
    }
}
