import LifeSignalFuzzing
import LifeSignalProtocol
import Testing

/// The fuzz harness (Sources/LifeSignalFuzzing) on the seed corpus and on a short deterministic run of
/// mutated seeds. bench/fuzz.sh runs the same harness for millions of inputs under libFuzzer.
@Suite("Fuzz harness")
struct FuzzTests {
    @Test func everySeedKeepsEveryInvariant() {
        for seed in SeedCorpus.all {
            #expect(throws: Never.self, "\(seed.name)") { try FuzzHarness.check(seed.bytes) }
        }
    }

    @Test func seedsReachEveryStage() throws {
        var stats = FuzzStats()
        for seed in SeedCorpus.all { stats += try FuzzHarness.check(seed.bytes) }
        #expect(stats.framingErrors >= 4)
        #expect(stats.requests >= 30)
        #expect(stats.validRequests >= 26)  // one of every op
        #expect(stats.serverMessages >= 6)
    }

    /// 20,000 mutated inputs, the same ones every run (a few seconds in debug). A failure prints the
    /// input: put its bytes in a file and run `lsfuzz check FILE` to reproduce.
    @Test func seededMutationsKeepEveryInvariant() {
        var run = SeededRun(seed: 0x5EED)
        #expect(throws: Never.self) { try run.run(count: 20_000) }
        // The mutations must reach past the framing, into JSON and the field rules.
        #expect(run.stats.frames > 10_000)
        #expect(run.stats.framingErrors > 1_000)
        #expect(run.stats.jsonValues > 3_000)
        #expect(run.stats.validRequests > 1_500)
    }
}
