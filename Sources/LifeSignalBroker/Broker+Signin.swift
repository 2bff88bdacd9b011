import LifeSignalEngine
import LifeSignalProtocol
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
        let credential: @Sendable (String) -> DeviceCredential = { userID in
            DeviceCredential(key: DeviceKey(userID: userID, deviceID: signin.device), tokenHash: tokenHash, linkedAt: now)
        }
        let answer: @Sendable (Result<User?, any Error>) -> Void = { [self] result in
            onLoop { broker in
                switch result {
                case .success(let user?):
                    // A loaded user's session checks hellos from memory: it learns the new device.
                    if let session = broker.loadedSession(user.id) {
                        session.onLoop { $0.deviceCredentials[signin.device] = credential(user.id) }
                    }
                    connection.complete(ticket, with: Outbound.ok(
                        rid: rid, Reply.signedIn(user, deviceToken: deviceToken).fields))
                case .success(nil), .failure(is LinkCodeNotValid):
                    broker.recordFailedHello(from: connection)
                    connection.complete(ticket, with: Self.unknownLinkCode, rid: rid)
                case .failure:
                    connection.complete(ticket, with: ProtocolError(.internal, "the device could not be signed in"), rid: rid)
                }
            }
        }
        let changes: @Sendable (String) -> [StoreChange] = { userID in
            [.spendLinkCode(code: signin.code, userID: userID, now: now),
             .grantDeviceCredential(credential(userID))]
        }
        if let cluster {
            return cluster.run({ executor -> User? in
                guard let link = try await executor.linkCode(signin.code), link.expiresAt > now else { return nil }
                try await executor.commit(changes(link.userID))
                return try await executor.accounts(of: [link.userID])[link.userID]?.user
            }, then: answer)
        }
        submit(StoreWrite(changes: [], query: .linkCode(signin.code))) { [self] result in
            guard case .success(let written) = result, case .linkCode(let link)? = written.queryResult else {
                return answer(.failure(result.failure ?? LinkCodeNotValid(code: signin.code)))
            }
            guard let link, link.expiresAt > now else { return answer(.success(nil)) }
            submit(StoreWrite(changes: changes(link.userID), query: .user(id: link.userID))) { result in
                answer(result.map { written in
                    if case .user(let stored)? = written.queryResult { stored?.user } else { nil }
                })
            }
        }
    }

    private static let unknownLinkCode = ProtocolError(.unauthenticated, "unknown, spent or expired link code")
}

private extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
