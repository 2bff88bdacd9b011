import Foundation
import LifeSignalFuzzing

extension LSFuzz {
    /// `--runs N --seed S`: the seeded run, with throughput and reach printed every 100,000 inputs.
    static func seededRun(_ arguments: [String]) {
        var runs = 1_000_000
        var seed: UInt64 = 1
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { fail(usage) }
            switch flag {
            case "--runs": runs = Int(value)
            case "--seed": seed = value
            default: fail(usage)
            }
        }
        let seeds = SeedCorpus.forMutation.count
        print("lsfuzz: \(runs) inputs (\(seeds) seeds mutated, 1 in 16 a string at a §10 bound), seed \(seed)")
        var run = SeededRun(seed: seed)
        let start = ContinuousClock.now
        var done = 0
        while done < runs {
            let batch = min(100_000, runs - done)
            do {
                try run.run(count: batch)
            } catch {
                fail("lsfuzz: FAILED \(error)")
            }
            done += batch
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            print("  \(done) runs, \(Int(Double(done) / seconds)) execs/s, \(run.stats)")
        }
        print("lsfuzz: \(done) runs, no invariant broken")
    }

    static func check(_ paths: [String]) {
        var broken = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { fail("lsfuzz: cannot read \(path)") }
            do {
                let stats = try FuzzHarness.check(Array(data))
                print("\(path): ok, \(stats.frames) frames")
            } catch {
                print("\(path): FAILED \(error)")
                broken += 1
            }
        }
        exit(broken == 0 ? 0 : 1)
    }

    static func writeSeeds(to directory: String) {
        let url = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for seed in SeedCorpus.all {
                try Data(seed.bytes).write(to: url.appendingPathComponent(seed.name))
            }
        } catch {
            fail("lsfuzz: \(error)")
        }
        print("lsfuzz: wrote \(SeedCorpus.all.count) seeds to \(directory)")
    }
}
