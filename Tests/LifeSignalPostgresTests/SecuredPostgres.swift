import Foundation
import LifeSignalPostgres

/// A PostgreSQL server of a test's own that wants a password and offers TLS, with a CA of its own
/// (`scripts/throwaway-postgres --tls --password`); stopped and removed afterwards. Its async
/// callers await the scripts it runs instead of blocking a thread of the cooperative pool, which
/// the suite's other tests need.
final class SecuredPostgres {
    static let password = "throwaway-s3cret"
    let directory: URL
    /// The server's URL, without the password.
    let url: PostgresURL
    /// The CA that signed the server's certificate (for 127.0.0.1 and localhost).
    var rootCertificate: String { directory.appendingPathComponent("ca.crt").path }

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("secured-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await Self.script("start", directory.path, "--tls", "--password", Self.password)
        let text = try String(contentsOf: directory.appendingPathComponent("url"), encoding: .utf8)
        url = try PostgresURL(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A fast stop (a second at most) that must be over before the test process may end.
    deinit {
        do {
            let stop = Self.process(Self.scriptPath, "stop", directory.path)
            try stop.run()
            stop.waitUntilExit()
        } catch {}
        try? FileManager.default.removeItem(at: directory)
    }

    /// A CA of nobody's, for a certificate that must not verify.
    func otherRootCertificate() async throws -> String {
        let path = directory.appendingPathComponent("other-ca.crt").path
        try await Self.run("/usr/bin/env", "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                     "-subj", "/CN=someone-else", "-keyout", directory.appendingPathComponent("other-ca.key").path,
                     "-out", path)
        return path
    }

    struct Failed: Error { let command: [String] }

    private static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/throwaway-postgres").path

    private static func script(_ arguments: String...) async throws { try await run([scriptPath] + arguments) }

    private static func run(_ arguments: String...) async throws { try await run(arguments) }

    private static func run(_ arguments: [String]) async throws {
        let process = process(arguments)
        try process.run()
        // Waited for on a thread of its own, not the pool's. Not with `terminationHandler`: a
        // Process given one is never freed on Linux (LeakSanitizer reports it).
        let status = await withCheckedContinuation { (exited: CheckedContinuation<Int32, Never>) in
            Thread {
                process.waitUntilExit()
                exited.resume(returning: process.terminationStatus)
            }.start()
        }
        guard status == 0 else { throw Failed(command: arguments) }
    }

    private static func process(_ arguments: String...) -> Process { process(arguments) }

    /// Output goes nowhere: a server started inherits it, and a pipe would never end.
    private static func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }
}
