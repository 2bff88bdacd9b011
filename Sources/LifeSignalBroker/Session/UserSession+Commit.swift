import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite

extension UserSession {
    /// Runs one request's rules and commits what they changed. `rules` must check everything
    /// that can fail before it changes any state: a request that fails changes nothing (§2).
    func perform(
        _ request: Request, from connection: ClientConnection,
        _ rules: (inout Mutation) throws(ProtocolError) -> Reply
    ) {
        // Checked before the rules run: a shed request must change nothing, in memory either.
        guard !shedIfOverloaded(request, from: connection) else { return }
        performAdmitted(request, from: connection, rules)
    }

    /// `perform` for a request already checked against the store's backlog.
    func performAdmitted(
        _ request: Request, from connection: ClientConnection,
        _ rules: (inout Mutation) throws(ProtocolError) -> Reply
    ) {
        var mutation = Mutation(now: WallClock.nowMs())
        let reply: Reply
        do {
            reply = try rules(&mutation)
        } catch {
            return refuse(request, from: connection, error, at: mutation.now)
        }
        keep(.ok(reply.fields), of: request, in: &mutation)
        // An erased account's devices are closed once the answer is on its way.
        var erasure: (@Sendable (Result<Void, any Error>) -> Void)?
        if isErased {
            let session = self
            erasure = { @Sendable result in session.onLoop { $0.finishErasure(result) } }
        }
        commit(mutation, thenReply: Outbound.ok(rid: request.rid, reply.fields), rid: request.rid, to: connection,
               committed: erasure)
    }

    /// The rules refused the request: it changed nothing, and its error is kept under its `opId`
    /// (§12) before it is answered. Should that keeping fail, the error is still the answer.
    private func refuse(_ request: Request, from connection: ClientConnection, _ error: ProtocolError, at now: Int64) {
        guard OperationID.kept(by: request) != nil else { return connection.respond(error: error, rid: request.rid) }
        var kept = Mutation(now: now)
        keep(.refused(error), of: request, in: &kept)
        let ticket = connection.reserveResponse()
        commit(kept, committed: { _ in connection.complete(ticket, with: error, rid: request.rid) })
    }

    /// Submits `mutation` to the store; once it has committed, delivers its events and then
    /// releases `reply` in its place among the connection's responses (§6: events first).
    /// `isBookkeeping`: the mutation only records when a device was seen (and a device new to the
    /// store): if it fails, as on a full disk, memory is ahead of the store in nothing that
    /// matters, so the user is not made stale and their devices stay connected to read.
    /// `committed`, when given, is told the outcome once the store has answered (an operator's
    /// request, answered only once it holds).
    func commit(
        _ mutation: Mutation, thenReply reply: [UInt8]? = nil, rid: Int64? = nil, to connection: ClientConnection? = nil,
        isBookkeeping: Bool = false, committed: (@Sendable (Result<Void, any Error>) -> Void)? = nil
    ) {
        let ticket = reply == nil ? nil : connection?.reserveResponse()
        // Each touched session counted this commit when it joined it, and waits for it to end.
        guard !mutation.changes.isEmpty || !mutation.touched.isEmpty else {
            if let ticket, let reply { connection?.complete(ticket, with: reply) }
            committed?(.success(()))
            return
        }
        let settlements = Self.settlements(of: mutation)
        let pushes = mutation.pushes
        let broker = self.broker
        let changes = mutation.changes
        broker.onLoop { $0.submit(StoreWrite(changes: changes), then: { broker, result in
            // Runs on the loop, in commit order. Each touched session is entered once: to be sent
            // its events (before the reply: §6, events first) or made stale, and to settle.
            switch result {
            case .success:
                broker.counters.written(changes)
                for (session, events) in settlements {
                    session.onLoop { session in
                        for event in events { session.deliver(seq: event.seq, frame: event.frame) }
                        session.commitFinished()
                    }
                }
                if let ticket, let reply { connection?.complete(ticket, with: reply) }
                broker.pushOutbox.deliver(pushes)
                committed?(.success(()))
            case .failure(let error):
                broker.logStoreFailure("store write failed", ["lifesignal.error": "\(error)"])
                if let ticket {
                    connection?.complete(ticket, with: ProtocolError(.internal, "the change could not be stored"), rid: rid)
                }
                for (session, _) in settlements {
                    session.onLoop { session in
                        if !isBookkeeping { session.markStale() }
                        session.commitFinished()
                    }
                }
                committed?(.failure(error))
            }
        }) }
    }

    /// Every session the mutation touched, with the events it is to be sent, in their order. A
    /// request touches a few sessions (an alert: each responder), so they are found by a scan.
    private static func settlements(of mutation: Mutation) -> [(UserSession, [Mutation.Delivery])] {
        var settlements = mutation.touched.map { ($0, [Mutation.Delivery]()) }
        guard !settlements.isEmpty else { return [] }  // every event's session is touched
        var last = 0  // a session's deliveries come together: look where the previous one went first
        for delivery in mutation.deliveries {
            if settlements[last].0 !== delivery.session {
                guard let index = settlements.firstIndex(where: { $0.0 === delivery.session }) else { continue }
                last = index
            }
            settlements[last].1.append(delivery)
        }
        return settlements
    }

    func commitFinished() {
        pendingCommits -= 1
        unloadIfIdle()
    }

    /// Memory got ahead of the store: drop every device (they resume against the stored
    /// state) and let the broker reload the user once nothing is in flight.
    func markStale() {
        isStale = true
        let tokens = devices.values.compactMap(\.pushToken)
        broker.onLoop { $0.forgetPushTokens(tokens, of: userID) }
        for device in online { device.connection.close() }
    }
}
