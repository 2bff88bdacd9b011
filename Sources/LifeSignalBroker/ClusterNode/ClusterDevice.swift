import LifeSignalProtocol

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
    enum Reply {
        case fields(JSONObject)
        case refused(ProtocolError)
        /// A committed step: answered once its events have reached the device (§6).
        case committed(ClusterExecutor.Commit<JSONObject>)
    }

    /// Runs `work` off the loop and answers with what `finish` makes of its result; the
    /// connection's later requests wait until then.
    func answer<T: Sendable>(_ request: Request, on connection: ClientConnection,
                             _ work: @escaping @Sendable (ClusterExecutor) async throws -> T,
                             finish: @escaping @Sendable (T) -> Reply) {
        if let broker = node.broker, broker.assumeIsolated({ $0.shedIfOverloaded(request, from: connection) }) { return }
        connection.holdRequests()
        let ticket = connection.reserveResponse()
        let (rid, userID, node) = (request.rid, self.userID, self.node)
        node.run(work, then: { result in
            let reply: Reply
            switch result {
            case .success(let value): reply = finish(value)
            case .failure(let error): reply = .refused(ClusterNode.protocolError(error))
            }
            switch reply {
            case .fields(let fields):
                connection.complete(ticket, with: Outbound.ok(rid: rid, fields))
            case .refused(let error):
                connection.complete(ticket, with: Outbound.error(rid: rid, error), closeAfter: error.code.closesConnection)
            case .committed(let commit):
                node.publish(commit.events, pushes: commit.pushes)
                let mine = commit.events.last { $0.userID == userID }?.seq ?? 0
                let answer = { connection.complete(ticket, with: Outbound.ok(rid: rid, commit.result)) }
                if let feed = node.feeds[userID] { feed.afterDelivering(mine, answer) } else { answer() }
            }
            connection.releaseRequests()
        })
    }

    /// Runs `rules` as one step of this user with the users `involving` names locked too.
    func step(_ request: Request, on connection: ClientConnection,
              involving: Involved = .nobody,
              _ rules: @escaping @Sendable (inout Step, _ userID: String) throws(ProtocolError) -> JSONObject) {
        let userID = self.userID
        answer(request, on: connection, { executor in
            try await executor.perform(as: userID, involving: involving, now: WallClock.nowMs()) {
                (step) throws(ProtocolError) in try rules(&step, userID)
            }
        }, finish: { .committed($0) })
    }

    /// Answers a request refused before it ran.
    func refuse(_ request: Request, on connection: ClientConnection, _ error: ProtocolError) {
        connection.respond(error: error, rid: request.rid)
    }
}
