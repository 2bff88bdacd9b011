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
}
