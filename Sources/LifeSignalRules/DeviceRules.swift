import LifeSignalProtocol

/// What a user's devices are (§5, §12), given them as the executor read them (stored devices and
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

    /// `device.register` and `device.unregister` (§5) of `deviceID`, given the push token each of
    /// the user's devices holds. A change the user's devices would see is told to them
    /// (`devices.changed`, §12): another token (the listing shows only whether there is one, but
    /// pushes now go elsewhere), another platform, or the token taken from another of their
    /// devices. Registering the token and platform the device already has changes nothing.
    public static func changePushToken(_ change: PushTokenChange, of deviceID: String, of userID: String,
                                       devices: [DeviceInfo], pushTokens: [String: String], in step: inout Step)
        throws(ProtocolError) -> Reply
    {
        guard let listed = devices.first(where: { $0.device == deviceID }) else {
            throw ProtocolError(.internal, "device is not stored")
        }
        let (token, platform) = (change.token, change.platform(after: listed.platform))
        guard pushTokens[deviceID] != token || platform != listed.platform else { return .empty }
        let changed = devices.map { device in
            var device = device
            if device.device == deviceID {
                device.hasToken = token != nil
                device.platform = platform
            } else if let token, pushTokens[device.device] == token {
                device.hasToken = false
            }
            return device
        }
        let storeChange: RuleChange = switch change {
        case .register(let token, let platform):
            .movePushToken(token: token, userID: userID, deviceID: deviceID, platform: platform)
        case .unregister:
            .clearPushToken(userID: userID, deviceID: deviceID)
        }
        step.record(storeChange, telling: userID, .devicesChanged(changed, revoked: nil))
        return .empty
    }

    /// A push token the broker removes, not the device: one the push service rejected (`ifToken`:
    /// only while the device still holds that very token; it may have registered a new one since),
    /// or any, at an operator's request. Told as `device.unregister` is.
    public static func removePushToken(of deviceID: String, of userID: String, ifToken: String?, devices: [DeviceInfo],
                                       pushTokens: [String: String], in step: inout Step) -> PushTokenRemoval
    {
        guard devices.contains(where: { $0.device == deviceID }) else { return .unknownDevice }
        guard let held = pushTokens[deviceID], ifToken == nil || held == ifToken else { return .noToken }
        // It cannot throw: the device is listed.
        _ = try? changePushToken(.unregister, of: deviceID, of: userID, devices: devices, pushTokens: pushTokens,
                                 in: &step)
        return .removed
    }

    /// `devices` with `deviceID` holding a credential linked at `now`, by id.
    private static func linked(_ deviceID: String, at now: Int64, to devices: [DeviceInfo]) -> [DeviceInfo] {
        var linked = devices.first { $0.device == deviceID } ?? DeviceInfo(device: deviceID, hasToken: false, online: false)
        linked.linkedAt = now
        linked.hasCredential = true
        return (devices.filter { $0.device != deviceID } + [linked]).sorted { $0.device < $1.device }
    }
}
