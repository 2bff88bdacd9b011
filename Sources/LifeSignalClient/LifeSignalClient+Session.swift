import LifeSignalProtocol

// Session operations (PROTOCOL.md §3) other than hello.
extension LifeSignalClient {
    /// `keepalive`; returns the broker's `serverTime`. The client sends these by itself when idle.
    @discardableResult
    public func keepalive() async throws -> Int64 {
        let fields = try await request(Op.keepalive)
        return try Self.decode { () throws(ProtocolError) in
            guard case .serverTime(let time) = try Reply(answering: Op.keepalive, fields: fields) else {
                throw .badRequest("not the answer to keepalive")
            }
            return time
        }
    }

    /// Creates an account on a fresh unauthenticated connection, then closes it. The token is shown
    /// only this once. With `device` (§12), that device gets a token of its own too.
    public static func register(
        host: String = "127.0.0.1", port: Int = 7420, name: String, phone: String? = nil,
        device: String? = nil, platform: String? = nil,
        responseTimeoutMs: UInt64 = ClientConfiguration.defaultResponseTimeoutMs, tls: ClientTLS? = nil
    ) async throws -> Registration {
        let fields = Register(name: name, phone: phone, device: device, platform: platform).fields
        let result = try await beforeHello(Op.register, fields, host: host, port: port, responseTimeoutMs: responseTimeoutMs,
                                           tls: tls)
        return try decode { () throws(ProtocolError) in
            guard case .registered(let user, let token, let deviceToken) = try Reply(answering: Op.register, fields: result)
            else { throw .badRequest("not the answer to register") }
            return Registration(user: user, token: token, deviceToken: deviceToken)
        }
    }

    /// `signin` (§12): this new device spends a link code shown on one of the account's devices
    /// (`linkDevice()`) and gets the account's user and a token of its own, which says `hello`
    /// only with `device`. An unknown, spent or expired code is `unauthenticated`.
    public static func signIn(
        host: String = "127.0.0.1", port: Int = 7420, code: String, device: String, platform: String? = nil,
        responseTimeoutMs: UInt64 = ClientConfiguration.defaultResponseTimeoutMs, tls: ClientTLS? = nil
    ) async throws -> SignIn {
        let fields = Signin(code: code, device: device, platform: platform).fields
        let result = try await beforeHello(Op.signin, fields, host: host, port: port, responseTimeoutMs: responseTimeoutMs,
                                           tls: tls)
        return try decode { () throws(ProtocolError) in
            guard case .signedIn(let user, let deviceToken) = try Reply(answering: Op.signin, fields: result) else {
                throw .badRequest("not the answer to signin")
            }
            return SignIn(user: user, device: device, deviceToken: deviceToken)
        }
    }

    /// `op` on a fresh unauthenticated connection, closed after its answer.
    private static func beforeHello(_ op: String, _ fields: JSONObject, host: String, port: Int,
                                    responseTimeoutMs: UInt64, tls: ClientTLS?) async throws -> JSONObject {
        let configuration = ClientConfiguration(
            host: host, port: port, userID: "", token: "", deviceID: op, reconnect: .disabled,
            responseTimeoutMs: responseTimeoutMs, tls: tls)
        return try await LifeSignalClient(configuration: configuration).openAndSend(op, fields)
    }

    /// Connects, sends `op` and closes on the client's own executor: between the connect and the
    /// request nothing waits for the caller's task to be scheduled again. A loop that was busy
    /// for longer than the broker's hello timeout can still find the connection closed before it
    /// sent anything; then nothing was sent, so it connects again (a few times).
    private func openAndSend(_ op: String, _ fields: JSONObject) async throws -> JSONObject {
        defer { close() }
        for _ in 0..<Self.registerAttempts {
            _ = try await open(anonymous: true)
            guard lifecycle == .live, let link else { continue }
            return try await send(op, fields, on: link)
        }
        throw LifeSignalClientError.connectionLost("the broker closed the connection before \(op) was sent")
    }

    private static let registerAttempts = 3

    /// Sends `command` and reads its `ok` as the reply its op carries, picked out by `value`
    /// (`{ if case .user(let user) = $0 { user } else { nil } }`).
    func reply<Value>(_ command: DeviceCommand, _ value: (Reply) -> Value?) async throws -> Value {
        let fields = try await request(command)
        return try Self.decode { () throws(ProtocolError) in
            guard let found = value(try Reply(answering: command.op, fields: fields)) else {
                throw .badRequest("not the answer to \(command.op)")
            }
            return found
        }
    }

    /// Reads a result, turning a malformed one into `.protocolViolation`.
    static func decode<T>(_ read: () throws(ProtocolError) -> T) throws(LifeSignalClientError) -> T {
        do {
            return try read()
        } catch {
            throw .protocolViolation("malformed result: \(error.message)")
        }
    }
}
