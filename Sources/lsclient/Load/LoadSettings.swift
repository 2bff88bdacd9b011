import LifeSignalClient
/// What every scenario's run needs, resolved from the command line.
struct LoadSettings {
    /// The brokers; device number k connects to brokers[k % count] (a cluster's, or one).
    var brokers: [Endpoint]
    var broker: Endpoint { brokers[0] }
    var devices: Int
    var durationSeconds: Double
    var warmupSeconds: Double
    /// Set-ups (connect, register, hello) in progress at once: enough to fill group commits,
    /// few enough not to overflow the broker's accept backlog.
    var setupConcurrency: Int
    var setupTimeoutSeconds: Double
    var brokerPID: Int32?
    /// Device k of this run is "load-<deviceOffset + k>", with that number's source address.
    var deviceOffset = 0
}
