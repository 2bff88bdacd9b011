import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

/// Running requests' rules over accounts read under lock: what a single step (`perform`) and a
/// batch (`performBatch`) share.
extension ClusterExecutor {
    /// What became of one request's rules.
    package enum StepRun<Result> {
        /// The rules ran; `index` is the step's among those that ran (`LockedSteps.ran`).
        case ran(Result, index: Int)
        /// The rules refused it, or its user does not exist; it changed nothing.
        case refused(ProtocolError)
        /// It involves users the lock did not take (a contact added since they were read).
        case involvedChanged
    }

    /// Requests run in order, each against the accounts as the ones before it left them, as
    /// the embedded engine runs requests one after another in memory.
    package struct LockedSteps<Result> {
        package var runs: [StepRun<Result>] = []
        /// The steps that ran, in order: what `write` stores.
        package var ran: [Step] = []
    }

    /// Runs each request's `rules` over its user's account and those of the users it involves,
    /// all of them among `locked`; a refused step leaves no trace in the accounts the later
    /// ones see.
    package static func run<Result>(
        _ requests: [(userID: String, involving: Involved, rules: (inout Step) throws(ProtocolError) -> Result)],
        locked ids: Set<String>, accounts: [Account], now: Int64
    ) -> LockedSteps<Result> {
        var working = Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0) })
        var steps = LockedSteps<Result>()
        for request in requests {
            guard let actor = working[request.userID] else {
                // Users never vanish but by `account.delete`: a request its devices sent meanwhile.
                steps.runs.append(.refused(.deletedAccount))
                continue
            }
            let involved = request.involving.ids(in: actor.contacts)
            guard involved.isSubset(of: ids) else {
                steps.runs.append(.involvedChanged)
                continue
            }
            var step = Step(now: now, accounts: involved.union([request.userID]).compactMap { working[$0] },
                            ids: RandomIDs())
            do throws(ProtocolError) {
                let result = try request.rules(&step)
                for (id, account) in step.accounts { working[id] = account }
                steps.runs.append(.ran(result, index: steps.ran.count))
                steps.ran.append(step)
            } catch {
                steps.runs.append(.refused(error))
            }
        }
        return steps
    }
}
