import ArgumentParser
import LifeSignalLoad

/// Options every `lsclient load` scenario with one user per device takes (with `--broker` and
/// `--json` from GlobalOptions).
struct LoadOptions: ParsableArguments {
    @Option(help: "Simulated devices, one connection and one registered user each.")
    var devices = 100

    @OptionGroup var window: LoadWindowOptions

    func validate() throws {
        guard devices >= 1 else { throw ValidationError("--devices must be at least 1") }
    }
}
