@testable import LifeSignalRules
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// `Step.run`: the accounts are changed in place, so a refused request must be put back by the
/// step itself, whatever the rules changed before they threw.
@Suite struct StepTests {
    @Test func rulesThatThrowAfterChangingLeaveTheAccountsAndNoEffects() throws {
        var step = RuleFixtures.aliceWatchesBob(bobCheckedInAt: RuleFixtures.now - 1000)
        let before = step.accounts
        let (alice, bob) = ("u_Alice", "u_Bob")
        #expect(throws: ProtocolError.notFound("refused")) {
            try step.run { (step) throws(ProtocolError) in
                var mine = try step.relationship(of: alice, with: bob).mine
                mine.outgoingPing = PendingPing(id: "p_1", sentAt: step.now)
                step.saveBothSides(mine)
                step.drop(bob, of: alice)
                step.drop(alice, of: bob)
                var renamed = try step.account(bob).user
                renamed.name = "Robert"
                step.replaceUser(renamed)
                renamed.name = "Bobby"
                step.replaceUser(renamed)
                step.notify(alice, .ping, "x", about: bob)
                throw ProtocolError.notFound("refused")
            }
        }
        #expect(step.accounts == before)
        #expect(step.effects.isEmpty)
        #expect(step.usersBefore.isEmpty)
    }

    @Test func rulesThatSucceedKeepTheirChangesAndTheFirstDocumentBeforeThem() throws {
        var step = RuleFixtures.aliceWatchesBob()
        let original = try step.account("u_Bob").user
        try step.run { (step) throws(ProtocolError) in
            var renamed = try step.account("u_Bob").user
            renamed.name = "Robert"
            step.replaceUser(renamed)
            renamed.name = "Bobby"
            step.replaceUser(renamed)
        }
        #expect(try step.account("u_Bob").user.name == "Bobby")
        #expect(step.usersBefore == ["u_Bob": original])
        let taken = step.takeAccounts()
        #expect(taken.count == 2 && step.accounts.isEmpty)
    }
}
