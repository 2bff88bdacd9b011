import Foundation
@testable import LifeSignalBroker
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV
import Logging
import Testing

/// The broker's log lines, as a log handler got them, each with when (seconds, monotonic).
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var atSeconds: Double
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    let lines = Locked<[Line]>([])

    var logger: Logger {
        var logger = Logger(label: "test-broker") { _ in CapturingLogHandler(log: self) }
        logger.logLevel = .info
        return logger
    }

    func lines(_ message: String) -> [Line] { lines.withLock { $0.filter { $0.message == message } } }
}

struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).mapValues { "\($0)" }
        let line = CapturedLog.Line(atSeconds: Double(MonotonicClock.nowNs()) / 1e9, level: event.level,
                                    message: event.message.description, metadata: fields)
        log.lines.withLock { $0.append(line) }
    }
}

extension Broker {
    /// Queues `retry` `times` times, as as many failures of the same user would; what is queued then.
    func queueForTest(_ retry: StoreRetry, times: Int) -> [StoreRetry] {
        for _ in 0..<times { retryAfterStoreFailure(retry) }
        return storeRetries
    }
}

/// Issue 24 item 11: a store that fails every write (a full disk) while devices keep retrying
/// does not flood the log, and a user's reload is retried once a second (PROTOCOL §9, "Store
/// failure"), queued once however often the user fails meanwhile.
/// The time limit is a guard against a hang, not a timing assertion. It is longer than a whole
/// sanitized run: the 200 connects of the first test are async and wait for the cooperative pool,
/// which the synchronous integration tests hold (a TSan run took 487 s).
@Suite(.timeLimit(.minutes(20)))
struct StoreFailureLogTests {
    @Test func storeFailuresAreLoggedAtABoundedRateWhileDevicesRetry() async throws {
        let log = CapturedLog()
        let broker = try InProcessBroker(logger: log.logger)
        defer { broker.stop() }
        var registrations: [Registration] = []
        for index in 0..<8 {
            registrations.append(try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "U\(index)"))
        }
        broker.store.base.simulatedFullDisk.withLock { $0 = true }
        let failures = Locked(0)
        // Each device says hello and checks in, again and again: every check-in fails.
        await withTaskGroup(of: Void.self) { group in
            for registration in registrations {
                group.addTask {
                    for _ in 0..<25 {
                        guard let client = try? LifeSignalClient(configuration: ClientConfiguration(
                            port: broker.port, userID: registration.user.id, token: registration.token,
                            deviceID: "phone")) else { continue }
                        if (try? await client.connect()) != nil, (try? await client.checkIn()) == nil {
                            failures.withLock { $0 += 1 }
                        }
                        await client.close()
                    }
                }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed >= 150, "the check-ins did not fail as on a full disk")
        let errors = log.lines.withLock { $0.filter { $0.level == .error } }
        let span = (errors.last?.atSeconds ?? 0) - (errors.first?.atSeconds ?? 0)
        let bound = Int(span / (Double(LogThrottle.intervalMs) / 1_000)) + 1
        let counts = Dictionary(grouping: errors, by: \.message).mapValues(\.count)
        #expect(counts["store write failed"] != nil)
        for (message, count) in counts {
            #expect(count <= bound, "\(count) lines of '\(message)' in \(span) s for \(failed) failed check-ins")
        }
    }

    @Test func aUsersReloadIsQueuedOnceAndRetriedEverySecond() async throws {
        let log = CapturedLog()
        let broker = try InProcessBroker(logger: log.logger)
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: "127.0.0.1", port: broker.port, name: "Alice")
        broker.store.failing.withLock { $0.users = [alice.user.id] }
        // As if five writes of hers failed at once: one reload is queued.
        let queued = try await broker.broker.onLoopAsync { $0.queueForTest(.reload(userID: alice.user.id), times: 5) }
        #expect(queued == [.reload(userID: alice.user.id)])

        // Every retry fails to load her and is queued again. Each line says how many were left
        // out before it (`suppressed`): the lines from the first on count every retry since.
        let retrying = { log.lines("store failure: retrying") }
        #expect(await poll {
            let lines = retrying()
            return lines.count >= 2 && lines.last!.atSeconds - lines.first!.atSeconds >= 4
        }, "the reload was not retried")
        let lines = retrying()
        #expect(lines.allSatisfy { $0.metadata["lifesignal.retry"]?.contains(alice.user.id) == true })
        let span = lines.last!.atSeconds - lines.first!.atSeconds
        let retries = lines.count + lines.dropFirst().map { Int($0.metadata["lifesignal.suppressed"] ?? "0") ?? 0 }.reduce(0, +)
        let intervalSeconds = Double(Broker.storeRetryMs) / 1_000
        #expect(retries <= Int((span / intervalSeconds).rounded(.up)) + 1,
                "\(retries) reload retries in \(span) s, more than one every \(intervalSeconds) s")
        #expect(retries >= 3, "the reload was not retried every second")
        broker.store.failing.withLock { $0.users = [] }
    }
}
