import LifeSignalProtocol

// The account's devices and their credentials (PROTOCOL.md §12).
extension LifeSignalClient {
    /// `device.link`: a one-time code for a new device of this account, valid five minutes; the new
    /// device passes it to `LifeSignalClient.signIn`.
    public func linkDevice() async throws -> DeviceLinkCode {
        try await reply(.deviceLink) { reply in
            if case .linkCode(let code, let expiresAt) = reply { DeviceLinkCode(code: code, expiresAt: expiresAt) } else { nil }
        }
    }

    /// `device.revoke`: the device's token, push token and stored device go, and its connections
    /// are closed with `revoked`. Revoking this very device signs it out: the broker answers, then
    /// closes, the client does not reconnect and the state cache is cleared.
    public func revokeDevice(_ device: String) async throws {
        let command = DeviceCommand.deviceRevoke(device: device)
        guard device == configuration.deviceID else { _ = try await request(command); return }
        guard lifecycle == .live, let link else {
            throw lifecycle == .closed ? LifeSignalClientError.closed : LifeSignalClientError.notConnected
        }
        // As for `bye`: the broker's close after its answer is the end, not a loss to reconnect from.
        lifecycle = .closing
        do {
            _ = try await send(command.op, command.fields, on: link)
        } catch {
            if link === self.link, lifecycle == .closing { lifecycle = .live }
            throw error
        }
        endSaidBye(link)
        clearStateCache()
    }
}
