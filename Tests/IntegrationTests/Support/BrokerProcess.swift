import Foundation

/// The real `lsbroker` binary, on a free port and a temporary data directory.
final class BrokerProcess: @unchecked Sendable {
    let dataDirectory: TemporaryDirectory
    private(set) var extraArguments: [String]
    /// When set, the broker runs under this RLIMIT_NOFILE (soft and hard), through `sh -c ulimit`.
    let openFileLimit: Int?
    /// When set, the broker starts with this umask (through `sh -c umask`), e.g. 0 to check that it
    /// does not rely on the caller's.
    let fileCreationMask: Int?
    /// Added to the test's environment (`LSBROKER_*` settings).
    let environment: [String: String]
    /// Where it runs, when not the test's own directory (a relative `--data-dir` is under it).
    let workingDirectory: URL?
    private(set) var port = 0
    /// The port of the operations endpoint (`--metrics-port`), when it serves one.
    private(set) var metricsPort: Int?
    private(set) var process: Process?
    private(set) var output: OutputCollector?
    /// With LIFESIGNAL_TEST_ON_POSTGRES=N, a broker started without `--postgres` serves as a
    /// cluster on a fresh database of its own, so that the protocol's rule suites run unchanged
    /// against the cluster executor (`scripts/test`). With N > 1 it is N brokers: these siblings
    /// start, stop and restart with it, and connections to it are dealt over all (`ClusterSpread`).
    private let clusterDatabase: FreshDatabase?
    private var siblings: [BrokerProcess] = []

    /// Where `lsbroker pushes` and other tools find this broker's store.
    var storeArguments: [String] {
        clusterDatabase.map { ["--postgres", $0.url] } ?? ["--data-dir", dataDirectory.path]
    }

    static var onPostgres: Bool { ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_ON_POSTGRES"] != nil }

    init(arguments: [String] = [], dataDirectory: TemporaryDirectory = TemporaryDirectory("broker"),
         openFileLimit: Int? = nil, fileCreationMask: Int? = nil, environment: [String: String] = [:],
         workingDirectory: URL? = nil) throws {
        self.dataDirectory = dataDirectory
        self.workingDirectory = workingDirectory
        if Self.onPostgres, !arguments.contains("--postgres") {
            let database = try FreshDatabase()
            clusterDatabase = database
            extraArguments = arguments + ["--postgres", database.url]
        } else {
            clusterDatabase = nil
            extraArguments = arguments
        }
        self.openFileLimit = openFileLimit
        self.fileCreationMask = fileCreationMask
        self.environment = environment
        try start()
        if let clusterDatabase, ClusterSpread.brokersPerTest > 1 {
            for _ in 1..<ClusterSpread.brokersPerTest {
                siblings.append(try BrokerProcess(
                    arguments: extraArguments, openFileLimit: openFileLimit, fileCreationMask: fileCreationMask,
                    environment: environment))
            }
            ClusterSpread.register(ports: [port] + siblings.map(\.port), database: clusterDatabase)
        }
    }

    var address: String { "127.0.0.1:\(port)" }
    /// What it has logged so far, and on a test cluster what its siblings have too.
    var loggedText: String { ([self] + siblings).compactMap { $0.output?.text }.joined(separator: "\n") }
    var pid: Int32 { process?.processIdentifier ?? 0 }

    /// Starts (or restarts, on the same data directory) and waits for its "listening" line.
    /// On a restart the same port is asked for, so clients with the old address reconnect.
    func start() throws {
        try startProcess()
        for sibling in siblings { try sibling.start() }
    }

    private func startProcess() throws {
        let process = Process()
        let arguments = ["serve", "--port", "\(port)", "--data-dir", dataDirectory.path] + extraArguments
        var shellSetup: [String] = []
        if let openFileLimit { shellSetup.append("ulimit -n \(openFileLimit)") }
        if let fileCreationMask { shellSetup.append("umask \(String(fileCreationMask, radix: 8))") }
        if !shellSetup.isEmpty {
            // exec keeps the pid: signals and the pid in reports reach the broker itself.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let script = (shellSetup + ["exec \"$0\" \"$@\""]).joined(separator: " && ")
            process.arguments = ["-c", script, Binaries.broker.path] + arguments
        } else {
            process.executableURL = Binaries.broker
            process.arguments = arguments
        }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = OutputCollector(pipe.fileHandleForReading)
        self.process = process
        self.output = output
        // `lifesignal.port=N` in text, `"lifesignal.port":N` with --log-format json.
        guard let line = output.waitForLine({ $0.contains("listening") }),
              let range = line.range(of: #"lifesignal.port(=|":)\d+"#, options: .regularExpression),
              let port = Int(line[range].filter(\.isNumber))
        else {
            stop(signal: SIGKILL)
            throw BrokerFailedToStart(output: output.text)
        }
        self.port = port
        metricsPort = output.text.split(separator: "\n").lazy
            .filter { $0.contains("serving metrics and health") }
            .compactMap { line in line.range(of: #"lifesignal.metrics.port=(\d+)"#, options: .regularExpression)
                .flatMap { Int(line[$0].split(separator: "=")[1]) } }
            .last
    }

    /// GETs `path` from the operations endpoint.
    func operations(_ path: String) throws -> HTTPAnswer {
        guard let metricsPort else { throw HTTPAnswer.NoEndpoint() }
        return try HTTPAnswer.get("http://127.0.0.1:\(metricsPort)\(path)")
    }

    /// Sends `signal` and waits for the process to end; returns its exit status. A broker that
    /// has already exited is reaped too (else Foundation keeps its Process: LeakSanitizer).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        for sibling in siblings { sibling.stop(signal: signal) }
        guard let process else { return 0 }
        if process.isRunning {
            kill(process.processIdentifier, signal)
            // Bounded: a broker that ignores the signal fails the test instead of hanging it.
            let deadline = ContinuousClock.now + .seconds(15)
            while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        output?.waitUntilFinished()
        return process.terminationStatus
    }

    func restart(afterSignal signal: Int32 = SIGKILL) throws {
        stop(signal: signal)
        try start()
    }

    /// Stops it cleanly and starts it again with other settings, on the same port and data.
    func restart(arguments: [String]) throws {
        stop(signal: SIGTERM)
        extraArguments = arguments + (clusterDatabase.map { ["--postgres", $0.url] } ?? [])
        for sibling in siblings { sibling.extraArguments = extraArguments }
        try start()
    }

    /// The broker's resident memory (VmRSS) in KiB, or nil when it is not running.
    var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    deinit {
        if !siblings.isEmpty { ClusterSpread.unregister(ports: [port] + siblings.map(\.port)) }
        stop(signal: SIGKILL)
    }
}

struct BrokerFailedToStart: Error, CustomStringConvertible {
    let output: String
    var description: String { "lsbroker did not start:\n\(output)" }
}
