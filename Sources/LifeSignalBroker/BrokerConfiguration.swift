/// Every setting of the broker, resolved once from options and environment.
///
/// | key (`--option`, `LSBROKER_…`) | default | meaning |
/// |---|---|---|
/// | `host` (`--host`, `LSBROKER_HOST`) | 127.0.0.1 | address to listen on |
/// | `port` (`--port`, `LSBROKER_PORT`) | 7420 | TCP port; 0 picks a free one |
/// | `dataDirectory` (`--data-dir`, `LSBROKER_DATA_DIR`) | ./lifesignal-data | where the SQLite store lives |
/// | `maxFrameBytes` (`--max-frame-bytes`) | 65,536 | largest frame body accepted (PROTOCOL §1) |
/// | `heartbeatMs` (`--heartbeat-ms`) | 30,000 | announced in `hello`; silence for 2× closes (§3) |
/// | `helloTimeoutMs` (`--hello-timeout-ms`) | 10,000 | time a new connection has to say `hello` (§3) |
/// | `maxDevicesPerUser` (`--max-devices-per-user`) | 16 | devices of one user online at once (§3) |
/// | `eventRetention` (`--event-retention`) | 1,000 | events kept per user for `resume` (§6) |
/// | `minCheckInIntervalSec` (`--min-check-in-interval-sec`) | 60 | smallest `checkInIntervalSec` allowed (§4) |
/// | `maxOutboundBytes` (`--max-outbound-bytes`) | 4 MiB | unsent output that cuts a slow reader (§9) |
public struct BrokerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 7420
    public var dataDirectory = "./lifesignal-data"
    public var maxFrameBytes = 65_536
    public var heartbeatMs: Int64 = 30_000
    public var helloTimeoutMs: Int64 = 10_000
    public var maxDevicesPerUser = 16
    public var eventRetention = 1_000
    public var minCheckInIntervalSec: Int64 = 60
    public var maxOutboundBytes = 4 * 1024 * 1024

    public init() {}
}

extension BrokerConfiguration {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Rejects settings the broker cannot honour, naming the setting.
    public func validate() throws {
        func require(_ condition: Bool, _ message: String) throws {
            if !condition { throw Invalid(description: message) }
        }
        try require((0...65_535).contains(port), "port must be 0…65535")
        try require((2...16 * 1024 * 1024).contains(maxFrameBytes), "max-frame-bytes must be 2…16777216")
        try require(heartbeatMs >= 100, "heartbeat-ms must be at least 100")
        try require(helloTimeoutMs >= 100, "hello-timeout-ms must be at least 100")
        try require(maxDevicesPerUser >= 1, "max-devices-per-user must be at least 1")
        try require(eventRetention >= 1, "event-retention must be at least 1")
        try require((1...2_592_000).contains(minCheckInIntervalSec), "min-check-in-interval-sec must be 1…2592000")
        try require(maxOutboundBytes >= maxFrameBytes, "max-outbound-bytes must be at least max-frame-bytes")
    }
}
