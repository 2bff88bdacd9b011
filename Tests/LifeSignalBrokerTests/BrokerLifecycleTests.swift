import Foundation
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
        #expect(try await server.broker.onLoopAsync { $0.loop.openListenerCount } == 1)
        try await server.broker.onLoopAsync { $0.stopAccepting() }
        #expect(try await !server.broker.onLoopAsync { $0.isAccepting })
        #expect(try await !server.broker.onLoopAsync { $0.hasDeadlineScheduler })
        // A store failure reported after the stop queues no retry and starts no timer.
        try await server.broker.onLoopAsync { $0.retryAfterStoreFailure(.reload(userID: "u_late")) }
        #expect(try await server.broker.onLoopAsync { $0.storeRetries.isEmpty })
        await #expect(throws: StartFailure.self) { _ = try await server.broker.onLoopAsync { broker in Result { try broker.start() } }.get() }
        // The listener is closed, not merely ignored. (Not checked by connecting to its old port:
        // a listener of a test running beside this one may have been given that port since.)
        #expect(try await server.broker.onLoopAsync { $0.loop.openListenerCount } == 0)
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
}

extension Broker {
    fileprivate var hasDeadlineScheduler: Bool { deadlines != nil }
}
