import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPostgres
import LifeSignalRules
import LifeSignalStoreSQLite

extension Broker {
    /// `signin` (§12): the link code's user gets this device, with a token of its own. The code is
    /// spent in the commit that grants the credential, so two sign-ins with one code cannot both
    /// succeed, on either store; an unknown, spent or expired code is `unauthenticated` and counts
    /// as a failed hello.
    func signin(_ request: Request, from connection: ClientConnection) {
        guard !refuseIfTooManyFailedHellos(request, from: connection) else { return }
        guard !shedIfOverloaded(request, from: connection) else { return }
        let signin: Signin
        do throws(ProtocolError) {
            signin = try Signin(request)
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        let (rid, ticket, now) = (request.rid, connection.reserveResponse(), WallClock.nowMs())
        let deviceToken = Credentials.newToken()
        let tokenHash = Credentials.hash(token: deviceToken)
        let answer: @Sendable (Result<User?, any Error>) -> Void = { [self] result in
            onLoop { broker in
                switch result {
                case .success(let user?):
                    connection.complete(ticket, with: Outbound.ok(
                        rid: rid, Reply.signedIn(user, deviceToken: deviceToken).fields))
                case .success(nil), .failure(is LinkCodeNotValid):
                    broker.recordFailedHello(from: connection)
                    connection.complete(ticket, with: Self.unknownLinkCode, rid: rid)
                case .failure(let error):
                    // The rules' or the session's own answer (`overloaded` while the user reloads);
                    // on a cluster, whether a commit may have happened; else nothing was changed.
                    let answer = broker.cluster != nil ? ClusterNode.protocolError(error)
                        : error as? ProtocolError ?? ProtocolError(.internal, "the device could not be signed in")
                    connection.complete(ticket, with: answer, rid: rid)
                }
            }
        }
        // The rule spends the code, grants the credential and tells the user's devices, in one
        // step of the code's user; a code found invalid first runs nothing.
        let rule: @Sendable (String, [DeviceInfo], inout Step) throws(ProtocolError) -> User = { userID, devices, step in
            try DeviceRules.signIn(signin.device, of: userID, code: signin.code, tokenHash: tokenHash, devices: devices,
                                   in: &step)
        }
        if let cluster {
            return cluster.run({ executor -> ClusterExecutor.Commit<User>? in
                guard let link = try await executor.linkCode(signin.code), link.expiresAt > now else { return nil }
                return try await executor.perform(as: link.userID, now: now, reading: { connection, logger in
                    try await ClusterRows.deviceInfos(of: link.userID, on: connection, logger: logger)
                }) { (step, devices) throws(ProtocolError) in try rule(link.userID, devices, &step) }
            }, then: { result in
                if case .success(let commit?) = result {
                    cluster.publish(commit.events, pushes: commit.pushes, notifications: commit.notifications)
                }
                answer(result.map { $0?.result })
            })
        }
        submit(StoreWrite(changes: [], query: .linkCode(signin.code))) { [self] result in
            guard case .success(let written) = result, case .linkCode(let link)? = written.queryResult else {
                return answer(.failure(result.failure ?? LinkCodeNotValid(code: signin.code)))
            }
            guard let link, link.expiresAt > now else { return answer(.success(nil)) }
            withSessions([link.userID]) { loaded in
                guard case .success(let sessions) = loaded, let session = sessions[link.userID] else {
                    return answer(.failure(loaded.failure ?? LinkCodeNotValid(code: signin.code)))
                }
                session.onLoop { session in
                    session.signIn(code: signin.code, { (devices, step) throws(ProtocolError) in
                        try rule(link.userID, devices, &step)
                    }) {
                        answer($0.map { .some($0) })
                    }
                }
            }
        }
    }

    private static let unknownLinkCode = ProtocolError(.unauthenticated, "unknown, spent or expired link code")
}

private extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
