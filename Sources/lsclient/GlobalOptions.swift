import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options every subcommand takes. Values not given fall back to the environment, then the profile,
/// then the defaults.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Broker address host:port. (default: the profile's, else \(defaultBroker)) [env: LSCLIENT_BROKER]")
    var broker: String?

    @Option(help: "Profile name. (default: \(defaultProfile)) [env: LSCLIENT_PROFILE]")
    var profile: String?

    @Option(help: "Device id. (default: the profile's, chosen at register time)")
    var device: String?

    @Flag(help: "Print one JSON object per line (errors too, on stderr).")
    var json = false

    static let defaultBroker = "127.0.0.1:7420"
    static let defaultProfile = "default"

    var profileName: String {
        profile ?? Environment.value("LSCLIENT_PROFILE") ?? Self.defaultProfile
    }

    /// The broker given on the command line or in the environment, if any.
    var explicitBroker: String? {
        broker ?? Environment.value("LSCLIENT_BROKER")
    }

    func brokerAddress(profile: Profile?) throws(CLIError) -> BrokerAddress {
        try BrokerAddress(parsing: explicitBroker ?? profile?.broker ?? Self.defaultBroker)
    }

    func validate() throws {
        do {
            _ = try ProfileStore.checkedProfileName(profileName)
            if let device { _ = try ProfileStore.checkedDeviceID(device) }
            if let explicitBroker { _ = try BrokerAddress(parsing: explicitBroker) }
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Environment variables; empty counts as unset.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }
}
