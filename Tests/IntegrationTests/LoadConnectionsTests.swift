import Foundation
import LifeSignalProtocol
import Testing

/// Issue 26, item 7: a load run keeps its devices connected as real clients do. A device that
/// only receives sends keepalives, so a run outlasts twice the heartbeat; a device the broker cut
/// reconnects and resumes; and a run whose devices were cut says so and exits non-zero.
@Suite("Load runs keep their connections", .serialized)
struct LoadConnectionsTests {
    @Test func aPingsRunOutlastsTwiceTheHeartbeat() throws {
        // The dependents only receive: without keepalives each would be cut after 1 s.
        let broker = try BrokerProcess(arguments: ["--heartbeat-ms", "500"])
        let outcome = try LSClient(broker: broker).run(
            ["load", "pings", "--pairs", "2", "--rate", "20", "--duration", "3", "--warmup", "0", "--json"],
            timeout: .seconds(60))
        #expect(outcome.status == 0, "stderr:\n\(outcome.stderr)")
        let report = try #require(JSONLine.parse(outcome.stdout), "stdout:\n\(outcome.stdout)")
        #expect(report.int(at: "disconnects") == 0)
        #expect(report.int(at: "resumed") == 0)
        #expect((report.int(at: "delivered") ?? 0) > 0)
        #expect(!broker.loggedText.contains("closing silent connection"), "\(broker.loggedText)")
        #expect(broker.stop() == 0)
    }

    @Test func aRunWhoseBrokerRestartsResumesItsDevicesAndFails() throws {
        let broker = try BrokerProcess()
        let load = try LSClient(broker: broker).start(
            ["load", "pings", "--pairs", "2", "--rate", "20", "--duration", "12", "--warmup", "0", "--json"],
            readingErrors: true)
        // The window has begun once the first second's progress line is out.
        let errors = try #require(load.errors)
        #expect(errors.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("1/12 s:") } != nil, "\(errors.text)")
        try broker.restart(afterSignal: SIGKILL)

        #expect(load.waitForExit(timeout: .seconds(60)) == 1, "stderr:\n\(errors.text)")
        #expect(errors.text.contains("error: the broker cut"), "\(errors.text)")
        let report = try #require(JSONLine.parse(load.output.text), "stdout:\n\(load.output.text)")
        let cut = try #require(report.int(at: "disconnects"))
        #expect(cut >= 1)
        // The broker is back early in the window (the devices back off for at most 10 s): they resume
        // from their last seq.
        #expect((report.int(at: "resumed") ?? 0) >= 1, "\(report)")
    }
}
