import LifeSignalBroker
import LifeSignalPostgres
import Testing

/// `lsbroker bench-cluster` keeps working (a smoke run; no figure is asserted).
@Suite struct ClusterBenchmarkTests {
    @Test func aShortRunPingsAndReports() async throws {
        try await TestDatabase.withFresh { url in
            // The test's timeout, not the broker's 5 s: a transaction under ThreadSanitizer on busy
            // cores once took longer (ci18).
            let result = try await ClusterBenchmark.run(url: url, brokers: 2, pairs: 3, inFlight: 2, seconds: 0.3,
                                                        workTimeout: TestDatabase.openTimeout, logger: TestDatabase.logger)
            #expect(result.pings > 0)
            #expect(result.p50Ms <= result.p99Ms && result.p99Ms <= result.maxMs)
        }
    }
}
