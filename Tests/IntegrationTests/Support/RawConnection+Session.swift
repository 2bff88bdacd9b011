import LifeSignalProtocol

struct Credential {
    let userID: String
    let token: String
}

extension RawConnection {
    /// Registers a user through the protocol; the connection stays unauthenticated.
    func register(name: String) -> Credential? {
        guard let fields = request(Op.register, ["name": .string(name)])?.okFields,
              let user = fields["user"]?.objectValue, let id = user["id"]?.stringValue,
              let token = fields["token"]?.stringValue else { return nil }
        return Credential(userID: id, token: token)
    }

    /// Says hello and returns the broker's answer (its catch-up follows in `next()`).
    func hello(_ credential: Credential, device: String = "raw", resume: Int64? = nil,
               version: Int64 = 1) -> ServerMessage? {
        var fields: JSONObject = [
            "version": .int(version), "user": .string(credential.userID), "token": .string(credential.token),
            "device": .string(device),
        ]
        if let resume { fields["resume"] = .int(resume) }
        let answer = request(Op.hello, fields)
        if answer?.okFields != nil { userID = credential.userID }
        return answer
    }

    /// A connection that has registered a fresh user and said hello as `device`.
    static func authenticated(port: Int, name: String = "Alice", device: String = "raw")
        throws -> (RawConnection, Credential)
    {
        let connection = try RawConnection(port: port)
        guard let credential = connection.register(name: name),
              connection.hello(credential, device: device)?.okFields != nil else {
            throw SetupFailed()
        }
        _ = connection.next(timeout: .seconds(5))  // the snapshot of a new device
        return (connection, credential)
    }

    struct SetupFailed: Error {}
}
