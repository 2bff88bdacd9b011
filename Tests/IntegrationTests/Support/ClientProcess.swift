import Foundation
import LifeSignalProtocol

/// Runs the real `lsclient` as a person would: one process per command, sharing a config
/// directory (the profiles) and a broker address.
struct LSClient {
    let configDirectory: TemporaryDirectory
    /// The brokers the client is given, in order (`--broker a,b,c`): one, or a cluster's.
    let brokers: [BrokerProcess]
    var broker: BrokerProcess { brokers[0] }
    /// Addresses given as they are, for brokers this test did not start (deploy/local-cluster's).
    private let fixedAddresses: String?

    init(broker: BrokerProcess) {
        self.init(brokers: [broker])
    }

    init(brokers: [BrokerProcess]) {
        self.brokers = brokers
        fixedAddresses = nil
        configDirectory = TemporaryDirectory("lsclient")
    }

    init(addresses: String) {
        brokers = []
        fixedAddresses = addresses
        configDirectory = TemporaryDirectory("lsclient")
    }

    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        /// stdout's lines parsed as JSON objects (with `--json`).
        var objects: [JSONObject] { stdout.split(separator: "\n").compactMap { JSONLine.parse(String($0)) } }
        var result: JSONObject? { objects.last { $0["type"]?.stringValue == "result" } }
        var events: [JSONObject] { objects.filter { $0["type"]?.stringValue == "event" } }
    }

    /// `--broker`'s list: on a test cluster (`ClusterSpread`) each process starts at another broker.
    var brokerList: String {
        fixedAddresses ?? brokers.flatMap { ClusterSpread.addresses(startingAt: $0.port) ?? [$0.address] }
            .joined(separator: ",")
    }

    private func makeProcess(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = Binaries.client
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LSCLIENT_CONFIG_DIR": configDirectory.path, "LSCLIENT_BROKER": brokerList,
        ]) { $1 }
        return process
    }

    /// Runs one command to completion (bounded: a hung client is killed and reported).
    @discardableResult
    func run(_ arguments: [String], timeout: Duration = .seconds(30)) throws -> Outcome {
        let process = makeProcess(arguments)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = OutputCollector(out.fileHandleForReading)
        let stderr = OutputCollector(err.fileHandleForReading)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        stdout.waitUntilFinished()
        stderr.waitUntilFinished()
        return Outcome(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
    }

    /// Starts a long-running command (`watch`) whose output the test reads as it comes; its
    /// standard error too with `readingErrors` (`load`'s progress lines).
    func start(_ arguments: [String], readingErrors: Bool = false) throws -> RunningClient {
        let process = makeProcess(arguments)
        let out = Pipe()
        let err = readingErrors ? Pipe() : nil
        process.standardOutput = out
        process.standardError = err ?? FileHandle.nullDevice
        try process.run()
        return RunningClient(process: process, output: OutputCollector(out.fileHandleForReading),
                             errors: err.map { OutputCollector($0.fileHandleForReading) })
    }
}

final class RunningClient {
    let process: Process
    let output: OutputCollector
    /// Standard error, when the test asked to read it.
    let errors: OutputCollector?

    init(process: Process, output: OutputCollector, errors: OutputCollector? = nil) {
        self.process = process
        self.output = output
        self.errors = errors
    }

    var objects: [JSONObject] { output.lines.compactMap(JSONLine.parse) }

    /// Waits (bounded) for a JSON line that satisfies `match`.
    func waitFor(timeout: Duration = .seconds(20), _ match: @escaping (JSONObject) -> Bool) -> JSONObject? {
        output.waitForLine(timeout: timeout) { JSONLine.parse($0).map(match) ?? false }.flatMap(JSONLine.parse)
    }

    /// Waits (bounded) for the command to end by itself; its status, or nil if it had to be killed.
    func waitForExit(timeout: Duration = .seconds(60)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !process.isRunning else {
            stop()
            return nil
        }
        process.waitUntilExit()
        output.waitUntilFinished()
        errors?.waitUntilFinished()
        return process.terminationStatus
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        output.waitUntilFinished()
        errors?.waitUntilFinished()
    }

    deinit { stop() }
}

enum JSONLine {
    static func parse(_ line: String) -> JSONObject? {
        (try? JSONValue.parse(Array(line.utf8)))?.objectValue
    }
}

extension JSONObject {
    func string(at path: String...) -> String? { value(at: path)?.stringValue }
    func int(at path: String...) -> Int64? { value(at: path)?.intValue }
    func bool(at path: String...) -> Bool? { value(at: path)?.boolValue }

    private func value(at path: [String]) -> JSONValue? {
        var current: JSONValue = .object(self)
        for key in path {
            guard let next = current.objectValue?[key] else { return nil }
            current = next
        }
        return current
    }
}
