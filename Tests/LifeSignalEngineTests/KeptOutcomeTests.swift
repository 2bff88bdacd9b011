import LifeSignalProtocol
import Testing

@testable import LifeSignalEngine

/// PROTOCOL §12's decisions and bounds, as plain values.
@Suite struct KeptOutcomeTests {
    private func operation(_ index: Int, at keptAt: Int64) -> KeptOperation {
        KeptOperation(opID: "op-\(index)", op: Op.pingSend, keptAt: keptAt)
    }

    @Test func aKeptOpIDIsAnsweredAndAnotherOpUnderItRefused() {
        let kept = KeptOperation(opID: "x", op: Op.checkIn, keptAt: 1)
        #expect(OperationDecision.of(op: Op.checkIn, opID: "x", kept: nil) == .run)
        #expect(OperationDecision.of(op: Op.checkIn, opID: "x", kept: kept) == .answerKept)
        guard case .refuse(let error) = OperationDecision.of(op: Op.alertTrigger, opID: "x", kept: kept) else {
            Issue.record("another op under a kept opId must be refused")
            return
        }
        #expect(error.code == .badRequest)
    }

    @Test(arguments: [
        KeptOutcome.Answer.ok(["pingId": "p_1", "count": 3]),
        .ok([:]),
        .refused(ProtocolError(.notFound, "no such contact \"x\"")),
    ])
    func anAnswerSurvivesTheStore(_ answer: KeptOutcome.Answer) {
        let outcome = KeptOutcome(opID: "a", op: Op.pingSend, answer: answer, keptAt: 5)
        #expect(KeptOutcome.answer(stored: outcome.storedAnswer) == answer)
        #expect(KeptOutcome.answer(stored: Array("{}".utf8)) == nil)
    }

    /// The newest 1,000 stay whatever their age; past them, only what is younger than 24 hours.
    @Test func bothBoundsAreFloors() {
        let day = KeptOperations.keptForMs
        var kept = KeptOperations((0..<1_010).map { operation($0, at: Int64($0)) })
        #expect(kept.prune(of: "u", now: 1_000) == nil, "all younger than a day")
        #expect(kept.count == 1_010)
        let change = kept.prune(of: "u", now: day + 5)  // op-0 … op-4 are older than a day
        #expect(kept.count == 1_005)
        #expect(kept["op-4"] == nil && kept["op-5"] != nil)
        guard case .pruneKeptOutcomes("u", 1_000, day + 5 - day)? = change else {
            Issue.record("the store is pruned alike: \(String(describing: change))")
            return
        }
        #expect(kept.prune(of: "u", now: 10 * day) != nil)
        #expect(kept.count == 1_000, "never below the newest 1,000")
        #expect(kept["op-9"] == nil && kept["op-10"] != nil)
    }

    /// Equal times are ordered by opId and a time set back sorts where it belongs, as the stores
    /// order them (`ORDER BY kept_at, op_id`).
    @Test func pruningFollowsTheStoresOrder() {
        var kept = KeptOperations()
        for index in 0..<1_000 { kept.keep(operation(index + 100, at: 1_000)) }
        kept.keep(KeptOperation(opID: "b", op: Op.checkIn, keptAt: 5))
        kept.keep(KeptOperation(opID: "a", op: Op.checkIn, keptAt: 5))  // the clock went back
        _ = kept.prune(of: "u", now: KeptOperations.keptForMs + 500)
        #expect(kept["a"] == nil && kept["b"] == nil)
        #expect(kept.count == 1_000)
        kept.keep(KeptOperation(opID: "z", op: Op.checkIn, keptAt: 1_000))
        _ = kept.prune(of: "u", now: KeptOperations.keptForMs + 5_000)
        // Among equal times the smallest opId goes first: "op-100", not "z".
        #expect(kept["op-100"] == nil && kept["z"] != nil)
    }
}
