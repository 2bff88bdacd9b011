import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules

/// One authenticated device on a broker of a cluster: where its requests go (§5). Each request
/// runs against PostgreSQL while the connection's later requests wait, so they run in the order
/// they came, as on the embedded broker (§2). Loop thread only.
final class ClusterDevice: DeviceRouter, @unchecked Sendable {
    unowned let node: ClusterNode
    let userID: String
    let deviceID: String

    init(node: ClusterNode, userID: String, deviceID: String) {
        self.node = node
        self.userID = userID
        self.deviceID = deviceID
    }

    func connectionEnded(_ connection: ClientConnection, deviceID: String) {
        node.detach(connection, userID: userID, deviceID: deviceID)
    }

    /// What a request's work on the executor comes to, on the loop.
    enum Answer {
        case ok(Reply)
        case refused(ProtocolError)
        /// A committed step (its events published): answered once its own user's events up to
        /// `lastSeq` have reached this broker's devices (§6).
        case committed(Reply, lastSeq: Int64?)
        /// What was kept under the request's `opId` (§12).
        case kept(KeptOutcome.Answer)
    }

    /// Runs `work` off the loop and answers with what `finish` makes of its result; the
    /// connection's later requests wait until then.
    func answer<T: Sendable>(_ request: Request, on connection: ClientConnection,
                             _ work: @escaping @Sendable (ClusterExecutor) async throws -> T,
                             finish: @escaping @Sendable (T) -> Answer) {
        guard let answer = beginAnswer(request, on: connection) else { return }
        node.run(work, then: { result in
            switch result {
            case .success(let value): answer(finish(value))
            case .failure(let found as ClusterExecutor.KeptAnswerFound): answer(.kept(found.answer))
            case .failure(let error): answer(.refused(ClusterNode.protocolError(error)))
            }
        })
    }

    /// A single step, committed on its own (steps that read rows outside the accounts).
    func committed(_ commit: ClusterExecutor.Commit<Reply>) -> Answer {
        node.publish(commit.events, pushes: commit.pushes, notifications: commit.notifications)
        return .committed(commit.result, lastSeq: commit.events.last { $0.userID == userID }?.seq)
    }

    /// Runs `rules` as one step of this user, with the users `involving` names locked too, in the
    /// next batch of steps (ClusterNode+Batches); on its own if the batch could not lock whom it
    /// came to involve.
    func step(_ request: Request, on connection: ClientConnection, involving: Involved = .nobody,
              keeping keep: ClusterExecutor.OperationKeep?, _ rules: @escaping RequestPlan.Rules) {
        guard let answer = beginAnswer(request, on: connection) else { return }
        let userID = self.userID
        let step = ClusterExecutor.BatchedStep(userID: userID, involving: involving, keep: keep, rules: rules)
        node.submit(step) { [self] result in
            switch result {
            case .success(.committed(let reply, let lastSeq)):
                answer(.committed(reply, lastSeq: lastSeq))
            case .success(.refused(let error)):
                answer(.refused(error))
            case .success(.kept(let kept)):
                answer(.kept(kept))
            case .success(.runAlone):
                node.run({ executor in
                    try await executor.perform(as: userID, involving: involving, now: WallClock.nowMs(), keeping: keep,
                                               step.rules)
                }, then: { [self] result in
                    switch result {
                    case .success(let commit): answer(committed(commit))
                    case .failure(let found as ClusterExecutor.KeptAnswerFound): answer(.kept(found.answer))
                    case .failure(let error): answer(.refused(ClusterNode.protocolError(error)))
                    }
                })
            case .failure(let error):
                answer(.refused(ClusterNode.protocolError(error)))
            }
        }
    }

    /// Holds the connection's later requests and reserves this one's place among the answers;
    /// returns what sends the answer (once) and lets the held requests go. Nil when the broker is
    /// overloaded and the request was answered so already.
    private func beginAnswer(_ request: Request, on connection: ClientConnection) -> (@Sendable (Answer) -> Void)? {
        if let broker = node.broker, broker.onLoop({ $0.shedIfOverloaded(request, from: connection) }) {
            return nil
        }
        connection.holdRequests()
        let ticket = connection.reserveResponse()
        let (rid, userID, node) = (request.rid, self.userID, self.node)
        return { answer in
            switch answer {
            case .ok(let reply):
                connection.complete(ticket, with: Outbound.ok(rid: rid, reply.fields))
            case .refused(let error):
                connection.complete(ticket, with: error, rid: rid)
            case .committed(let reply, let lastSeq):
                let send = { connection.complete(ticket, with: Outbound.ok(rid: rid, reply.fields)) }
                if let lastSeq, let feed = node.feeds[userID] { feed.afterDelivering(lastSeq, send) } else { send() }
            case .kept(.ok(let fields)):
                connection.complete(ticket, with: Outbound.ok(rid: rid, fields))
            case .kept(.refused(let error)):
                connection.complete(ticket, with: error, rid: rid)
            }
            connection.releaseRequests()
        }
    }

    /// Answers a request refused before it ran.
    func refuse(_ request: Request, on connection: ClientConnection, _ error: ProtocolError) {
        connection.respond(error: error, rid: request.rid)
    }
}
