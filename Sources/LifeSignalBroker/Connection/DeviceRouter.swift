import LifeSignalProtocol

/// Where an authenticated device's requests go: the user's session on this broker (embedded) or
/// the cluster's device (PostgreSQL). Called on the loop, once per request; no hop inside.
protocol DeviceRouter: AnyObject, Sendable {
    /// Whose device it is (for the log and `/v1/users/ID/online`).
    nonisolated var userID: String { get }
    nonisolated func route(_ request: Request, from connection: ClientConnection)
    /// The connection ended (whatever the reason): the device is offline from now on.
    nonisolated func connectionEnded(_ connection: ClientConnection, deviceID: String)
}

extension UserSession: DeviceRouter {
    nonisolated func route(_ request: Request, from connection: ClientConnection) {
        onLoop { $0.handle(request, from: connection) }
    }

    nonisolated func connectionEnded(_ connection: ClientConnection, deviceID: String) {
        onLoop { session in
            session.detach(connection, deviceID: deviceID)
            session.unloadIfIdle()
        }
    }
}
