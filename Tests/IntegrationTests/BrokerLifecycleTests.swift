import Foundation
import LifeSignalProtocol
import Testing

@Suite("lsbroker start-up and shutdown", .serialized)
struct BrokerLifecycleTests {
    @Test func sigtermShutsDownCleanlyAndKeepsWhatWasAcknowledged() throws {
        let broker = try BrokerProcess()
        let (connection, alice) = try RawConnection.authenticated(port: broker.port)
        #expect(connection.request(Op.profileUpdate, ["name": "Graceful"])?.okFields != nil)
        // A clean exit means every handle was closed and uv_loop_close returned 0.
        #expect(broker.stop(signal: SIGTERM) == 0)
        #expect(connection.waitForClose())
        #expect(broker.output?.text.contains("stopped") == true)

        try broker.start()
        let again = try RawConnection(port: broker.port)
        #expect(again.hello(alice)?.okFields?["user"]?.objectValue?["name"]?.stringValue == "Graceful")
    }

    @Test func sigintAlsoShutsDownCleanly() throws {
        let broker = try BrokerProcess()
        _ = try RawConnection.authenticated(port: broker.port)
        #expect(broker.stop(signal: SIGINT) == 0)
    }

    @Test func settingsComeFromTheEnvironmentToo() throws {
        let data = TemporaryDirectory("env")
        let process = Process()
        process.executableURL = Binaries.broker
        process.arguments = ["serve"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LSBROKER_PORT": "0", "LSBROKER_DATA_DIR": data.path, "LSBROKER_MAX_FRAME_BYTES": "1000",
        ]) { $1 }
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let output = OutputCollector(pipe.fileHandleForReading)
        let line = try #require(output.waitForLine { $0.contains("listening") })
        #expect(line.contains("lifesignal.data=\(data.path)"))
        let port = try #require(line.split(separator: " ").first { $0.hasPrefix("lifesignal.port=") }
            .flatMap { Int($0.split(separator: "=")[1]) })
        let connection = try RawConnection(port: port)
        connection.sendBytes(withUnsafeBytes(of: UInt32(1001).bigEndian) { Array($0) })
        #expect(connection.next()?.errorCode == .frameTooLarge)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func anInvalidSettingIsRefusedWithItsName() throws {
        let process = Process()
        process.executableURL = Binaries.broker
        process.arguments = ["serve", "--port", "0", "--heartbeat-ms", "5"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus != 0)
        #expect(text.contains("heartbeat-ms"))
    }
}
