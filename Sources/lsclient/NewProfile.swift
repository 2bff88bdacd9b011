import LifeSignalClient

/// Where a command that makes a profile (`register`, `signin`) saves it, and what the new device
/// connects with: checked before anything is sent, so that a refusal (the profile exists) costs
/// the broker nothing.
struct NewProfile {
    let store: ProfileStore
    let name: String
    let brokers: [Endpoint]
    let device: String
    let tls: ClientTLS?
    let responseTimeoutMs: UInt64

    init(_ globals: GlobalOptions, force: Bool) throws {
        store = try ProfileStore.resolve()
        name = try ProfileStore.checkedProfileName(globals.profileName)
        guard force || !store.profileExists(name) else {
            throw CLIError.local("profile '\(name)' already exists (\(store.profilePath(name))); use --force to replace it")
        }
        brokers = try globals.brokerEndpoints(profile: nil)
        device = try ProfileStore.checkedDeviceID(globals.device ?? Profile.newDeviceID())
        tls = globals.clientTLS(profile: nil)
        responseTimeoutMs = try globals.responseTimeoutMs()
    }

    /// The broker `register` or `signin` goes to: the first of `--broker`.
    var broker: Endpoint { brokers[0] }

    /// Saves the account's `token` for this device, with the brokers and TLS it used.
    func save(userID: String, token: String) throws {
        let profile = Profile(userID: userID, token: token, device: device,
                              broker: brokers.map(\.description).joined(separator: ","), tls: tls)
        try store.saveProfile(profile, as: name)
    }
}
