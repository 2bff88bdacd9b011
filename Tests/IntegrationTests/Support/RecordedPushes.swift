import Foundation
import LifeSignalProtocol
import Testing

/// `lsbroker pushes` run as a process against a broker's data directory, as an operator would.
enum RecordedPushes {
    /// Every push recorded (for `user` only, if given), oldest first, as the `--json` lines.
    static func read(_ broker: BrokerProcess, user: String? = nil) throws -> [JSONObject] {
        var arguments = ["--json"]
        if let user { arguments += ["--user", user] }
        return try run(broker, arguments).split(separator: "\n").map { line in
            try #require(try JSONValue.parse(Array(line.utf8)).objectValue)
        }
    }

    /// Runs `lsbroker pushes <broker's store> <arguments>` and returns its standard output.
    static func run(_ broker: BrokerProcess, _ arguments: [String], environment: [String: String]? = nil,
                    dataDirectoryOption: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = Binaries.broker
        process.arguments = ["pushes"] + (dataDirectoryOption ? broker.storeArguments : [])
            + arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collectedErrors = OutputCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        collectedErrors.waitUntilFinished()
        #expect(process.terminationStatus == 0, "lsbroker pushes failed: \(collectedErrors.text)")
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONObject {
    /// The FCM message of a `--json` line.
    var fcm: JSONObject? { self["message"]?.objectValue }
}

extension Person {
    /// Says `bye` on `device` and waits until the broker has it offline. Another online device
    /// of this person watches through `devices.list`; without one, a short grace period.
    func takeOffline(_ device: RawConnection, named deviceID: String) {
        #expect(device.request(Op.bye)?.okFields != nil)
        #expect(device.waitForClose())
        guard let watcher = devices.first(where: { $0 !== device && !$0.isClosed }) else {
            Thread.sleep(forTimeInterval: 0.3)
            return
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let list = watcher.request(Op.devicesList)?.okFields?["devices"]?.arrayValue ?? []
            let entry = list.compactMap(\.objectValue).first { $0["device"]?.stringValue == deviceID }
            if entry?["online"]?.boolValue == false { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Issue.record("\(deviceID) is still online")
    }

    /// Registers `token` as the push token of `device`.
    func register(token: String, on device: RawConnection, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(device.request(Op.deviceRegister, ["token": .string(token)])?.okFields != nil,
                sourceLocation: sourceLocation)
    }
}
