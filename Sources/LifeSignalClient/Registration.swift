import LifeSignalProtocol

/// A new account from `register` (PROTOCOL.md §3). The token is shown only this once: keep it.
public struct Registration: Sendable, Equatable {
    public var user: User
    public var token: String

    public init(user: User, token: String) {
        self.user = user
        self.token = token
    }
}
