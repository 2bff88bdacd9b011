@testable import LifeSignalRules
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// §5 contacts.add, contacts.remove, contacts.setRoles as plain functions of two accounts.
@Suite struct ContactRulesTests {
    @Test func addingLinksBothSidesWithMirroredRolesAndTellsBoth() throws {
        var step = Step(now: RuleFixtures.now, accounts: [RuleFixtures.account("Alice"), RuleFixtures.account("Bob")], ids: SequentialIDs())
        let reply = try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: true,
                                         isDependent: false, maxContacts: 0, in: &step)
        let mine = try #require(step.accounts["u_Alice"]?.contacts["u_Bob"])
        let theirs = try #require(step.accounts["u_Bob"]?.contacts["u_Alice"])
        #expect(mine.isResponder && !mine.isDependent && !theirs.isResponder && theirs.isDependent)
        #expect(mine.addedAt == RuleFixtures.now && theirs.addedAt == RuleFixtures.now)
        #expect(step.notifications(of: "u_Alice").map(\.message) == ["You added Bob."])
        #expect(step.notifications(of: "u_Bob").map(\.message) == ["Alice added you."])
        #expect(step.events(of: "u_Alice") == [EventName.contactUpdated])
        #expect(reply.contact?.name == "Bob")
    }

    @Test func aRotatedCodeOrAnExistingContactChangesNothing() {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError.self) {
            try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_old", isResponder: true, isDependent: false,
                                 maxContacts: 0, in: &step)
        }
        #expect(throws: ProtocolError(.conflict, "already a contact")) {
            try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: true, isDependent: false,
                                 maxContacts: 0, in: &step)
        }
        #expect(step.effects.isEmpty)
    }

    @Test func theContactLimitHoldsOnEitherSide() {
        var full = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError.self) {
            try ContactRules.add("u_Bob", by: "u_Carol", qrCode: "qr_Bob", isResponder: true, isDependent: false,
                                 maxContacts: 1, in: &full)
        }
        var step = Step(now: RuleFixtures.now, accounts: full.accounts.values.map { $0 } + [RuleFixtures.account("Carol")],
                        ids: SequentialIDs())
        #expect(throws: ProtocolError.limitExceeded("that user already has 1 contacts")) {
            try ContactRules.add("u_Bob", by: "u_Carol", qrCode: "qr_Bob", isResponder: true, isDependent: false,
                                 maxContacts: 1, in: &step)
        }
        #expect(step.effects.isEmpty)
    }

    @Test func removingDropsBothSidesAndTellsBoth() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try ContactRules.remove("u_Bob", by: "u_Alice", in: &step)
        #expect(step.accounts["u_Alice"]?.contacts.isEmpty == true && step.accounts["u_Bob"]?.contacts.isEmpty == true)
        #expect(step.events(of: "u_Bob") == [EventName.contactRemoved])
        #expect(step.notifications(of: "u_Bob").first?.contactData?.role == ContactRole.none)
    }

    @Test func losingTheResponderRoleWithdrawsThePing() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
        _ = try ContactRules.setRoles(of: "u_Bob", by: "u_Alice", isResponder: false, isDependent: false, in: &step)
        #expect(step.accounts["u_Alice"]?.contacts["u_Bob"]?.outgoingPing == nil)
        #expect(step.accounts["u_Bob"]?.contacts["u_Alice"]?.incomingPing == nil)
        #expect(step.accounts["u_Bob"]?.contacts["u_Alice"]?.role == ContactRole.none)
        #expect(step.notifications(of: "u_Bob").last?.message == "Alice changed your role to no role.")
    }

    @Test func settingTheSameRolesChangesNothing() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try ContactRules.setRoles(of: "u_Bob", by: "u_Alice", isResponder: false, isDependent: true, in: &step)
        #expect(step.effects.isEmpty)
    }
}
