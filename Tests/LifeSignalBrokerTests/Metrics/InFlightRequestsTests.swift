import Testing

@testable import LifeSignalBroker

/// Answers leave in the order requests came (§2): each one is matched with the oldest request.
@Suite struct InFlightRequestsTests {
    @Test func answersMatchTheOldestRequestFirst() {
        var inFlight = InFlightRequests()
        #expect(inFlight.removeOldest(nowNs: 10) == nil)
        inFlight.append(op: 3, arrivedNs: 100)
        inFlight.append(op: 7, arrivedNs: 150)
        inFlight.append(op: 0, arrivedNs: 160)
        #expect(inFlight.removeOldest(nowNs: 200)! == (3, 100))
        inFlight.append(op: 5, arrivedNs: 210)
        #expect(inFlight.removeOldest(nowNs: 300)! == (7, 150))
        #expect(inFlight.removeOldest(nowNs: 300)! == (0, 140))
        #expect(inFlight.removeOldest(nowNs: 400)! == (5, 190))
        #expect(inFlight.removeOldest(nowNs: 400) == nil)
    }

    @Test func theLastOpIndexFits() {
        var inFlight = InFlightRequests()
        inFlight.append(op: 254, arrivedNs: 1)
        #expect(inFlight.removeOldest(nowNs: 2)! == (254, 1))
    }

    @Test func aClockPast56BitsStillGivesTheDuration() {
        var inFlight = InFlightRequests()
        let start: UInt64 = (1 << 56) - 5
        inFlight.append(op: 1, arrivedNs: start)
        #expect(inFlight.removeOldest(nowNs: start + 20)! == (1, 20))
    }

    @Test func removeAllForgetsEverything() {
        var inFlight = InFlightRequests()
        for op in 0..<5 { inFlight.append(op: UInt8(op), arrivedNs: 1) }
        inFlight.removeAll()
        #expect(inFlight.removeOldest(nowNs: 2) == nil)
    }
}
