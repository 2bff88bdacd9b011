import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalTesting
import Testing

/// The engine maps each op to one rule, over the accounts it involves, with the broker's limits
/// (§5, §10): both stores carry out this one plan, so these are the mappings they share.
@Suite struct RequestPlanTests {
    static let limits = RuleLimits(maxContacts: 500, minCheckInIntervalSec: 60)

    /// Alice watches over Bob; the plan of `command` sent by `sender`.
    static func plan(_ op: String, _ fields: JSONObject = [:], by sender: String = "u_Bob",
                     limits: RuleLimits = limits) throws -> RequestPlan {
        RequestPlan(try DeviceCommand(Request(op: op, rid: 1, fields: fields)), by: sender, limits: limits)
    }

    /// Runs a step plan over Alice and Bob; its scope and the step after the rules ran.
    static func runStep(_ plan: RequestPlan) throws -> (Involved, Step) {
        guard case .step(let involved, let rules) = plan else { throw PlanMismatch(plan: "\(plan)") }
        var step = RuleFixtures.aliceWatchesBob(bobCheckedInAt: 0)
        _ = try step.run(rules)
        return (involved, step)
    }

    struct PlanMismatch: Error { let plan: String }

    @Test func aCheckInInvolvesTheResponders() throws {
        let (involved, step) = try Self.runStep(try Self.plan(Op.checkIn))
        #expect(involved == .responders)
        #expect(step.accounts["u_Bob"]?.user.lastCheckInAt == RuleFixtures.now)
    }

    @Test func anAlertAndItsCancelInvolveTheResponders() throws {
        let (triggerScope, triggered) = try Self.runStep(try Self.plan(Op.alertTrigger, ["message": "help"]))
        #expect(triggerScope == .responders)
        #expect(triggered.accounts["u_Bob"]?.user.alert?.message == "help")
        #expect(triggered.notifications(of: "u_Alice").map(\.type) == [.alert])

        guard case .step(let cancelScope, let cancel) = try Self.plan(Op.alertCancel) else {
            Issue.record("alert.cancel is not a step")
            return
        }
        var step = triggered
        _ = try step.run(cancel)
        #expect(cancelScope == .responders)
        #expect(step.accounts["u_Bob"]?.user.alert == nil)
    }

    @Test func aProfileChangeInvolvesEveryContactAndTakesTheMinimumInterval() throws {
        let (involved, step) = try Self.runStep(try Self.plan(Op.profileUpdate, ["name": "Robert"]))
        #expect(involved == .allContacts)
        #expect(step.accounts["u_Bob"]?.user.name == "Robert")

        let strict = RuleLimits(maxContacts: 500, minCheckInIntervalSec: 3_600)
        let tooShort = try Self.plan(Op.profileUpdate, ["checkInIntervalSec": 600], limits: strict)
        #expect(throws: ProtocolError.self) { try Self.runStep(tooShort) }
        #expect(throws: Never.self) { try Self.runStep(try Self.plan(Op.profileUpdate, ["checkInIntervalSec": 600])) }
    }

    /// Erasing runs on its own, over every contact, and its outcome is never kept under an opId.
    @Test func anAccountDeletionErasesTheSenderAndIsNotKept() throws {
        let request = Request(op: Op.accountDelete, rid: 1, fields: ["confirm": "Bob", "opId": "d-1"])
        let command = try DeviceCommand(request)
        #expect(!command.keepsOutcome && OperationID.kept(by: request) == nil)
        #expect(OperationID.kept(by: Request(op: Op.checkIn, rid: 2, fields: ["opId": "c-1"])) == "c-1")
        guard case .eraseAccount(let rules) = RequestPlan(command, by: "u_Bob", limits: Self.limits) else {
            Issue.record("account.delete is not an erasure")
            return
        }
        var step = RuleFixtures.aliceWatchesBob()
        _ = try step.run(rules)
        #expect(step.accounts["u_Alice"]?.contacts.isEmpty == true)
        #expect(step.notifications(of: "u_Alice").map(\.message) == ["Bob deleted their account."])
    }

    @Test func aQRRotationInvolvesNobody() throws {
        let (involved, step) = try Self.runStep(try Self.plan(Op.qrRotate))
        #expect(involved == .nobody)
        #expect(step.accounts["u_Bob"]?.user.qrCode != "qr_Bob")
    }

    @Test func pingsInvolveTheNamedContact() throws {
        let (sendScope, sent) = try Self.runStep(try Self.plan(Op.pingSend, ["contactId": "u_Bob"], by: "u_Alice"))
        #expect(sendScope == .named(["u_Bob"]))
        #expect(sent.notifications(of: "u_Bob").map(\.type) == [.ping])

        guard case .step(let respondScope, let respond) = try Self.plan(Op.pingRespond, ["contactId": "u_Alice"]),
              case .step(_, let clear) = try Self.plan(Op.pingClear, ["contactId": "u_Bob"], by: "u_Alice")
        else {
            Issue.record("ping.respond or ping.clear is not a step")
            return
        }
        var responded = sent
        _ = try responded.run(respond)
        #expect(respondScope == .named(["u_Alice"]))
        #expect(responded.notifications(of: "u_Alice").map(\.type) == [.pingResponse])
        var cleared = sent
        _ = try cleared.run(clear)
        #expect(cleared.accounts["u_Alice"]?.contacts["u_Bob"]?.outgoingPing == nil)
    }

    @Test func removingAndChangingRolesInvolveTheNamedContact() throws {
        let (roleScope, roles) = try Self.runStep(
            try Self.plan(Op.contactsSetRoles, ["contactId": "u_Alice", "isResponder": true, "isDependent": true]))
        #expect(roleScope == .named(["u_Alice"]))
        #expect(roles.accounts["u_Bob"]?.contacts["u_Alice"]?.isDependent == true)

        let (removeScope, removed) = try Self.runStep(try Self.plan(Op.contactsRemove, ["contactId": "u_Alice"]))
        #expect(removeScope == .named(["u_Alice"]))
        #expect(removed.accounts["u_Bob"]?.contacts.isEmpty == true)
        #expect(removed.accounts["u_Alice"]?.contacts.isEmpty == true)
    }

    @Test func addingAContactLooksTheCodeUpAndTakesTheContactLimit() throws {
        let fields: JSONObject = ["qrCode": "qr_Carol", "isResponder": true, "isDependent": false]
        guard case .byQRCode(let qrCode, .add(let rules)) = try Self.plan(Op.contactsAdd, fields) else {
            Issue.record("contacts.add does not look its code up")
            return
        }
        #expect(qrCode == "qr_Carol")
        var step = Step(now: RuleFixtures.now, accounts: [RuleFixtures.account("Bob"), RuleFixtures.account("Carol")],
                        ids: SequentialIDs())
        _ = try step.run(rules("u_Carol"))
        #expect(step.accounts["u_Bob"]?.contacts["u_Carol"]?.isResponder == true)

        guard case .byQRCode(_, .add(let limited)) = try Self.plan(
            Op.contactsAdd, fields, limits: RuleLimits(maxContacts: 1, minCheckInIntervalSec: 60)) else { return }
        var full = RuleFixtures.aliceWatchesBob()
        full = Step(now: RuleFixtures.now, accounts: Array(full.accounts.values) + [RuleFixtures.account("Carol")],
                    ids: SequentialIDs())
        #expect(throws: ProtocolError.self) { try full.run(limited("u_Carol")) }
    }

    @Test func aLookupShowsTheOwnerOfTheCodeButNotOnesOwn() throws {
        guard case .byQRCode(let qrCode, .show(let show)) = try Self.plan(Op.qrLookup, ["qrCode": "qr_Carol"]) else {
            Issue.record("qr.lookup does not look its code up")
            return
        }
        #expect(qrCode == "qr_Carol")
        #expect(try show(QRCodeOwner(id: "u_Carol", name: "Carol")) == .qrCodeOwner(QRCodeOwner(id: "u_Carol", name: "Carol")))
        #expect(throws: QRCodeRules.own) { try show(QRCodeOwner(id: "u_Bob", name: "Bob")) }
    }

    @Test func whatFollowsALookupIsTheSameForEveryStore() throws {
        let carol = QRCodeOwner(id: "u_Carol", name: "Carol")
        let fields: JSONObject = ["qrCode": "qr_Carol", "isResponder": true, "isDependent": false]
        guard case .byQRCode(_, let add) = try Self.plan(Op.contactsAdd, fields),
              case .byQRCode(_, let show) = try Self.plan(Op.qrLookup, ["qrCode": "qr_Carol"]) else {
            Issue.record("a QR op does not look its code up")
            return
        }
        // Nobody has the code: refused and counted, for an add and a lookup alike.
        guard case .unknown = add.next(after: nil), case .unknown = show.next(after: nil) else {
            Issue.record("an unknown code is not reported as unknown")
            return
        }
        // An add is a step with the owner involved.
        guard case .step(involving: "u_Carol", let rules) = add.next(after: carol) else {
            Issue.record("an add does not run its rules with the owner")
            return
        }
        var step = Step(now: RuleFixtures.now, accounts: [RuleFixtures.account("Bob"), RuleFixtures.account("Carol")],
                        ids: SequentialIDs())
        _ = try step.run(rules)
        #expect(step.accounts["u_Carol"]?.contacts["u_Bob"] != nil)
        // A lookup is answered, or refused for one's own code.
        guard case .answer(.success(.qrCodeOwner(carol))) = show.next(after: carol),
              case .answer(.failure(QRCodeRules.own)) = show.next(after: QRCodeOwner(id: "u_Bob", name: "Bob")) else {
            Issue.record("a lookup is not answered from its owner")
            return
        }
    }

    @Test func aPushTokenChangeIsStoredAsTheTokensMoveOrRemoval() {
        let key = DeviceKey(userID: "u_Bob", deviceID: "phone")
        guard case .movePushToken("new", key, "ios") = StoreChange(.movePushToken(token: "new", userID: "u_Bob",
                                                                                 deviceID: "phone", platform: "ios")),
              case .clearPushToken(key, ifToken: nil) = StoreChange(.clearPushToken(userID: "u_Bob", deviceID: "phone"))
        else {
            Issue.record("a push token change is stored as something else")
            return
        }
    }

    @Test func notificationChangesRunTheirRulesOnWhatTheStoreHas() throws {
        let unread = Notification(id: "n_1", type: .ping, title: "t", message: "m", timestamp: 1)
        guard case .changeNotification("n_1", let read) = try Self.plan(Op.notificationsRead, ["id": "n_1"]),
              case .changeNotification("n_1", let delete) = try Self.plan(Op.notificationsDelete, ["id": "n_1"]),
              case .readAllNotifications(let readAll) = try Self.plan(Op.notificationsReadAll)
        else {
            Issue.record("a notification op is planned as something else")
            return
        }
        var step = Step(now: RuleFixtures.now, accounts: [], ids: SequentialIDs())
        _ = try step.run { (step) throws(ProtocolError) in try read(unread, &step) }
        #expect(step.events(of: "u_Bob") == [EventName.notificationUpdated])
        #expect(throws: ProtocolError.notFound("no such notification")) {
            var missing = Step(now: RuleFixtures.now, accounts: [], ids: SequentialIDs())
            _ = try missing.run { (step) throws(ProtocolError) in try delete(nil, &step) }
        }
        var all = Step(now: RuleFixtures.now, accounts: [], ids: SequentialIDs())
        #expect(readAll(3, &all) == .readAll(count: 3))
        #expect(all.events(of: "u_Bob") == [EventName.notificationsReadAll])
    }

    @Test func devicesAndReadsArePlannedAsThemselves() throws {
        guard case .changePushToken(.register(token: "tok", platform: "ios")) = try Self.plan(
                Op.deviceRegister, ["token": "tok", "platform": "ios"]),
              case .changePushToken(.unregister) = try Self.plan(Op.deviceUnregister),
              case .read(.devices) = try Self.plan(Op.devicesList),
              case .read(.contacts) = try Self.plan(Op.contactsList),
              case .read(.notifications(before: "n_9", limit: 5)) = try Self.plan(
                Op.notificationsList, ["before": "n_9", "limit": 5])
        else {
            Issue.record("a device op or a read is planned as something else")
            return
        }
    }
}

/// Which involved users an executor that loads accounts (the embedded one) takes.
@Suite struct InvolvedContactsTests {
    static let bob = RuleFixtures.aliceWatchesBob().accounts["u_Bob"]!

    @Test func aNamedUserWhoIsNoContactIsLeftOut() {
        #expect(Involved.named(["u_Alice"]).contactIDs(in: Self.bob.contacts) == ["u_Alice"])
        #expect(Involved.named(["u_Mallory"]).contactIDs(in: Self.bob.contacts) == [])
        #expect(Involved.named(["u_Alice", "u_Mallory"]).contactIDs(in: Self.bob.contacts) == ["u_Alice"])
    }

    @Test func respondersAndAllContactsComeFromTheAccount() {
        #expect(Involved.responders.contactIDs(in: Self.bob.contacts) == ["u_Alice"])
        #expect(Involved.allContacts.contactIDs(in: Self.bob.contacts) == ["u_Alice"])
        #expect(Involved.nobody.contactIDs(in: Self.bob.contacts) == [])
        let alice = RuleFixtures.aliceWatchesBob().accounts["u_Alice"]!
        #expect(Involved.responders.contactIDs(in: alice.contacts) == [])
        #expect(Involved.allContacts.contactIDs(in: alice.contacts) == ["u_Bob"])
    }
}
