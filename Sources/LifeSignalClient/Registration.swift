import LifeSignalProtocol

/// A new account from `register` (PROTOCOL.md §3). The tokens are shown only this once: keep them.
public struct Registration: Sendable, Equatable {
    public var user: User
    /// The account's token: says `hello` for any of its devices.
    public var token: String
    /// The registering device's own token (§12), when `register` named the device.
    public var deviceToken: String?

    public init(user: User, token: String, deviceToken: String? = nil) {
        self.user = user
        self.token = token
        self.deviceToken = deviceToken
    }
}

/// A device added to an account by `signin` (§12). The token is shown only this once: keep it.
public struct SignIn: Sendable, Equatable {
    public var user: User
    public var device: String
    /// Says `hello` only with `device`; revoked with `device.revoke`.
    public var deviceToken: String

    public init(user: User, device: String, deviceToken: String) {
        self.user = user
        self.device = device
        self.deviceToken = deviceToken
    }
}

/// A one-time code from `device.link` (§12) that a new device signs in with before `expiresAt`.
public struct DeviceLinkCode: Sendable, Equatable {
    public var code: String
    /// Unix milliseconds.
    public var expiresAt: Int64

    public init(code: String, expiresAt: Int64) {
        self.code = code
        self.expiresAt = expiresAt
    }
}
