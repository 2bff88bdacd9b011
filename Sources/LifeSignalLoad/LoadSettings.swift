import LifeSignalClient

/// What every scenario's run needs, resolved from the command line.
package struct LoadSettings {
    /// The brokers; device number k connects to brokers[k % count] (a cluster's, or one).
    package var brokers: [Endpoint]
    package var broker: Endpoint { brokers[0] }
    package var devices: Int
    package var durationSeconds: Double
    package var warmupSeconds: Double
    /// Set-ups (connect, register, hello) in progress at once: enough to fill group commits,
    /// few enough not to overflow the broker's accept backlog.
    package var setupConcurrency: Int
    package var setupTimeoutSeconds: Double
    package var brokerPID: Int32?
    /// Device k of this run is "load-<deviceOffset + k>", with that number's source address.
    package var deviceOffset = 0

    package init(brokers: [Endpoint], devices: Int, durationSeconds: Double, warmupSeconds: Double,
                 setupConcurrency: Int, setupTimeoutSeconds: Double, brokerPID: Int32?, deviceOffset: Int = 0) {
        self.brokers = brokers
        self.devices = devices
        self.durationSeconds = durationSeconds
        self.warmupSeconds = warmupSeconds
        self.setupConcurrency = setupConcurrency
        self.setupTimeoutSeconds = setupTimeoutSeconds
        self.brokerPID = brokerPID
        self.deviceOffset = deviceOffset
    }
}
