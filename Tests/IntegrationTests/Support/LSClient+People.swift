import Foundation
import LifeSignalProtocol
import Testing

/// Shortcuts for tests that drive `lsclient` as people do: profiles by name, QR codes, saved state.
extension LSClient {
    /// A client of `broker` with a profile registered for each of `names`.
    init(broker: BrokerProcess, registering names: [String]) throws {
        self.init(broker: broker)
        for name in names { try register(name) }
    }

    /// Registers a profile of that name (lowercased) for a user of that name.
    func register(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try run(["--profile", name.lowercased(), "register", "--name", name])
        #expect(outcome.status == 0, "register \(name): \(outcome.stderr)", sourceLocation: sourceLocation)
    }

    /// The profile's QR code, as `lsclient qr` prints it.
    func qrCode(of profile: String) throws -> String {
        try run(["--profile", profile, "qr"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The state the device has saved (`lsclient state --json`), or nil if it has none.
    func savedState(_ profile: String, device: String) throws -> JSONObject? {
        try run(["--profile", profile, "--device", device, "--json", "state"]).objects.first
    }
}

extension RunningClient {
    /// SIGKILL: the process gets no chance to save anything.
    func sigkill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        output.waitUntilFinished()
    }

    /// The JSON lines printed before the first "connected": the catch-up.
    var catchUp: [JSONObject] {
        Array(objects.prefix { $0.string(at: "type") != "connected" })
    }
}

/// Polls `condition` until it holds or `timeout` passes (a bound against a hang, not a timing
/// assertion); whether it held.
func eventually(timeout: Duration = .seconds(20), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

extension LSClient {
    /// Runs one command with a terminal as its stdout (through `script`, which gives it a pty), as
    /// a person at a terminal would; its output, with the terminal's line ends.
    func runOnTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([Binaries.client.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil  // the test runner's own choice is not the person's
        process.environment = environment.merging([
            "LSCLIENT_CONFIG_DIR": configDirectory.path, "LSCLIENT_BROKER": brokerList, "TERM": "xterm",
        ]) { $1 }.merging(extra) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = OutputCollector(out.fileHandleForReading)
        process.waitUntilExit()
        output.waitUntilFinished()
        return output.text
    }

    static var canRunOnTerminal: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }
}

/// `lsbroker` run once as an operator would (`pushes`, `--version`, a bad option), to completion.
func runBroker(_ arguments: [String], environment extra: [String: String] = [:]) throws -> LSClient.Outcome {
    let process = Process()
    process.executableURL = Binaries.broker
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = OutputCollector(out.fileHandleForReading)
    let stderr = OutputCollector(err.fileHandleForReading)
    // Bounded: a broker that does not exit (serve that started after all) is stopped.
    let deadline = ContinuousClock.now + .seconds(30)
    while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    stdout.waitUntilFinished()
    stderr.waitUntilFinished()
    return LSClient.Outcome(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
}
