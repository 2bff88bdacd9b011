import LifeSignalClient
import LifeSignalProtocol
import Logging

/// What a command that acts as a device needs: the profile, the device id, the broker, and where
/// this (profile, device) keeps its state.
struct CommandContext {
    let globals: GlobalOptions
    let store: ProfileStore
    let profileName: String
    let profile: Profile
    let device: String
    let brokers: [Endpoint]
    let responseTimeoutMs: UInt64
    let tls: ClientTLS?

    /// As `device` when given (`sync --live` acts as each device of the profile), else as --device
    /// or the profile's own.
    init(_ globals: GlobalOptions, device: String? = nil) throws(CLIError) {
        self.globals = globals
        store = try ProfileStore.resolve()
        profileName = try ProfileStore.checkedProfileName(globals.profileName)
        profile = try store.loadProfile(profileName)
        self.device = try ProfileStore.checkedDeviceID(device ?? globals.device ?? profile.device)
        brokers = try globals.brokerEndpoints(profile: profile)
        responseTimeoutMs = try globals.responseTimeoutMs()
        tls = globals.clientTLS(profile: profile)
    }

    var stateFile: StateFile { StateFile(store: store, profile: profileName, device: device) }

    func saveState(_ state: DeviceState?) {
        stateFile.save(state)
    }

    /// `withOutbox`: the device's queued writes are the client's, sent once it is live.
    func makeClient(reconnect: ReconnectPolicy, withOutbox: Bool = false) throws -> LifeSignalClient {
        var configuration = ClientConfiguration(
            endpoints: brokers,
            userID: profile.userID,
            token: profile.token,
            deviceID: device,
            // No platform in hello: it would overwrite the one `device register --platform` stored.
            initialState: stateFile.load(),
            reconnect: reconnect,
            responseTimeoutMs: responseTimeoutMs,
            tls: tls)
        if withOutbox { configuration.outbox = try store.outbox(profile: profileName, device: device) }
        return try LifeSignalClient(configuration: configuration, logger: Self.logger())
    }

    /// The library logs on stderr at LSCLIENT_LOG_LEVEL (default warning): quiet unless something is wrong.
    static func logger() -> Logger {
        var logger = Logger(label: "lsclient")
        logger.logLevel = Environment.value("LSCLIENT_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }
}
