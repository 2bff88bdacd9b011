import Foundation
import LifeSignalProtocol
import Testing

/// Issue 15: what the broker logs at info over its life, and that no secret reaches its log.
@Suite("Broker logs", .serialized)
struct BrokerLogTests {
    @Test func infoTellsStartStoreListenAFiredDeadlineAndStop() throws {
        let broker = try BrokerProcess(arguments: [
            "--min-check-in-interval-sec", "1", "--log-level", "info", "--store-cache-mib", "8",
        ])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.ok(Op.profileUpdate, ["checkInIntervalSec": 1])
        _ = alice.ok(Op.checkIn)
        #expect(eventually { broker.output?.text.contains("deadline fired") == true })
        #expect(broker.stop(signal: SIGTERM) == 0)

        let lines = try #require(broker.output?.lines)
        func line(_ message: String) -> String? { lines.first { $0.hasSuffix("] \(message)") } }
        let starting = try #require(line("starting"), "\(lines)")
        #expect(starting.contains("lifesignal.version="))
        #expect(starting.contains("lifesignal.pid=\(broker.pid)"))
        // The time as the JSON log and lsclient write it: UTC, to the millisecond.
        #expect(lines.allSatisfy { $0.prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info /#) != nil }, "\(lines)")
        let store = try #require(line("store opened"), "\(lines)")
        if BrokerProcess.onPostgres {
            #expect(store.contains("lifesignal.store=postgresql"))
        } else {
            #expect(store.contains("lifesignal.store=sqlite"))
            #expect(store.contains("lifesignal.path=\(broker.dataDirectory.path)/lifesignal.sqlite"))
            #expect(store.contains("lifesignal.schema=10"))
            #expect(store.contains("lifesignal.cache_mib=8"))
        }
        #expect(line("listening")?.contains("lifesignal.port=\(broker.port)") == true)
        let fired = try #require(line("deadline fired"))
        #expect(fired.contains("lifesignal.user=\(alice.id)"))
        #expect(fired.contains("lifesignal.late_ms="))
        #expect(line("shutting down")?.contains("lifesignal.signal=SIGTERM") == true)
        #expect(line("stopped")?.contains("lifesignal.reason=SIGTERM") == true)
        // In that order.
        let order = ["starting", "store opened", "listening", "deadline fired", "shutting down", "stopped"]
            .compactMap { message in lines.firstIndex { $0.hasSuffix("] \(message)") } }
        #expect(order == order.sorted() && order.count == 6)
        #expect(lines.allSatisfy { !$0.contains(alice.credential.token) })
    }

    /// A sustained stretch at max-connections is two info-level lines, with the refusals counted.
    @Test func aStretchAtTheConnectionLimitIsOneBeginAndOneEnd() throws {
        // A short heartbeat makes the sweep, which ends an overload, run every 250 ms.
        let broker = try BrokerProcess(arguments: ["--max-connections", "3", "--heartbeat-ms", "1000"])
        var devices = try (0..<3).map { try RawConnection.authenticated(port: broker.port, name: "User \($0)").0 }
        for _ in 0..<8 {
            let refused = try RawConnection(port: broker.port)
            #expect(refused.next()?.errorCode == .overloaded)
        }
        Thread.sleep(forTimeInterval: 0.6)  // two sweeps at the limit: still one episode
        for device in devices { _ = device.request(Op.bye) }
        devices.removeAll()
        #expect(eventually { broker.output?.text.contains("overload ends") == true })
        #expect(broker.stop(signal: SIGTERM) == 0)
        let lines = try #require(broker.output?.lines)
        let begins = lines.filter { $0.contains("overload begins: at max-connections") }
        let ends = lines.filter { $0.contains("overload ends: below max-connections") }
        #expect(begins.count == 1 && ends.count == 1, "\(lines)")
        #expect(begins.first?.hasPrefix("2") == true && begins.first?.contains(" warning ") == true)
        #expect(ends.first?.contains(" info ") == true)
        #expect(ends.first?.contains("lifesignal.refused=8") == true, "\(ends)")
    }

    /// A burst over max-pending-writes: one begin, the shed requests counted in one end.
    @Test func aBurstOverTheStoreBacklogIsOneBeginAndOneEnd() throws {
        let broker = try BrokerProcess(arguments: ["--max-pending-writes", "1"])
        func count(_ text: String) -> Int { broker.output?.lines.filter { $0.contains(text) }.count ?? 0 }
        let begins = "overload begins: store backlog", ends = "overload ends: store backlog drained"
        // At a limit of 1 every write of the set-up is a short overload of its own; they end first.
        // One may also meet the start's own read of pending deadlines still in the store and be
        // shed (`overloaded` says try again, §9): a slow sanitized run did.
        var setUp: (RawConnection, Credential)?
        for _ in 0..<20 where setUp == nil {
            setUp = try? RawConnection.authenticated(port: broker.port)
            if setUp == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        let (phone, _) = try #require(setUp)
        _ = phone.settle()
        #expect(eventually { count(begins) == count(ends) })
        let (beginsBefore, endsBefore) = (count(begins), count(ends))

        // Pipelined renames: the first goes to the store and the ones behind it are shed.
        let rids = phone.sendPipelined((0..<30).map { (Op.profileUpdate, ["name": .string("Alice \($0)")]) })
        let shed = phone.responses(rids.count).filter { $0.errorCode == .overloaded }.count
        #expect(shed > 0)
        #expect(eventually { count(ends) > endsBefore })
        #expect(count(begins) == beginsBefore + 1)
        #expect(count(ends) == endsBefore + 1)
        let end = try #require(broker.output?.lines.last { $0.contains(ends) })
        #expect(end.contains("lifesignal.refused=\(shed)"), "\(end)")
    }

    @Test func theSQLiteStoreKeepsEverySecretOutOfATraceLog() throws {
        let broker = try BrokerProcess(arguments: ["--log-level", "trace", "--log-format", "json"])
        try checkNoSecretIsLogged(by: broker, also: [])
    }

    /// Counts and ports are JSON numbers, the data directory is absolute (the broker was started
    /// with a relative one).
    @Test func aJSONLogWritesNumbersAsNumbersAndTheDataDirectoryInFull() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let broker = try BrokerProcess(arguments: ["--log-format", "json", "--data-dir", "relative-data"],
                                       workingDirectory: parent)
        #expect(broker.stop(signal: SIGTERM) == 0)
        let objects = try #require(broker.output?.lines).compactMap { try? JSONValue.parse(Array($0.utf8)).objectValue }
        let listening = try #require(objects.first { $0["message"]?.stringValue == "listening" })
        #expect(listening["lifesignal.port"] == .int(Int64(broker.port)))
        #expect(listening["lifesignal.connections.max"]?.intValue != nil)
        #expect(listening["lifesignal.host"]?.stringValue == "127.0.0.1")
        if !BrokerProcess.onPostgres {
            #expect(listening["lifesignal.data"]?.stringValue == parent.appendingPathComponent("relative-data").path)
        }
        let starting = try #require(objects.first { $0["message"]?.stringValue == "starting" })
        #expect(starting["lifesignal.pid"] == .int(Int64(broker.pid)))
        #expect(starting["lifesignal.version"]?.stringValue != nil)
    }

    /// The password of the URL too (the throwaway server trusts loopback, so any password is taken).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] != nil))
    func aClusterBrokerKeepsEverySecretAndItsPasswordOutOfATraceLog() throws {
        let database = try FreshDatabase()
        let password = "pw-\(UUID().uuidString)"
        let url = database.url.replacingOccurrences(of: "://postgres@", with: "://postgres:\(password)@")
        #expect(url.contains(password))
        let broker = try BrokerProcess(arguments: [
            "--log-level", "trace", "--log-format", "json", "--postgres", url, "--broker-id", "logs-0",
        ])
        try checkNoSecretIsLogged(by: broker, also: [password])
        _ = database
    }

    /// Registers, hellos, push tokens, contacts added by QR code, pings and check-ins, then stops the
    /// broker and reads its whole output.
    private func checkNoSecretIsLogged(by broker: BrokerProcess, also extraSecrets: [String]) throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let bob = try Person("Bob", port: broker.port)
        let carol = try Person("Carol", port: broker.port)
        let pushTokens = ["push-token-alice-\(UUID().uuidString)", "push-token-bob-\(UUID().uuidString)"]
        _ = alice.ok(Op.deviceRegister, ["token": .string(pushTokens[0]), "platform": "ios"])
        _ = bob.ok(Op.deviceRegister, ["token": .string(pushTokens[1]), "platform": "android"])
        let qrCodes = [alice.qrCode, bob.qrCode, carol.qrCode]
        alice.add(bob, responder: true, dependent: false)
        carol.add(alice, responder: false, dependent: true)
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        _ = alice.ok(Op.checkIn)
        // A hello with a wrong token, which the broker refuses (and might be tempted to log).
        let wrongToken = "wrong-token-\(UUID().uuidString)"
        let intruder = try RawConnection(port: broker.port)
        _ = intruder.hello(Credential(userID: alice.id, token: wrongToken), device: "intruder")
        _ = alice.settle()
        _ = bob.settle()
        #expect(broker.stop(signal: SIGTERM) == 0)

        let output = try #require(broker.output?.text)
        let secrets = [alice, bob, carol].map(\.credential.token) + pushTokens + qrCodes + [wrongToken] + extraSecrets
        for secret in secrets {
            #expect(!output.contains(secret), "a secret is in the log: \(secret)")
        }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count > 20, "trace should say plenty: \(lines.count) lines")
        for line in lines {
            let object = try #require(JSONLine.parse(line), "not JSON: \(line)")
            for field in ["time", "level", "label", "message", "source"] {
                #expect(object.string(at: field) != nil, "no \(field): \(line)")
            }
        }
        #expect(lines.contains { JSONLine.parse($0)?.string(at: "message") == "listening" })
        #expect(lines.contains { JSONLine.parse($0)?.string(at: "message") == "stopped" })
    }
}
