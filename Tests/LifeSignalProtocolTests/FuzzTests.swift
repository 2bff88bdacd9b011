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

    /// Strings just under and just over each §10 byte bound reach every string field, and those
    /// over it have few enough characters that only the byte bound refuses them; the harness
    /// fails any input where validation accepts other than exactly what both bounds allow.
    @Test func boundaryRequestsStraddleEveryByteBound() {
        var random = SplitMix64(seed: 0xB0B5)
        var under: Set<String> = []
        var over: Set<String> = []
        var fields: Set<String> = []
        for _ in 0..<1_000 {
            let request = BoundaryRequests.random(&random)
            #expect(throws: Never.self, "\(request.field) \(request.value.debugDescription)") {
                try FuzzHarness.check(request.frame)
            }
            let field = "\(request.op) \(request.field)"
            let bytes = request.value.utf8.count
            let bound = request.rule.maxBytes
            fields.insert(field)
            if request.allowed, (bound - 2...bound).contains(bytes) { under.insert(field) }
            if !request.allowed, (bound + 1...bound + 2).contains(bytes),
               request.value.count <= request.rule.maxCharacters ?? bytes {
                over.insert(field)
            }
        }
        #expect(fields.count >= 15)
        #expect(under == fields)
        #expect(over == fields)
    }

    @Test func seedsHoldEachBoundAndJustOver() throws {
        let seeds = BoundaryRequests.atEachBound
        for rule in SpecStringRule.allCases {
            let atBound = seeds.filter { $0.rule == rule && $0.value.utf8.count == rule.maxBytes }
            let over = seeds.filter { $0.rule == rule && $0.value.utf8.count == rule.maxBytes + 1 }
            #expect(atBound.contains { $0.allowed }, "\(rule)")
            #expect(!over.isEmpty && over.allSatisfy { !$0.allowed }, "\(rule)")
        }
        for seed in seeds {
            #expect(throws: Never.self, "\(seed.field) \(seed.value.debugDescription)") {
                try FuzzHarness.check(seed.frame)
            }
        }
    }

    /// 20,000 inputs, one in 16 a string near a §10 bound and the rest mutated seeds, the same ones
    /// every run (about 10 s of CPU in debug). A failure prints the input: put its bytes in a file
    /// and run `lsfuzz check FILE` to reproduce.
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
