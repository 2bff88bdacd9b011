import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite

/// PROTOCOL §12 on the embedded store: a changing request with an `opId` is kept with its effects,
/// and the same `opId` sent again (after a lost answer, from any device) is answered from what
/// was kept. Memory holds which `opId`s are kept (`keptOperations`); the answers stay in the store.
extension UserSession {
    /// Whether `request` was answered from what is kept under its `opId` (or refused for reusing
    /// one); false when it is to run.
    func answeredFromKept(_ opID: String, _ request: Request, from connection: ClientConnection) -> Bool {
        switch OperationDecision.of(op: request.op, opID: opID, kept: keptOperations[opID]) {
        case .run:
            return false
        case .refuse(let error):
            connection.respond(error: error, rid: request.rid)
            return true
        case .answerKept:
            // Read after every write before it: the kept one's own commit included.
            afterQuery(.keptOutcome(userID: userID, opID: opID), for: request, from: connection) { _, answer in
                switch answer {
                case .keptOutcome(let outcome?):
                    switch outcome.answer {
                    case .ok(let fields): connection.respond(rid: request.rid, fields)
                    case .refused(let error): connection.respond(error: error, rid: request.rid)
                    }
                default:
                    // Kept in memory, not in the store: its commit failed, and the user reloads.
                    connection.respond(error: ProtocolError(.internal, "the outcome could not be read"), rid: request.rid)
                }
            }
            return true
        }
    }

    /// Adds keeping `answer` under the request's `opId` (if it has one) to `mutation`, whose
    /// commit then holds the request's effects and its kept outcome together.
    func keep(_ answer: KeptOutcome.Answer, of request: Request, in mutation: inout Mutation) {
        guard let opID = OperationID.kept(by: request) else { return }
        let outcome = KeptOutcome(opID: opID, op: request.op, answer: answer, keptAt: mutation.now)
        keptOperations.keep(outcome.operation)
        mutation.changes.append(.keepOutcome(userID: userID, outcome))
        if let prune = keptOperations.prune(of: userID, now: mutation.now) { mutation.changes.append(prune) }
        join(&mutation)
    }
}
