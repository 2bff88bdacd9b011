import ArgumentParser

/// Options every `lsclient load` scenario takes (with `--broker` and `--json` from GlobalOptions).
struct LoadOptions: ParsableArguments {
    @Option(help: "Simulated devices, one connection and one registered user each.")
    var devices = 100

    @Option(help: "Measured window, in seconds.")
    var duration = 10.0

    @Option(help: "Seconds of load before the measured window; not counted.")
    var warmup = 1.0

    @Option(
        name: .customLong("broker-pid"), help: "Also report this broker process's CPU seconds and RSS (Linux /proc).")
    var brokerPID: Int32?

    @Option(name: .customLong("setup-concurrency"), help: "Devices setting up (connect, register, hello) at once.")
    var setupConcurrency = 256

    @Option(name: .customLong("setup-timeout"), help: "Seconds allowed for the set-up of all devices.")
    var setupTimeout = 300.0

    func validate() throws {
        guard devices >= 1 else { throw ValidationError("--devices must be at least 1") }
        guard duration > 0 else { throw ValidationError("--duration must be positive") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard setupConcurrency >= 1 else { throw ValidationError("--setup-concurrency must be at least 1") }
        guard setupTimeout > 0 else { throw ValidationError("--setup-timeout must be positive") }
    }

    func settings(_ globals: GlobalOptions) throws(CLIError) -> LoadSettings {
        LoadSettings(
            broker: try globals.brokerAddress(profile: nil), devices: devices, durationSeconds: duration,
            warmupSeconds: warmup, setupConcurrency: setupConcurrency, setupTimeoutSeconds: setupTimeout,
            brokerPID: brokerPID)
    }
}
