import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import LifeSignalBroker
import LifeSignalUV
import Testing

/// The broker's lifecycle owns its listener and timers: a broker starts once, and once it stops
/// accepting nothing it held is open and nothing new is started.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20))) struct BrokerLifecycleTests {
    @Test func aBrokerStartsOnce() async throws {
        let server = try InProcessBroker()
        defer { server.stop() }
        #expect(try await server.broker.onLoopAsync { $0.isAccepting })
        await #expect(throws: StartFailure.self) { _ = try await server.broker.onLoopAsync { broker in Result { try broker.start() } }.get() }
        #expect(try await server.broker.onLoopAsync { $0.isAccepting })
    }

    @Test func aStoppedBrokerHoldsNothingAndStartsNothingNew() async throws {
        let server = try InProcessBroker()
        defer { server.stop() }
        try await server.broker.onLoopAsync { $0.stopAccepting() }
        #expect(try await !server.broker.onLoopAsync { $0.isAccepting })
        #expect(try await !server.broker.onLoopAsync { $0.hasDeadlineScheduler })
        // A store failure reported after the stop queues no retry and starts no timer.
        try await server.broker.onLoopAsync { $0.retryAfterStoreFailure(.reload(userID: "u_late")) }
        #expect(try await server.broker.onLoopAsync { $0.storeRetries.isEmpty })
        await #expect(throws: StartFailure.self) { _ = try await server.broker.onLoopAsync { broker in Result { try broker.start() } }.get() }
        // The port is closed, not merely ignored.
        #expect(connectionIsRefused(port: server.port))
    }

    /// What another task asks of a broker whose loop has shut down (an HTTP request that came as
    /// it stopped) is answered at once, not left waiting for a turn of the loop that never comes.
    @Test func aBrokerWhoseLoopHasStoppedAnswersOtherTasksAtOnce() async throws {
        let server = try InProcessBroker()
        server.stop()
        await #expect(throws: LoopStopped.self) { try await server.broker.onLoopAsync { $0.isAccepting } }
        let readiness = await server.broker.readiness(timeout: .seconds(120))
        #expect(!readiness.accepting && !readiness.isReady)
    }

    private func connectionIsRefused(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == -1 && errno == ECONNREFUSED
    }
}

extension Broker {
    fileprivate var hasDeadlineScheduler: Bool { deadlines != nil }
}
