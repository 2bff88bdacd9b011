/// What `device.register` and `device.unregister` (§5) ask of the requesting device's push token.
public enum PushTokenChange: Sendable, Equatable {
    /// `device.register`: the token moves to the device (with its platform, when one is named).
    case register(token: String, platform: String?)
    /// `device.unregister`: the device gets no more pushes.
    case unregister

    /// The token the device holds afterwards.
    var token: String? {
        switch self {
        case .register(let token, _): token
        case .unregister: nil
        }
    }

    /// The platform the device has afterwards, given the one it has.
    func platform(after current: String?) -> String? {
        switch self {
        case .register(_, let platform?): platform
        case .register, .unregister: current
        }
    }
}

/// What became of a request to remove a device's push token (`DeviceRules.removePushToken`).
public enum PushTokenRemoval: Sendable, Equatable {
    case removed
    case noToken
    case unknownDevice
    case unknownUser
}
