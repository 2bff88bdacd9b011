@testable import LifeSignalRules
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// §5, §8 check-ins, missed deadlines and alerts, and the views they change (§4), as plain
/// functions of the accounts.
@Suite struct SafetyRulesTests {
    @Test func aCheckInShowsTheNewDeadlineToResponders() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try SafetyRules.checkIn(by: "u_Bob", in: &step)
        let bob = try #require(step.accounts["u_Bob"]?.user)
        #expect(bob.lastCheckInAt == RuleFixtures.now)
        #expect(bob.checkInDeadline == RuleFixtures.now + bob.checkInIntervalSec * 1000)
        let shown = try #require(step.contactUpdates(of: "u_Alice").last)
        #expect(shown.lastCheckInAt == bob.lastCheckInAt && shown.checkInDeadline == bob.checkInDeadline)
        #expect(step.notifications(of: "u_Alice").isEmpty)
    }

    @Test func aMissedDeadlineFiresOnceAndTheNextCheckInIsAllClear() throws {
        let deadline = RuleFixtures.now - 1
        var step = RuleFixtures.aliceWatchesBob(bobCheckedInAt: deadline - 86_400_000)
        #expect(try SafetyRules.missedCheckIn(of: "u_Bob", deadline: deadline, in: &step))
        #expect(try !SafetyRules.missedCheckIn(of: "u_Bob", deadline: deadline, in: &step))
        #expect(step.notifications(of: "u_Alice").map(\.message) == ["Bob missed their check-in."])
        #expect(step.contactUpdates(of: "u_Alice").last?.isNonResponsive == true)
        _ = try SafetyRules.checkIn(by: "u_Bob", in: &step)
        #expect(step.notifications(of: "u_Alice").map(\.message).last == "Bob checked in.")
        #expect(step.contactUpdates(of: "u_Alice").last?.isNonResponsive == false)
    }

    @Test func aDeadlineThatMovedDoesNotFire() throws {
        var step = RuleFixtures.aliceWatchesBob(bobCheckedInAt: RuleFixtures.now - 1_000)
        let old = RuleFixtures.now - 5_000
        #expect(try !SafetyRules.missedCheckIn(of: "u_Bob", deadline: old, in: &step))
        #expect(step.effects.isEmpty)
    }

    @Test func anAlertCarriesItsMessageToRespondersAndOnlyOneIsActive() throws {
        var step = RuleFixtures.aliceWatchesBob()
        let first = try SafetyRules.triggerAlert(by: "u_Bob", message: "fell on the stairs", in: &step)
        let again = try SafetyRules.triggerAlert(by: "u_Bob", message: "again", in: &step)
        #expect(first == again && first != .empty)
        let told = step.notifications(of: "u_Alice")
        #expect(told.count == 1 && told.first?.alertData?.message == "fell on the stairs")
        #expect(step.contactUpdates(of: "u_Alice").last?.alert?.message == "fell on the stairs")
        _ = try SafetyRules.cancelAlert(by: "u_Bob", in: &step)
        #expect(step.contactUpdates(of: "u_Alice").last?.alert == nil)
        #expect(throws: ProtocolError.notFound("no active alert")) { try SafetyRules.cancelAlert(by: "u_Bob", in: &step) }
    }

    /// The stale-view bug of issue 11, as a rule: views are derived from the document, so a
    /// responder who regains the role sees the check-in made while they had none.
    @Test func aResponderWhoRegainsTheRoleSeesTheCurrentCheckIn() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try ContactRules.setRoles(of: "u_Alice", by: "u_Bob", isResponder: false, isDependent: false, in: &step)
        _ = try SafetyRules.checkIn(by: "u_Bob", in: &step)
        let reply = try ContactRules.setRoles(of: "u_Alice", by: "u_Bob", isResponder: true, isDependent: false,
                                              in: &step)
        #expect(reply.contact != nil)
        let shown = try #require(step.view(of: "u_Bob", for: "u_Alice"))
        #expect(shown.lastCheckInAt == RuleFixtures.now)
        #expect(step.contactUpdates(of: "u_Alice").last == shown)
    }

    @Test func aRuleNeedsEveryoneItTouchesInTheStep() {
        var step = Step(now: RuleFixtures.now, accounts: [RuleFixtures.account("Alice")], ids: SequentialIDs())
        #expect(throws: ProtocolError.notFound("no such contact")) {
            try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
        }
    }
}
