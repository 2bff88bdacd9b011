import Foundation
import Testing

/// README.md's "Connect devices" and walkthrough sections, run line by line against a real
/// broker with the real `lsclient`, as a newcomer would type them (see `ReadmeScript`).
@Suite(.serialized)
struct ReadmeWalkthroughTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    @Test func theScriptIsWhatTheReadmeShows() {
        let script = ReadmeScript(readme: Self.readme)
        #expect(script.steps.count > 20)
        #expect(script.steps.contains { if case .serve = $0 { true } else { false } })
        #expect(script.steps.contains { if case .expect = $0 { true } else { false } })
        #expect(script.steps.contains { if case .run(_, let failure?) = $0 { failure.status == 1 } else { false } })
    }

    @Test func theWalkthroughRunsAsWritten() throws {
        let script = ReadmeScript(readme: Self.readme)
        let session = try ReadmeSession()
        for (index, step) in script.steps.enumerated() {
            try session.perform(step, known: script.knownNames, context: "README step \(index + 1): \(step)")
        }
        session.stop()
    }
}

extension ReadmeScript {
    /// Every profile and device the script names: an expectation that names one must have a
    /// background device of that name to look at.
    var knownNames: Set<String> {
        steps.reduce(into: []) { names, step in
            switch step {
            case .run(let command, _), .background(let command, _): names.formUnion(Self.names(in: command))
            default: break
            }
        }
    }
}

/// A working directory with the broker of the quick start (`lsbroker serve`, data in
/// ./lifesignal-data) and the background devices the README starts.
final class ReadmeSession {
    let directory = TemporaryDirectory("readme")
    let broker: BrokerProcess
    private(set) var devices: [(names: Set<String>, output: OutputCollector, process: Process)] = []

    init() throws {
        broker = try BrokerProcess(dataDirectory: TemporaryDirectory(inside: directory, named: "lifesignal-data"))
    }

    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "PATH": Binaries.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "LSCLIENT_CONFIG_DIR": directory.path + "/config",
            "LSCLIENT_BROKER": broker.address,
        ]) { $1 }
    }

    func perform(_ step: ReadmeScript.Step, known: Set<String>, context: String) throws {
        switch step {
        case .serve(let arguments):
            try broker.restart(arguments: arguments)
        case .background(let command, let names):
            let (process, output) = try shell(command)
            devices.append((names, output, process))
            // A device that has said hello is one the following lines can reach.
            #expect(output.waitForLine { $0.hasPrefix("connected as") } != nil, "\(context): never connected")
        case .run(let command, let failure):
            // A `read` line must mark the notification it says (the newest), not just any.
            let reader = ReadmeScript.readerProfile(in: command)
            let unreadBefore = try reader.map(notifications(of:))
            let (process, output) = try shell(command, errorsToOutput: true)
            let deadline = ContinuousClock.now + .seconds(60)
            while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            output.waitUntilFinished()
            let status = process.terminationStatus
            if let failure {
                #expect(status == failure.status, "\(context): exit status\n\(output.text)")
                #expect(output.text.contains(failure.message), "\(context): message\n\(output.text)")
            } else {
                #expect(status == 0, "\(context): exit status\n\(output.text)")
            }
            if let reader, let unreadBefore {
                let newest = unreadBefore.first
                #expect(newest?.isRead == false, "\(context): the newest notification was already read")
                let markedNow = try notifications(of: reader).filter { after in
                    after.isRead && unreadBefore.contains { $0.id == after.id && !$0.isRead }
                }
                #expect(markedNow.map(\.id) == newest.map { [$0.id] }, "\(context): marked read \(markedNow)")
            }
        case .expect(let who, let text):
            let named = who.filter(known.contains)
            #expect(!named.isEmpty, "\(context): names no device")
            for name in named {
                guard let device = devices.first(where: { $0.names.contains(name) }) else {
                    Issue.record("\(context): no background device is \(name)")
                    continue
                }
                #expect(device.output.waitForLine { $0.contains(text) } != nil,
                        "\(context): \(name) printed\n\(device.output.text)")
            }
        }
    }

    /// A profile's notifications, newest first, as `lsclient notifications` lists them.
    private func notifications(of profile: String) throws -> [(id: String, isRead: Bool)] {
        let (process, output) = try shell("lsclient --profile \(profile) --json notifications")
        process.waitUntilExit()
        output.waitUntilFinished()
        let result = output.text.split(separator: "\n").compactMap { JSONLine.parse(String($0)) }
            .last { $0["type"]?.stringValue == "result" }
        return (result?["notifications"]?.arrayValue ?? []).compactMap { notification in
            guard let object = notification.objectValue, let id = object.string(at: "id") else { return nil }
            return (id, object.bool(at: "isRead") ?? false)
        }
    }

    /// Runs one README line with bash in the working directory.
    /// A background device is exec'd, so that it is the process the test stops.
    private func shell(_ command: String, errorsToOutput: Bool = false) throws -> (Process, OutputCollector) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", errorsToOutput ? command : "exec " + command]
        process.currentDirectoryURL = directory.url
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorsToOutput ? pipe : FileHandle.nullDevice
        try process.run()
        return (process, OutputCollector(pipe.fileHandleForReading))
    }

    func stop() {
        for device in devices where device.process.isRunning {
            kill(device.process.processIdentifier, SIGTERM)
            device.process.waitUntilExit()
        }
        broker.stop()
    }

    deinit { stop() }
}
