import Testing

@testable import LifeSignalBroker

/// Answers leave in the order requests came (§2): each one is matched with the oldest request,
/// whether it was answered while its frame was handled or queued for later.
@Suite struct InFlightRequestsTests {
    @Test func anAnswerWhileHandlingIsThatFramesAnswer() {
        var inFlight = InFlightRequests()
        #expect(inFlight.answered(nowNs: 10) == nil)
        inFlight.beginHandling(op: 3, arrivedNs: 100)
        #expect(inFlight.answered(nowNs: 130)! == (3, 30))
        inFlight.endHandling()
        #expect(inFlight.answered(nowNs: 200) == nil)
    }

    @Test func unansweredFramesWaitInOrderAheadOfLaterOnes() {
        var inFlight = InFlightRequests()
        for (op, arrived) in [(UInt8(1), UInt64(100)), (2, 110), (3, 120)] {
            inFlight.beginHandling(op: op, arrivedNs: arrived)
            inFlight.endHandling()  // each waits for a commit
        }
        // A fourth frame's handling begins; the answer written now is the oldest's, not its own.
        inFlight.beginHandling(op: 4, arrivedNs: 130)
        #expect(inFlight.answered(nowNs: 200)! == (1, 100))
        inFlight.endHandling()
        #expect(inFlight.answered(nowNs: 300)! == (2, 190))
        #expect(inFlight.answered(nowNs: 300)! == (3, 180))
        #expect(inFlight.answered(nowNs: 300)! == (4, 170))
        #expect(inFlight.answered(nowNs: 300) == nil)
    }

    @Test func theLastOpIndexFits() {
        var inFlight = InFlightRequests()
        inFlight.beginHandling(op: 254, arrivedNs: 1)
        #expect(inFlight.answered(nowNs: 2)! == (254, 1))
    }

    @Test func aClockPast56BitsStillGivesTheDuration() {
        var inFlight = InFlightRequests()
        let start: UInt64 = (1 << 56) - 5
        inFlight.beginHandling(op: 1, arrivedNs: start)
        #expect(inFlight.answered(nowNs: start + 20)! == (1, 20))
    }
}
