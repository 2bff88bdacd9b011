import ArgumentParser
import LifeSignalLoad

/// The options of every `lsclient load` scenario except how many devices it runs: the window,
/// the broker's pid and the set-up pace. Scenarios that derive their device count from other
/// options (`pings --pairs`) take these without `--devices`.
struct LoadWindowOptions: ParsableArguments {
    @Option(help: "Measured window, in seconds.")
    var duration = 10.0

    @Option(help: "Seconds of load before the measured window; not counted (storm has none).")
    var warmup = 1.0

    @Option(
        name: .customLong("broker-pid"), help: "Also report this broker process's CPU seconds and RSS (Linux /proc).")
    var brokerPID: Int32?

    @Option(name: .customLong("setup-concurrency"), help: "Devices setting up (connect, register, hello) at once.")
    var setupConcurrency = 256

    @Option(name: .customLong("setup-timeout"), help: "Seconds allowed for the set-up of all devices.")
    var setupTimeout = 300.0

    @Option(
        name: .customLong("device-offset"),
        help: ArgumentHelp(
            "Number this process's devices from K (load-K, load-K+1…).",
            discussion: "Several lsclient load processes against one broker (more devices than one process may "
                + "open) then have distinct device and user names and spread over the source addresses "
                + "together."))
    var deviceOffset = 0

    @OptionGroup var output: LoadOutputOption

    func validate() throws {
        guard duration > 0 else { throw ValidationError("--duration must be positive") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        guard setupConcurrency >= 1 else { throw ValidationError("--setup-concurrency must be at least 1") }
        guard setupTimeout > 0 else { throw ValidationError("--setup-timeout must be positive") }
        guard deviceOffset >= 0 else { throw ValidationError("--device-offset must not be negative") }
    }

    func settings(_ globals: GlobalOptions, devices: Int) throws(CLIError) -> LoadSettings {
        LoadSettings(
            brokers: try globals.brokerEndpoints(profile: nil), devices: devices, durationSeconds: duration,
            warmupSeconds: warmup, setupConcurrency: setupConcurrency, setupTimeoutSeconds: setupTimeout,
            brokerPID: brokerPID, deviceOffset: deviceOffset)
    }
}
