@testable import LifeSignalRules
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// §12 account.delete as a plain function of the user's account and their contacts'.
@Suite struct AccountRulesTests {
    @Test func onlyTheCurrentNameConfirmsAndARefusalChangesNothing() {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError.badRequest("field 'confirm' must be the account's current name")) {
            try step.run { (step) throws(ProtocolError) in try AccountRules.delete("u_Alice", confirm: "alice", in: &step) }
        }
        #expect(step.effects.isEmpty)
        #expect(step.accounts["u_Alice"]?.contacts.count == 1 && step.accounts["u_Bob"]?.contacts.count == 1)
    }

    @Test func everyContactLosesTheirSideAndIsToldTheUserIsErasedSilently() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
        let sentEffects = step.effects.count
        #expect(try AccountRules.delete("u_Bob", confirm: "Bob", in: &step) == .empty)
        let effects = step.effects.dropFirst(sentEffects)

        // Alice's side goes (her pending ping with it), with contact.removed and a notification.
        #expect(step.accounts["u_Alice"]?.contacts.isEmpty == true)
        #expect(step.accounts["u_Bob"]?.contacts.isEmpty == true)
        let told = step.notifications(of: "u_Alice").last
        #expect(told?.type == .removed && told?.title == "Contact Removed")
        #expect(told?.message == "Bob deleted their account.")
        #expect(told?.relatedContactID == "u_Bob" && told?.contactData?.role == ContactRole.none)
        #expect(step.events(of: "u_Alice").last == EventName.contactRemoved)

        // Bob's own devices are told nothing: they are closed. His rows go in one change, last.
        #expect(!effects.contains { if case .event(userID: "u_Bob", _, _) = $0 { true } else { false } })
        #expect(!effects.contains { if case .notification(userID: "u_Bob", _) = $0 { true } else { false } })
        guard case .store(.eraseUser(userID: "u_Bob")) = effects.last else {
            Issue.record("the erasure is the last change: \(effects)")
            return
        }
    }

    @Test func aUserWithoutContactsIsErasedAlone() throws {
        var step = Step(now: RuleFixtures.now, accounts: [RuleFixtures.account("Carol")], ids: SequentialIDs())
        _ = try AccountRules.delete("u_Carol", confirm: "Carol", in: &step)
        #expect(step.effects.count == 1)
    }
}
