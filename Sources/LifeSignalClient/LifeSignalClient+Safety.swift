import LifeSignalProtocol

// Check-ins and alerts (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `checkin`: resets the deadline; returns the updated user.
    @discardableResult
    public func checkIn() async throws -> User {
        try await userResult(request(.checkIn))
    }

    /// `alert.trigger`; returns the alert id (the active one if an alert is already on).
    @discardableResult
    public func triggerAlert(message: String? = nil) async throws -> String {
        let result = try await request(.alertTrigger(message: message))
        return try Self.decode { () throws(ProtocolError) in try result.string("alertId") }
    }

    /// `alert.cancel`.
    public func cancelAlert() async throws {
        _ = try await request(.alertCancel)
    }
}
