import Foundation
import Testing

/// Certificates made at test time with openssl: a CA, a broker certificate it issued for
/// `localhost` (a name only: 127.0.0.1 is not one of its names), and another CA that issued
/// nothing of the broker's.
struct TestCertificates {
    let directory = TemporaryDirectory("tls")
    var caFile: String { directory.path + "/ca.pem" }
    var otherCAFile: String { directory.path + "/other-ca.pem" }
    var certificateFile: String { directory.path + "/server.pem" }
    var keyFile: String { directory.path + "/server.key" }
    /// The broker certificate's public key as `ClientTLS.Trust.pinnedPublicKeys` takes it.
    let pin: String

    init() throws {
        let dir = directory.path
        let ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        try Self.shell("""
            cd \(dir)
            openssl req -x509 \(ec) -keyout ca.key -out ca.pem -days 2 -subj '/CN=LifeSignal test CA'
            openssl req -x509 \(ec) -keyout other-ca.key -out other-ca.pem -days 2 -subj '/CN=Another CA'
            openssl req \(ec) -keyout server.key -out server.csr -subj '/CN=localhost'
            printf 'subjectAltName=DNS:localhost\\n' > san.cnf
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.cnf
            """)
        pin = try Self.shell("""
            openssl x509 -in \(dir)/server.pem -pubkey -noout | openssl pkey -pubin -outform der \
            | openssl dgst -sha256 -binary | base64
            """).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    private static func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TLSSetupFailed(what: "openssl: \(script)") }
        return String(decoding: data, as: UTF8.self)
    }
}

struct TLSSetupFailed: Error, CustomStringConvertible {
    let what: String
    var description: String { what }
}

/// deploy/stunnel/lifesignal.conf run as shipped, its four "test:" lines pointed at a free port,
/// the test's broker and certificate: TLS in front of a real broker.
final class TLSProxy {
    let port: Int
    private let process: Process
    private let directory = TemporaryDirectory("stunnel")

    /// By the name its certificate is for.
    var address: String { "localhost:\(port)" }

    init(broker: BrokerProcess, certificates: TestCertificates) throws {
        guard let stunnel = ["/usr/bin/stunnel4", "/usr/bin/stunnel"].first(where: FileManager.default.isExecutableFile)
        else { throw TLSSetupFailed(what: "stunnel is not installed: scripts/install-deps installs it") }
        port = try SilentListener.closedPort()
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("deploy/stunnel/lifesignal.conf"),
                                 encoding: .utf8)
        let replaced = ["accept": "127.0.0.1:\(port)", "connect": broker.address, "cert": certificates.certificateFile,
                        "key": certificates.keyFile]
        let config = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let key = line.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return replaced[key].map { "\(key) = \($0)" } ?? String(line)
        }
        let configFile = directory.url.appendingPathComponent("stunnel.conf")
        try config.joined(separator: "\n").write(to: configFile, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: stunnel)
        process.arguments = [configFile.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Listening once a connection is accepted (stunnel binds before it logs "successful").
        guard eventually(timeout: .seconds(10), { Self.accepts(port: port) }) else {
            process.terminate()
            throw TLSSetupFailed(what: "stunnel did not listen on \(port)")
        }
    }

    deinit { stop() }

    /// Ends the proxy at once, as a crash would: its connections close without TLS's close_notify.
    /// stunnel ends its connections' threads on SIGTERM at its own pace; nothing is kept.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func accepts(port: Int) -> Bool {
        (try? TestSocket(port: port, receiveTimeoutMs: 100)) != nil
    }
}
