import LifeSignalProtocol

extension Broker {
    /// Every store submission goes through here, so the loop knows the commit backlog (submitted,
    /// not yet completed) without asking the store: one add and one subtract on the loop.
    func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        storeBacklog += 1
        store.submit(write) { [self] result in
            // Completions run on the loop (the store's scheduler is the loop's `execute`).
            assumeIsolated { $0.storeBacklog -= 1 }
            completion(result)
        }
    }

    /// Sheds a request that needs the store while the backlog is at `maxPendingWrites`: it is
    /// answered `overloaded` in its place and not run (§9). True when it was shed.
    func shedIfOverloaded(_ request: Request, from connection: ClientConnection) -> Bool {
        guard storeBacklog >= configuration.maxPendingWrites else { return false }
        connection.respond(error: Self.overloaded, rid: request.rid)
        logThrottled(.overloaded, "shedding requests: store backlog full", [
            "lifesignal.backlog": "\(storeBacklog)", "lifesignal.conn": "\(connection.id)",
        ])
        return true
    }

    private static let overloaded = ProtocolError(.overloaded, "the broker is overloaded; try again later")
}
