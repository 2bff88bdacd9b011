/// Runs the harness on mutated seeds from a seeded PRNG: the same seed gives the same inputs, so a
/// failure is reproduced by its seed and index (or by the input it prints). Works without libFuzzer.
public struct SeededRun {
    public struct Failure: Error, CustomStringConvertible {
        public let index: Int
        public let input: [UInt8]
        public let failure: FuzzFailure

        public var description: String { "input #\(index): \(failure)\ninput: \(hex(input, limit: 4_096))" }
    }

    public private(set) var stats = FuzzStats()
    private var mutator: Mutator
    private var boundaries: SplitMix64
    private var index = 0

    public init(seed: UInt64, seeds: [[UInt8]] = SeedCorpus.forMutation.map(\.bytes)) {
        mutator = Mutator(seeds: seeds, seed: seed)
        boundaries = SplitMix64(seed: ~seed)
    }

    /// Checks `count` more inputs; throws the first failure.
    public mutating func run(count: Int) throws(Failure) {
        for _ in 0..<count {
            // One input in 16 is a string near a §10 bound: byte mutations seldom land on one.
            let input = index % 16 == 15 ? BoundaryRequests.random(&boundaries).frame : mutator.next()
            do {
                stats += try FuzzHarness.check(input)
            } catch {
                throw Failure(index: index, input: input, failure: error)
            }
            index += 1
        }
    }
}
