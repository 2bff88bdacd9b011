import LifeSignalProtocol
import LifeSignalStoreSQLite

extension Broker {
    /// Every store submission goes through here, so the loop knows the commit backlog (submitted,
    /// not yet completed) without asking the store: one add and one subtract on the loop. It is
    /// counted in rows, not submissions: a change that reaches 500 contacts weighs what it costs
    /// the single writer, so one user's large changes cannot hide behind a small count.
    func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        submit(write) { (_: Broker, result) in completion(result) }
    }

    /// `submit`, whose completion is given the broker on the loop, right after the backlog is settled.
    func submit(_ write: StoreWrite,
                then completion: @escaping @Sendable (Broker, Result<StoreWriteResult, Error>) -> Void) {
        guard let store else { return completion(self, .failure(Self.noEmbeddedStore)) }
        let weight = Self.backlogWeight(of: write)
        storeBacklog += weight
        store.submit(write) { [self] result in
            // Completions run on the loop (the store's scheduler is the loop's `execute`).
            onLoop { broker in
                broker.storeBacklog -= weight
                completion(broker, result)
            }
        }
    }

    /// Rows a write changes; a read counts as one.
    static func backlogWeight(of write: StoreWrite) -> Int { max(1, write.changes.count) }

    /// Sheds a request that needs the store while the backlog is at `maxPendingWrites`: it is
    /// answered `overloaded` in its place and not run (§9). True when it was shed.
    func shedIfOverloaded(_ request: Request, from connection: ClientConnection) -> Bool {
        guard storeBacklog >= configuration.maxPendingWrites else { return false }
        connection.respond(error: Self.overloaded, rid: request.rid)
        backlogOverload.countRefusal()
        logThrottled(.overloaded, "shedding requests: store backlog full", [
            "lifesignal.backlog": .stringConvertible(storeBacklog), "lifesignal.conn": .stringConvertible(connection.id),
        ])
        return true
    }

    /// The first line of an overload (OverloadEpisode): the backlog reached `maxPendingWrites`.
    func storeBacklogMoved() {
        guard storeBacklog >= configuration.maxPendingWrites, backlogOverload.begin(nowMs: loop.cachedNowMs) else { return }
        logger.warning("overload begins: store backlog at max-pending-writes; requests that need the store get overloaded", metadata: [
            "lifesignal.backlog": .stringConvertible(storeBacklog), "lifesignal.backlog.max": .stringConvertible(configuration.maxPendingWrites),
        ])
    }

    /// A broker of a cluster has no embedded store; nothing of it is reached there.
    private static let noEmbeddedStore = ProtocolError(.internal, "this broker keeps no embedded store")

    private static let overloaded = ProtocolError(.overloaded, "the broker is overloaded; try again later")
}
