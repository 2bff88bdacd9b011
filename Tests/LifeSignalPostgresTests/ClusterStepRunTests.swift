import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalTesting
import Testing

/// How a single step and a batch run their requests over the accounts read under lock
/// (`ClusterExecutor.run`): no database, only the accounts.
@Suite struct ClusterStepRunTests {
    typealias Rules = (inout Step) throws(ProtocolError) -> Reply

    private func run(_ requests: [(String, Involved, Rules)], locked: Set<String>)
        -> ClusterExecutor.LockedSteps<Reply>
    {
        var (alice, bob) = (RuleFixtures.account("Alice"), RuleFixtures.account("Bob"))
        RuleFixtures.link(responder: &alice, dependent: &bob)
        let accounts = [alice, bob].filter { locked.contains($0.id) }
        return ClusterExecutor.run(requests.map { ($0.0, $0.1, $0.2) }, locked: locked, accounts: accounts,
                                   now: RuleFixtures.now)
    }

    private func outcome(_ run: ClusterExecutor.StepRun<Reply>) -> String {
        switch run {
        case .ran(_, let index): "ran \(index)"
        case .refused(let error): "refused \(error.code.rawValue)"
        case .involvedChanged: "involved changed"
        }
    }

    @Test func eachStepSeesWhatTheStepsBeforeItLeftAndARefusedOneLeavesNoTrace() {
        let steps = run([
            ("u_Alice", .named(["u_Bob"]), { (step: inout Step) throws(ProtocolError) in
                try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step) }),
            ("u_Bob", .named(["u_Alice"]), { (step: inout Step) throws(ProtocolError) in
                try PingRules.send(to: "u_Alice", by: "u_Bob", in: &step) }),
            ("u_Bob", .named(["u_Alice"]), { (step: inout Step) throws(ProtocolError) in
                try PingRules.respond(to: "u_Alice", by: "u_Bob", in: &step) }),
        ], locked: ["u_Alice", "u_Bob"])
        #expect(steps.runs.map(outcome) == ["ran 0", "refused forbidden", "ran 1"])
        #expect(steps.ran.count == 2)
        // The answer saw the ping of the first step: the pending ping is gone from both sides.
        #expect(steps.ran[1].accounts["u_Bob"]?.contacts["u_Alice"]?.incomingPing == nil)
        #expect(steps.ran[1].accounts["u_Alice"]?.contacts["u_Bob"]?.outgoingPing == nil)
        #expect(steps.ran[1].notifications(of: "u_Alice").map(\.type) == [.pingResponse])
    }

    @Test func aStepInvolvingSomeoneTheLockDidNotTakeIsToRunAgain() {
        let steps = run([
            ("u_Alice", .responders, { (step: inout Step) throws(ProtocolError) in .empty }),
            ("u_Bob", .responders, { (step: inout Step) throws(ProtocolError) in .empty }),
        ], locked: ["u_Alice", "u_Bob"])
        #expect(steps.runs.map(outcome) == ["ran 0", "ran 1"])
        // Bob's responder, Alice, was not locked: a contact added since the unlocked read.
        let stale = run([("u_Bob", .responders, { (step: inout Step) throws(ProtocolError) in .empty })],
                        locked: ["u_Bob"])
        #expect(stale.runs.map(outcome) == ["involved changed"])
        #expect(stale.ran.isEmpty)
    }

    /// A device's user has a row until `account.delete` erases it: a request sent meanwhile.
    @Test func aUserWhoNoLongerExistsIsTheirAccountDeleted() {
        let steps = run([("u_Nobody", .nobody, { (step: inout Step) throws(ProtocolError) in .empty })],
                        locked: ["u_Nobody"])
        #expect(steps.runs.map(outcome) == ["refused account_deleted"])
    }
}
