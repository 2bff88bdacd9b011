import LifeSignalProtocol
import LifeSignalStoreSQLite

extension UserSession {
    /// Rules run in this session, given the loaded sessions of the other users they need.
    typealias Rules = @Sendable (isolated UserSession, [String: UserSession], inout Mutation) throws(ProtocolError)
        -> Reply

    /// Runs `rules` for `request` once the sessions of `userIDs` are loaded. The rules run
    /// synchronously on the loop with every user they touch in memory, so a change to two users
    /// is one step; the connection's later requests wait until it has run.
    func perform(_ request: Request, from connection: ClientConnection, loading userIDs: Set<String>,
                 _ rules: @escaping Rules) {
        let (broker, userID) = (self.broker, self.userID)
        // The backlog's check, and the sessions loaded already, in one call to the registry.
        let admitted: (loaded: [String: UserSession], complete: Bool)? = broker.onLoop { broker in
            guard !broker.shedIfOverloaded(request, from: connection) else { return nil }
            var loaded: [String: UserSession] = [:]
            for id in userIDs where id != userID { if let session = broker.loadedSession(id) { loaded[id] = session } }
            return (loaded, loaded.count == userIDs.subtracting([userID]).count)
        }
        guard let admitted else { return }
        guard !admitted.complete else {
            performAdmitted(request, from: connection) { (mutation) throws(ProtocolError) in
                try rules(self, admitted.loaded, &mutation)
            }
            return
        }
        connection.holdRequests()
        pin()
        broker.onLoop { broker in
            broker.withSessions(userIDs) { loaded in
                self.onLoop { session in
                    if case .success(let sessions) = loaded {
                        session.perform(request, from: connection) { (mutation) throws(ProtocolError) in
                            try rules(session, sessions, &mutation)
                        }
                    } else {
                        // Rules run on a missing user would answer as if it did not exist.
                        connection.respond(error: ProtocolError(.internal, "a user could not be loaded; nothing was changed"),
                                           rid: request.rid)
                    }
                    session.unpin()
                }
                connection.releaseRequests()
            }
        }
    }

    /// Asks the store `query` (after every write before it), then continues with the answer
    /// on the loop; the connection's later requests wait until then. A store that cannot answer
    /// is `internal`, never taken for "not found".
    func afterQuery(_ query: StoreQuery, for request: Request, from connection: ClientConnection,
                    _ next: @escaping @Sendable (isolated UserSession, StoreQueryResult?) -> Void) {
        guard !shedIfOverloaded(request, from: connection) else { return }
        connection.holdRequests()
        pin()
        submit(StoreWrite(changes: [], query: query)) { [self] result in
            onLoop { session in
                switch result {
                case .success(let written):
                    next(session, written.queryResult)
                case .failure:
                    connection.respond(error: ProtocolError(.internal, "the store could not be read"), rid: request.rid)
                }
                session.unpin()
            }
            connection.releaseRequests()
        }
    }

    /// Store submissions go through the broker, which counts the backlog.
    func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        broker.onLoop { $0.submit(write, completion: completion) }
    }

    /// Answers `overloaded` instead of running a request that needs the store while its backlog is full.
    func shedIfOverloaded(_ request: Request, from connection: ClientConnection) -> Bool {
        broker.onLoop { $0.shedIfOverloaded(request, from: connection) }
    }

    /// The loaded session of another user (the rules run only once it is loaded).
    func session(of userID: String) -> UserSession? {
        broker.onLoop { $0.loadedSession(userID) }
    }
}
