import Foundation
import LifeSignalEngine
import LifeSignalUV

/// Measures the scheduler's own cost, for bench/deadlines.sh: scheduling n deadlines one by
/// one, moving each once, and the resident memory they hold.
public enum DeadlineBenchmark {
    public struct Result: Sendable {
        public var count: Int
        public var scheduleNsPerOp: Double
        public var moveNsPerOp: Double
        public var bulkLoadMs: Double
        public var residentBytesPerDeadline: Double
    }

    public static func run(count: Int) throws -> Result {
        let loop = try EventLoop.startOnNewThread(name: "deadline-bench")
        let outcome = Locked<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            outcome.withLock { $0 = try? measure(count: count, loop: loop) }
            done.signal()
        }
        done.wait()
        loop.shutdownGracefully(flushTimeoutMs: 0)
        guard let result = outcome.withLock({ $0 }) else { throw BenchmarkFailed() }
        return result
    }

    struct BenchmarkFailed: Error {}

    private static func measure(count: Int, loop: EventLoop) throws -> Result {
        let far = WallClock.nowMs() + 86_400_000
        let ids = (0..<count).map { "u_bench\($0)" }
        let before = residentBytes()
        let scheduler = try DeadlineScheduler(loop: loop) { _, _ in }
        var start = DispatchTime.now().uptimeNanoseconds
        for (index, id) in ids.enumerated() { scheduler.schedule(id, at: far + Int64(index % 86_400_000)) }
        let scheduled = DispatchTime.now().uptimeNanoseconds - start
        let held = residentBytes() - before
        start = DispatchTime.now().uptimeNanoseconds
        for (index, id) in ids.enumerated() { scheduler.schedule(id, at: far + 1 + Int64(index % 86_400_000)) }
        let moved = DispatchTime.now().uptimeNanoseconds - start
        scheduler.close()

        let bulk = try DeadlineScheduler(loop: loop) { _, _ in }
        let pairs = ids.enumerated().map { (userID: $1, deadline: far + Int64($0)) }
        start = DispatchTime.now().uptimeNanoseconds
        bulk.scheduleAll(pairs)
        let loaded = DispatchTime.now().uptimeNanoseconds - start
        bulk.close()
        return Result(
            count: count, scheduleNsPerOp: Double(scheduled) / Double(count), moveNsPerOp: Double(moved) / Double(count),
            bulkLoadMs: Double(loaded) / 1e6, residentBytesPerDeadline: Double(held) / Double(count))
    }

    private static func residentBytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }
}
