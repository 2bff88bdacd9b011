import LifeSignalEngine
import Testing

/// Events are kept for `resume` (§6): the newest `retention`, pruned a step of 64 at a time.
@Suite struct EventRetentionTests {
    @Test func nothingGoesUntilAStepsWorthLiesBeyondTheRetention() {
        #expect(EventRetention.pruneThrough(head: 1_000, oldestRetained: 1, retention: 1_000) == nil)
        #expect(EventRetention.pruneThrough(head: 1_062, oldestRetained: 1, retention: 1_000) == nil)
        #expect(EventRetention.pruneThrough(head: 1_063, oldestRetained: 0, retention: 1_000) == 63)
        #expect(EventRetention.pruneThrough(head: 1_064, oldestRetained: 1, retention: 1_000) == 64)
    }

    @Test func aPruneKeepsExactlyTheNewestRetentionAndTheNextWaitsAStep() throws {
        var oldest: Int64 = 1
        var prunes = 0
        for head in Int64(1)...5_000 {
            guard let through = EventRetention.pruneThrough(head: head, oldestRetained: oldest, retention: 100) else {
                #expect(head - oldest + 1 < 100 + EventRetention.step)
                continue
            }
            #expect(head - through == 100)
            oldest = through + 1
            prunes += 1
        }
        #expect(prunes == (5_000 - 100) / Int(EventRetention.step))
    }
}
