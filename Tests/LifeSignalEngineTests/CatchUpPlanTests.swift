import LifeSignalEngine
import Testing

/// §3: a device resuming after a seq gets the events it missed while all of them are kept; a
/// fresh device, one from the future and one from before the oldest kept event get a snapshot.
@Suite struct CatchUpPlanTests {
    @Test func theMissedEventsWhileAllAreKept() {
        #expect(CatchUpPlan(resume: 40, head: 45, oldestRetained: 1, maxOutboundBytes: 1_000)
                    == .replay(after: 40, through: 45, maxBytes: 500))
        #expect(CatchUpPlan(resume: 45, head: 45, oldestRetained: 1, maxOutboundBytes: 1_000)
                    == .replay(after: 45, through: 45, maxBytes: 500))
        #expect(CatchUpPlan(resume: 9, head: 45, oldestRetained: 10, maxOutboundBytes: 1_000)
                    == .replay(after: 9, through: 45, maxBytes: 500))
        #expect(CatchUpPlan(resume: 0, head: 0, oldestRetained: 1, maxOutboundBytes: 1_000)
                    == .replay(after: 0, through: 0, maxBytes: 500))
    }

    @Test func aSnapshotOtherwise() {
        #expect(CatchUpPlan(resume: nil, head: 45, oldestRetained: 1, maxOutboundBytes: 1_000) == .snapshot)
        #expect(CatchUpPlan(resume: 8, head: 45, oldestRetained: 10, maxOutboundBytes: 1_000) == .snapshot)
        #expect(CatchUpPlan(resume: 46, head: 45, oldestRetained: 1, maxOutboundBytes: 1_000) == .snapshot)
        #expect(CatchUpPlan(resume: -1, head: 45, oldestRetained: 1, maxOutboundBytes: 1_000) == .snapshot)
    }
}
