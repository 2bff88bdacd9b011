import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalPush
import LifeSignalStoreSQLite

/// Every setting of the broker, resolved once from options and environment.
///
/// | key (`--option`, `LSBROKER_…`) | default | meaning |
/// |---|---|---|
/// | `host` (`--host`, `LSBROKER_HOST`) | 127.0.0.1 | address to listen on |
/// | `port` (`--port`, `LSBROKER_PORT`) | 7420 | TCP port; 0 picks a free one |
/// | `dataDirectory` (`--data-dir`, `LSBROKER_DATA_DIR`) | ./lifesignal-data | where the SQLite store lives |
/// | `storeCacheMiB` (`--store-cache-mib`) | 64 | SQLite's page cache per store connection; the writer's keeps the store's hot pages up to it |
/// | `maxFrameBytes` (`--max-frame-bytes`) | 65,536 | largest frame body accepted (PROTOCOL §1) |
/// | `heartbeatMs` (`--heartbeat-ms`) | 30,000 | announced in `hello`; silence for 2× closes (§3) |
/// | `helloTimeoutMs` (`--hello-timeout-ms`) | 10,000 | time a new connection has to say `hello` (§3) |
/// | `maxDevicesPerUser` (`--max-devices-per-user`) | 16 | devices of one user online at once (§3) |
/// | `eventRetention` (`--event-retention`) | 1,000 | events kept per user for `resume` (§6) |
/// | `minCheckInIntervalSec` (`--min-check-in-interval-sec`) | 60 | smallest `checkInIntervalSec` allowed (§4) |
/// | `maxOutboundBytes` (`--max-outbound-bytes`) | 4 MiB | unsent output that cuts a slow reader (§9) |
/// | `requestRate` (`--request-rate`) | 200 | requests per second per connection, every frame counted; over it `rate_limited` (§9); 0 turns it off |
/// | `requestBurst` (`--request-burst`) | 400 | requests a connection may send at once before `requestRate` applies |
/// | `registerRate` (`--register-rate`) | 1 | `register`s per second per source address (IPv6: per /64); over it `rate_limited`; 0 turns it off |
/// | `registerBurst` (`--register-burst`) | 60 | `register`s an address may send at once before `registerRate` applies |
/// | `maxPendingWrites` (`--max-pending-writes`) | 200,000 | store rows submitted and not yet committed (a read counts one) at which requests that need the store get `overloaded` (§9) |
/// | `maxConnections` (`--max-connections`) | open-file limit − 256 | connections at once; beyond it the oldest connection awaiting `hello` is closed to make room, else the new one is refused |
/// | `brokerID` (`--broker-id`) | host name:port | the id `hello` answers with and presence rows name (§11) |
/// | `postgresURL` (`--postgres`) | none | `postgres://user[:password]@host[:port]/db[?pool=N&sslmode=MODE&sslrootcert=PATH]`: serve from PostgreSQL as one broker of a cluster instead of the data directory (§11) |
/// | `postgresTimeout` (`--postgres-timeout`) | 5 | seconds a PostgreSQL transaction (every statement and the commit) may take; past it its connection is closed, its requests are answered `internal`, and the pool opens a new one |
/// | `postgresPasswordFile` (`--postgres-password-file`) | none | the PostgreSQL password, read from this file (mode 600); else the URL's, PGPASSWORD or PGPASSFILE as libpq reads them |
/// | `fcm` (`--fcm-service-account FILE`, `--fcm-endpoint URL`) | none | send each push through FCM HTTP v1 with this service account (docs/OPERATIONS.md, "Sending pushes through FCM"); without it pushes are only recorded |
///
/// Per-user quotas (§10, v1.1); 0 turns each off, and one that refuses changes nothing:
///
/// | key | default | meaning |
/// |---|---|---|
/// | `maxContacts` (`--max-contacts`) | 500 | contacts per user; `contacts.add` when either side has that many: `limit_exceeded` |
/// | `maxStoredDevices` (`--max-stored-devices`) | 32 | devices stored per user; a new one replaces the least recently seen offline one (row and token); none offline: `limit_exceeded`, close |
/// | `notificationHistory` (`--notification-history`) | 1,000 | newest notifications kept per user; older ones are pruned with their pushes |
/// | `failedAddsPerMinute` (`--failed-adds-per-minute`) | 10 | `contacts.add` with an unknown QR code per user; over it every `contacts.add` gets `rate_limited` |
/// | `failedHellosPerSecond` (`--failed-hellos-per-second`) | 10 | `hello`s with bad credentials per source address (IPv6: /64); over it `hello` gets `rate_limited` and a close |
/// | `maxConnectionsPerAddress` (`--max-connections-per-address`) | 1,000 | connections open at once per source address (IPv6: /64); over it `overloaded` and a close |
public struct BrokerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 7420
    public var dataDirectory = "./lifesignal-data"
    public var storeCacheMiB = SQLiteStore.defaultCacheMiB
    public var maxFrameBytes = 65_536
    public var heartbeatMs: Int64 = 30_000
    public var helloTimeoutMs: Int64 = 10_000
    public var maxDevicesPerUser = 16
    public var eventRetention = 1_000
    public var minCheckInIntervalSec: Int64 = 60
    public var maxOutboundBytes = 4 * 1024 * 1024
    public var requestRate: Double = 200
    public var requestBurst = 400
    public var registerRate: Double = 1
    public var registerBurst = 60
    public var maxPendingWrites = 200_000
    /// nil: derived from the process's open-file limit when the broker starts (`OpenFileLimit`).
    public var maxConnections: Int?
    /// nil: the host name and the port bound (`Broker.brokerID`).
    public var brokerID: String?
    /// nil: the embedded store in `dataDirectory`.
    public var postgresURL: String?
    /// nil: the password is in `postgresURL`, PGPASSWORD or the libpq password file, or none is needed.
    public var postgresPasswordFile: String?
    /// Seconds a PostgreSQL transaction may take before its connection is closed (`ClusterDatabase.workTimeout`).
    public var postgresTimeout = 5.0
    /// nil: pushes are recorded in the store only (`RecordingPushGateway`).
    public var fcm: FCMSettings?
    public var maxContacts = 500
    public var maxStoredDevices = 32
    public var notificationHistory = 1_000
    public var failedAddsPerMinute = 10
    public var failedHellosPerSecond: Double = 10
    public var maxConnectionsPerAddress = 1_000
    /// The HTTP endpoint of metrics and health (`/metrics`, `/healthz`, `/readyz`); off when nil.
    public var metricsPort: Int?
    public var metricsHost = "127.0.0.1"

    public init() {}
}

extension BrokerConfiguration {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// The settings the rules take, as the engine hands them over.
    var ruleLimits: RuleLimits {
        RuleLimits(maxContacts: maxContacts, minCheckInIntervalSec: minCheckInIntervalSec)
    }

    /// Rejects settings the broker cannot honour, naming the setting.
    public func validate() throws {
        func require(_ condition: Bool, _ message: String) throws {
            if !condition { throw Invalid(description: message) }
        }
        try require((0...65_535).contains(port), "port must be 0…65535")
        try require((1...65_536).contains(storeCacheMiB), "store-cache-mib must be 1…65536")
        try require((2...16 * 1024 * 1024).contains(maxFrameBytes), "max-frame-bytes must be 2…16777216")
        try require(heartbeatMs >= 100, "heartbeat-ms must be at least 100")
        try require(helloTimeoutMs >= 100, "hello-timeout-ms must be at least 100")
        try require(maxDevicesPerUser >= 1, "max-devices-per-user must be at least 1")
        try require(eventRetention >= 1, "event-retention must be at least 1")
        try require((1...2_592_000).contains(minCheckInIntervalSec), "min-check-in-interval-sec must be 1…2592000")
        try require(maxOutboundBytes >= maxFrameBytes, "max-outbound-bytes must be at least max-frame-bytes")
        try require(requestRate >= 0 && requestRate.isFinite, "request-rate must be 0 (off) or more")
        try require(requestRate == 0 || requestRate >= 0.001, "request-rate must be 0 (off) or at least 0.001")
        try require((1...1_000_000).contains(requestBurst), "request-burst must be 1…1000000")
        try require(registerRate >= 0 && registerRate.isFinite, "register-rate must be 0 (off) or more")
        try require(registerRate == 0 || registerRate >= 0.001, "register-rate must be 0 (off) or at least 0.001")
        try require((1...1_000_000).contains(registerBurst), "register-burst must be 1…1000000")
        try require(maxPendingWrites >= 1, "max-pending-writes must be at least 1")
        try require(maxConnections.map { $0 >= 1 } ?? true, "max-connections must be at least 1")
        try require(brokerID.map { (1...64).contains($0.utf8.count) } ?? true, "broker-id must be 1…64 bytes")
        try require(maxContacts >= 0, "max-contacts must be 0 (off) or more")
        try require(maxStoredDevices >= 0, "max-stored-devices must be 0 (off) or more")
        try require(notificationHistory >= 0, "notification-history must be 0 (off) or more")
        try require(failedAddsPerMinute >= 0, "failed-adds-per-minute must be 0 (off) or more")
        try require(failedHellosPerSecond == 0 || (failedHellosPerSecond >= 0.001 && failedHellosPerSecond.isFinite),
                    "failed-hellos-per-second must be 0 (off) or at least 0.001")
        try require(maxConnectionsPerAddress >= 0, "max-connections-per-address must be 0 (off) or more")
        try require(metricsPort.map { (0...65_535).contains($0) } ?? true, "metrics-port must be 0…65535")
    }
}
