import LifeSignalProtocol

// Check-ins and alerts (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `checkin`: resets the deadline; returns the updated user.
    @discardableResult
    public func checkIn() async throws -> User {
        try await reply(.checkIn, \.user)
    }

    /// `alert.trigger`; returns the alert id (the active one if an alert is already on).
    @discardableResult
    public func triggerAlert(message: String? = nil) async throws -> String {
        try await reply(.alertTrigger(message: message)) { if case .alert(let id) = $0 { id } else { nil } }
    }

    /// `alert.cancel`.
    public func cancelAlert() async throws {
        _ = try await request(.alertCancel)
    }
}
