import LifeSignalClient
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options every subcommand takes. Values not given fall back to the environment, then the profile,
/// then the defaults.
struct GlobalOptions: ParsableArguments {
    @Option(help: """
        Broker address host:port, or several separated by commas (brokers of one cluster: a failed \
        or lost connection moves to the next). (default: the profile's, else \(defaultBroker)) [env: LSCLIENT_BROKER]
        """)
    var broker: String?

    @Option(help: "Profile name. (default: \(defaultProfile)) [env: LSCLIENT_PROFILE]")
    var profile: String?

    @Option(help: "Device id. (default: the profile's, chosen at register time)")
    var device: String?

    @Option(name: .customLong("timeout-ms"), help: """
        How long a broker has to answer hello or a request before lsclient leaves it for the next \
        broker of --broker; a command then fails with timed_out (exit 2) if none answers. \
        (default: \(ClientConfiguration.defaultResponseTimeoutMs)) [env: LSCLIENT_TIMEOUT_MS]
        """)
    var timeoutMs: UInt64?

    @Flag(help: """
        Connect with TLS (a broker behind a TLS-terminating proxy), checking the certificate against \
        the system's roots or --ca-file. (default: the profile's) [env: LSCLIENT_TLS=1]
        """)
    var tls = false

    @Option(name: .customLong("ca-file"), help: """
        The CA certificate (PEM) the broker's must be issued by; implies --tls. \
        (default: the profile's) [env: LSCLIENT_CA_FILE]
        """)
    var caFile: String?

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

    /// How long a broker has to answer (`ClientConfiguration.responseTimeoutMs`).
    func responseTimeoutMs() throws(CLIError) -> UInt64 {
        if let timeoutMs { return timeoutMs }
        guard let text = Environment.value("LSCLIENT_TIMEOUT_MS") else {
            return ClientConfiguration.defaultResponseTimeoutMs
        }
        guard let value = UInt64(text), value > 0 else {
            throw .usage("LSCLIENT_TIMEOUT_MS must be a number of milliseconds above 0, not '\(text)'")
        }
        return value
    }

    /// TLS as given here, in the environment, or saved with the profile; nil: plain TCP.
    func clientTLS(profile: Profile?) -> ClientTLS? {
        let caFile = caFile ?? Environment.value("LSCLIENT_CA_FILE") ?? profile?.caFile
        if let caFile { return ClientTLS(trust: .certificateAuthorities(pemFiles: [caFile])) }
        return tls || Environment.value("LSCLIENT_TLS") == "1" || profile?.tls == true ? .system : nil
    }

    /// The brokers to connect to, in order.
    func brokerEndpoints(profile: Profile?) throws(CLIError) -> [Endpoint] {
        do {
            return try Endpoint.list(parsing: explicitBroker ?? profile?.broker ?? Self.defaultBroker)
        } catch {
            throw .usage(error.description)
        }
    }

    /// The first of them, for what talks to one broker (register, the load generator).
    func brokerAddress(profile: Profile?) throws(CLIError) -> Endpoint {
        try brokerEndpoints(profile: profile)[0]
    }

    func validate() throws {
        if timeoutMs == 0 { throw ValidationError("--timeout-ms must be above 0") }
        do {
            _ = try ProfileStore.checkedProfileName(profileName)
            if let device { _ = try ProfileStore.checkedDeviceID(device) }
            if explicitBroker != nil { _ = try brokerEndpoints(profile: nil) }
            _ = try responseTimeoutMs()
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
