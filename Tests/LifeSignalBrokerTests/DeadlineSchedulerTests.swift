import Foundation
@testable import LifeSignalBroker
import LifeSignalUV
import Testing

@Suite struct DeadlineSchedulerTests {
    /// Runs `body` on a fresh loop with a scheduler whose clock the test sets; returns what fired
    /// once `expected` deadlines have (bounded), and the loop has turned twice more, so that one
    /// firing wrongly in the same pass is seen too. Waits for events, not for a time: under a
    /// sanitizer the set-up alone may take longer than any fixed wait.
    private func run(now: Int64, expecting expected: Int,
                     _ body: @escaping @Sendable (DeadlineScheduler) -> Void) throws -> [String] {
        let loop = try EventLoop.startOnNewThread(name: "deadline-test")
        let fired = Locked<[String]>([])
        let clock = Locked(now)
        let box = SchedulerBox()
        let setUp = DispatchSemaphore(value: 0)
        loop.execute {
            box.scheduler = try? DeadlineScheduler(loop: loop, now: { clock.withLock { $0 } }) { userID, _ in
                fired.withLock { $0.append(userID) }
            }
            if let scheduler = box.scheduler { body(scheduler) }
            setUp.signal()
        }
        setUp.wait()
        let deadline = ContinuousClock.now + .seconds(60)
        while fired.withLock({ $0.count }) < expected && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        for _ in 0..<2 {
            let turned = DispatchSemaphore(value: 0)
            loop.execute { turned.signal() }
            turned.wait()
        }
        loop.execute { box.scheduler?.close() }
        loop.shutdownGracefully(flushTimeoutMs: 0)
        return fired.withLock { $0 }
    }

    @Test func dueDeadlinesFireInDeadlineOrderOnce() throws {
        let fired = try run(now: 10_000, expecting: 3) { scheduler in
            scheduler.schedule("c", at: 9_000)
            scheduler.schedule("a", at: 1_000)
            scheduler.schedule("b", at: 5_000)
            scheduler.schedule("future", at: 1_000_000)
        }
        #expect(fired == ["a", "b", "c"])
    }

    @Test func aClearedOrMovedDeadlineDoesNotFireAtItsOldTime() throws {
        let fired = try run(now: 10_000, expecting: 1) { scheduler in
            scheduler.schedule("cleared", at: 1_000)
            scheduler.schedule("moved", at: 2_000)
            scheduler.schedule("kept", at: 3_000)
            scheduler.schedule("cleared", at: nil)
            scheduler.schedule("moved", at: 1_000_000)
            #expect(scheduler.count == 2)
        }
        #expect(fired == ["kept"])
    }

    @Test func aBulkLoadFiresWhatIsAlreadyDue() throws {
        let fired = try run(now: 10_000, expecting: 1) { scheduler in
            scheduler.scheduleAll([(userID: "late", deadline: 9_999), (userID: "later", deadline: 50_000)])
        }
        #expect(fired == ["late"])
    }

    @Test func manyMovesLeaveOneLiveDeadlineEach() throws {
        let fired = try run(now: 10_000, expecting: 1) { scheduler in
            for round in 0..<50 {
                for user in 0..<100 { scheduler.schedule("u\(user)", at: 1_000_000 + Int64(round)) }
            }
            #expect(scheduler.count == 100)
            scheduler.schedule("u7", at: 1)
        }
        #expect(fired == ["u7"])
    }
}

/// Holds the scheduler on the loop thread between the set-up and the shutdown.
private final class SchedulerBox: @unchecked Sendable {
    var scheduler: DeadlineScheduler?
}
