import Foundation
import LifeSignalClient
import LifeSignalProtocol
import Testing

/// PROTOCOL §12 through `lsclient`: writes made while the broker is down wait in the device's
/// outbox (`--queue`) and `lsclient outbox send` sends them, in order; each acts once, also when
/// the sender is SIGKILLed mid-way and started again.
@Suite("lsclient --queue and outbox send: offline writes act once", .serialized)
struct OfflineQueueTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = try LSClient(broker: broker, registering: ["Alice", "Bob"])
        // Bob watches over Alice.
        let add = try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"])
        #expect(add.status == 0, "\(add.stderr)")
    }

    /// Alert, cancel, alert, …: one sent twice would show in the counts.
    static func write(_ index: Int) -> [String] {
        index.isMultiple(of: 2) ? ["alert", "trigger", "--message", "fell \(index)", "--queue"] : ["alert", "cancel", "--queue"]
    }

    func pending() throws -> [PendingOperation] {
        try FileOutboxStorage(path: "\(cli.configDirectory.path)/outbox/alice--\(try device()).json").load()
    }

    /// The profile's device, from its file (readable with the broker down).
    func device() throws -> String {
        let profile = try Data(contentsOf: URL(fileURLWithPath: "\(cli.configDirectory.path)/profiles/alice.json"))
        return try #require(try JSONValue.parse(Array(profile)).objectValue?["device"]?.stringValue)
    }

    func bobsAlerts() throws -> [String: Int] {
        let listed = try cli.run(["--profile", "bob", "--json", "notifications", "--limit", "100"])
        let types = (listed.result?["notifications"]?.arrayValue ?? []).compactMap { $0.objectValue?["type"]?.stringValue }
        return Dictionary(grouping: types.filter { $0.hasPrefix("alert") }, by: { $0 }).mapValues(\.count)
    }

    @Test func twentyWritesQueuedOfflineActOnceAfterAKilledSend() throws {
        broker.stop()
        for index in 0..<20 {
            let queued = try cli.run(["--profile", "alice"] + Self.write(index))
            #expect(queued.status == 0, "\(queued.stderr)")
            #expect(queued.stdout.hasPrefix("queued alert."), "\(queued.stdout)")
        }
        let queued = try pending()
        #expect(queued.count == 20)
        #expect(try cli.run(["--profile", "alice", "outbox"]).stdout.split(separator: "\n").count == 20)

        try broker.start()
        // Killed once it has got under way (possibly after the broker ran a write whose answer it
        // never saw); whatever it had not finished is still in the outbox.
        let sending = try cli.start(["--profile", "alice", "outbox", "send"])
        #expect(eventually { (try? pending().count).map { $0 < 20 } ?? false })
        kill(sending.process.processIdentifier, SIGKILL)
        _ = sending.waitForExit()
        let left = try pending()
        #expect(left.map(\.id) == Array(queued.map(\.id).suffix(left.count)), "the oldest leave first")

        let again = try cli.run(["--profile", "alice", "outbox", "send"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasSuffix("nothing left queued\n"), "\(again.stdout)")
        #expect(try pending().isEmpty)
        #expect(try bobsAlerts() == ["alert": 10, "alertCancelled": 10])
    }

    /// A watch sends what waits as soon as it is connected.
    @Test func aWatchSendsWhatWaits() throws {
        broker.stop()
        #expect(try cli.run(["--profile", "alice", "alert", "--message", "fell", "--queue"]).status == 0)
        try broker.start()
        let watch = try cli.start(["--profile", "alice", "--json", "watch"])
        #expect(eventually { (try? pending().isEmpty) ?? false })
        #expect(watch.waitFor { $0["event"]?.stringValue == "user.updated" } != nil)
        watch.stop()
        #expect(try bobsAlerts() == ["alert": 1])
    }

    @Test func aWriteIsNotQueuedWithoutQueueOrWhenTheBrokerAnswers() throws {
        let online = try cli.run(["--profile", "alice", "checkin", "--queue"])
        #expect(online.status == 0 && online.stdout.hasPrefix("checked in"), "\(online.stdout)")
        broker.stop()
        let refused = try cli.run(["--profile", "alice", "checkin"])
        #expect(refused.status != 0, "without --queue an unreachable broker is an error")
        #expect(try pending().isEmpty)
        #expect(try cli.run(["--profile", "alice", "outbox"]).stdout == "nothing queued\n")
    }
}
