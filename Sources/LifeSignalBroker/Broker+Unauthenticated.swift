import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite

extension Broker {
    /// Before `hello` succeeds only `register` and `hello` are allowed (§3).
    func handleUnauthenticated(_ request: Request, from connection: ClientConnection) {
        switch request.op {
        case Op.register:
            register(request, from: connection)
        case Op.hello:
            hello(request, from: connection)
        case Op.signin:
            signin(request, from: connection)
        default:
            connection.respond(error: ProtocolError(.unauthenticated, "say hello first"), rid: request.rid)
        }
    }

    /// `register`: a new user and credential; the token is shown once and stored only hashed.
    func register(_ request: Request, from connection: ClientConnection) {
        // Before anything else: a register over its address's rate creates nothing (§9).
        if let address = connection.tcp.remoteIP, !registerLimiter.take(address, nowMs: loop.cachedNowMs) {
            logThrottled(.registerLimited, "register rate limited", ["lifesignal.peer": "\(connection.tcp.remoteAddress)"])
            connection.respond(error: Self.registerRateLimited, rid: request.rid)
            return
        }
        guard !shedIfOverloaded(request, from: connection) else { return }
        let user: User
        let account: Register
        do {
            account = try Register(request)
            user = User(
                id: Credentials.newUserID(), name: account.name, phone: account.phone, qrCode: Credentials.newQRCode(),
                checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil, isNonResponsive: false,
                alert: nil, preferences: Preferences(push: true, mutedTypes: []), createdAt: WallClock.nowMs())
        } catch {
            connection.respond(error: error, rid: request.rid)
            return
        }
        let token = Credentials.newToken()
        // The registering device's own token (§12), granted in the account's commit.
        let deviceToken = account.device.map { _ in Credentials.newToken() }
        var changes: [StoreChange] = [.createUser(user, tokenHash: Credentials.hash(token: token))]
        if let device = account.device, let deviceToken {
            changes.append(.grantDeviceCredential(DeviceCredential(
                key: DeviceKey(userID: user.id, deviceID: device), tokenHash: Credentials.hash(token: deviceToken),
                linkedAt: user.createdAt)))
        }
        let ticket = connection.reserveResponse()
        let rid = request.rid
        let logger = self.logger
        let answer: @Sendable (Bool) -> Void = { stored in
            // The id only: the token and QR code are the new user's secrets.
            if stored {
                logger.debug("user registered", metadata: ["lifesignal.user": "\(user.id)"])
                connection.complete(ticket, with: Outbound.ok(
                    rid: rid, Reply.registered(user, token: token, deviceToken: deviceToken).fields))
            } else {
                connection.complete(ticket, with: ProtocolError(.internal, "the user could not be stored"), rid: rid)
            }
        }
        if let cluster { return cluster.register(changes, completion: answer) }
        submit(StoreWrite(changes: changes)) { result in
            if case .success = result { answer(true) } else { answer(false) }
        }
    }

    /// `hello`: checks the fields, then the credentials against the (possibly loading) user.
    func hello(_ request: Request, from connection: ClientConnection) {
        guard !refuseIfTooManyFailedHellos(request, from: connection) else { return }
        // A hello loads the user and records the device: it needs the store.
        guard !shedIfOverloaded(request, from: connection) else { return }
        let hello: HelloRequest
        do throws(ProtocolError) {
            hello = HelloRequest(rid: request.rid, fields: try Hello(request))
        } catch {
            connection.respond(error: error, rid: request.rid)
            return
        }
        if let cluster { return cluster.hello(hello, from: connection) }
        connection.beginAuthentication()
        withSession(hello.userID) { lookup in
            guard !connection.isClosing else { return }
            guard case .success(let session) = lookup else {
                // Not `unauthenticated`: the credentials may be right. The connection stays open
                // and may say hello again.
                connection.respond(error: Self.userUnavailable, rid: hello.rid)
                connection.abandonAuthentication()
                return
            }
            // One answer for an unknown user and a wrong token: it must not reveal which (§3).
            // An unknown user's token is checked too, against a hash no token has, so that both
            // answers cost the same hashing.
            let (accountHash, deviceHash) = session?.onLoop { session in
                (session.tokenHash, session.deviceCredentials[hello.deviceID].flatMap { TokenHash($0.tokenHash) })
            } ?? (Self.noUsersTokenHash, nil)
            guard HelloCredential.admits(token: hello.token, accountHash: accountHash, deviceHash: deviceHash),
                  let session else {
                self.recordFailedHello(from: connection)
                connection.fail(ProtocolError(.unauthenticated, "unknown user or wrong token"), rid: hello.rid)
                return
            }
            session.onLoop { $0.attach(connection, hello: hello) }
        }
    }

    private static let noUsersTokenHash = TokenHash([UInt8](repeating: 0, count: 32))

    private static let userUnavailable = ProtocolError(.internal, "the user could not be loaded; try again")

    private static let registerRateLimited = ProtocolError(.rateLimited, "too many registrations from this address")
}
