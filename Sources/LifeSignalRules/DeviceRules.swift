import LifeSignalProtocol

/// `device.revoke` (§12), given the user's devices as the executor read them (stored devices and
/// devices with a credential of their own).
public enum DeviceRules {
    /// The device's credential, push token and stored device go; `devices.changed` to the user's
    /// devices names it `revoked`, which closes its connections instead (`DeviceRevocation`).
    /// Revoking the caller's own device is signing out (the broker closes it after the `ok`).
    public static func revoke(_ deviceID: String, of userID: String, devices: [DeviceInfo], in step: inout Step)
        throws(ProtocolError) -> Reply
    {
        guard devices.contains(where: { $0.device == deviceID }) else { throw .notFound("no such device") }
        let remaining = devices.filter { $0.device != deviceID }
        step.record(.revokeDevice(userID: userID, deviceID: deviceID), telling: userID,
                    .devicesChanged(remaining, revoked: deviceID))
        return .empty
    }

    /// `signin` (§12): the link code is spent and the device gets its own credential, in one step,
    /// and the user's devices are told (`devices.changed`, the new one listed as linked now).
    /// Returns the user, for the new device.
    public static func signIn(_ deviceID: String, of userID: String, code: String, tokenHash: [UInt8],
                              devices: [DeviceInfo], in step: inout Step) throws(ProtocolError) -> User {
        let user = try step.loadedUser(userID)
        step.store(.spendLinkCode(code: code, userID: userID, now: step.now))
        step.record(.grantDeviceCredential(userID: userID, deviceID: deviceID, tokenHash: tokenHash, linkedAt: step.now),
                    telling: userID, .devicesChanged(linked(deviceID, at: step.now, to: devices), revoked: nil))
        return user
    }

    /// `devices` with `deviceID` holding a credential linked at `now`, by id.
    private static func linked(_ deviceID: String, at now: Int64, to devices: [DeviceInfo]) -> [DeviceInfo] {
        var linked = devices.first { $0.device == deviceID } ?? DeviceInfo(device: deviceID, hasToken: false, online: false)
        linked.linkedAt = now
        linked.hasCredential = true
        return (devices.filter { $0.device != deviceID } + [linked]).sorted { $0.device < $1.device }
    }
}
