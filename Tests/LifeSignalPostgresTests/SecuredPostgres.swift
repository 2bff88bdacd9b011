import Foundation
import LifeSignalPostgres

/// A PostgreSQL server of a test's own that wants a password and offers TLS, with a CA of its own
/// (`scripts/throwaway-postgres --tls --password`); stopped and removed afterwards.
final class SecuredPostgres {
    static let password = "throwaway-s3cret"
    let directory: URL
    /// The server's URL, without the password.
    let url: PostgresURL
    /// The CA that signed the server's certificate (for 127.0.0.1 and localhost).
    var rootCertificate: String { directory.appendingPathComponent("ca.crt").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("secured-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.script("start", directory.path, "--tls", "--password", Self.password)
        let text = try String(contentsOf: directory.appendingPathComponent("url"), encoding: .utf8)
        url = try PostgresURL(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        try? Self.script("stop", directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A CA of nobody's, for a certificate that must not verify.
    func otherRootCertificate() throws -> String {
        let path = directory.appendingPathComponent("other-ca.crt").path
        try Self.run("/usr/bin/env", "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                     "-subj", "/CN=someone-else", "-keyout", directory.appendingPathComponent("other-ca.key").path,
                     "-out", path)
        return path
    }

    struct Failed: Error { let command: [String] }

    private static func script(_ arguments: String...) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        try run([root.appendingPathComponent("scripts/throwaway-postgres").path] + arguments)
    }

    private static func run(_ arguments: String...) throws { try run(arguments) }

    /// Output goes nowhere: a server started inherits it, and a pipe would never end.
    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(command: arguments) }
    }
}
