import ArgumentParser
import Foundation
import LifeSignalBroker
import Logging

/// `lsbroker serve`: every option also reads `LSBROKER_<NAME>` from the environment.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the broker until SIGINT or SIGTERM.")

    @Option(help: "Address to listen on. [env: LSBROKER_HOST]")
    var host: String?
    @Option(help: "TCP port; 0 picks a free one. [env: LSBROKER_PORT]")
    var port: Int?
    @Option(name: .customLong("data-dir"), help: "Directory of the SQLite store. [env: LSBROKER_DATA_DIR]")
    var dataDirectory: String?
    @Option(help: "Largest frame accepted, in bytes. [env: LSBROKER_MAX_FRAME_BYTES]")
    var maxFrameBytes: Int?
    @Option(help: "Heartbeat announced to devices; 2x silence closes. [env: LSBROKER_HEARTBEAT_MS]")
    var heartbeatMs: Int64?
    @Option(help: "Time a connection has to say hello. [env: LSBROKER_HELLO_TIMEOUT_MS]")
    var helloTimeoutMs: Int64?
    @Option(help: "Devices of one user online at once. [env: LSBROKER_MAX_DEVICES_PER_USER]")
    var maxDevicesPerUser: Int?
    @Option(help: "Events kept per user for resume. [env: LSBROKER_EVENT_RETENTION]")
    var eventRetention: Int?
    @Option(help: "Smallest check-in interval allowed. [env: LSBROKER_MIN_CHECK_IN_INTERVAL_SEC]")
    var minCheckInIntervalSec: Int64?
    @Option(help: "Unsent bytes that cut a slow reader. [env: LSBROKER_MAX_OUTBOUND_BYTES]")
    var maxOutboundBytes: Int?
    @Option(help: "Requests per second per connection; 0 turns the limit off. [env: LSBROKER_REQUEST_RATE]")
    var requestRate: Double?
    @Option(help: "Requests a connection may send at once. [env: LSBROKER_REQUEST_BURST]")
    var requestBurst: Int?
    @Option(help: "Registers per second per source address (IPv6: per /64); 0 turns it off. [env: LSBROKER_REGISTER_RATE]")
    var registerRate: Double?
    @Option(help: "Registers an address may send at once. [env: LSBROKER_REGISTER_BURST]")
    var registerBurst: Int?
    @Option(help: "Uncommitted store writes at which requests that need the store get overloaded. [env: LSBROKER_MAX_PENDING_WRITES]")
    var maxPendingWrites: Int?
    @Option(help: "Connections at once; default: the open-file limit less 256. [env: LSBROKER_MAX_CONNECTIONS]")
    var maxConnections: Int?
    @Option(help: "Id this broker gives in hello (diagnostics); default: host name and port. [env: LSBROKER_BROKER_ID]")
    var brokerId: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical. [env: LSBROKER_LOG_LEVEL]")
    var logLevel: String?

    func run() throws {
        let environment = Environment(ProcessInfo.processInfo.environment)
        var config = BrokerConfiguration()
        config.host = try environment.resolve(host, "HOST", config.host)
        config.port = try environment.resolve(port, "PORT", config.port)
        config.dataDirectory = try environment.resolve(dataDirectory, "DATA_DIR", config.dataDirectory)
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
        let levelName = try environment.resolve(logLevel, "LOG_LEVEL", "info")
        guard let level = Logger.Level(rawValue: levelName) else {
            throw ValidationError("unknown log level '\(levelName)'")
        }
        try config.validate()

        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        try BrokerServer.run(configuration: config, logger: Logger(label: "lsbroker"))
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
