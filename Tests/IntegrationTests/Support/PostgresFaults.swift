import Foundation
import Glibc

/// The faults a production PostgreSQL has, done to a test's own server (issue 24): sessions
/// dropped by an operator or a failover, a crash, a server that stops answering.
extension ThrowawayPostgres {
    /// `pg_terminate_backend` on every session of the test database but this one.
    func terminateSessions() throws {
        _ = try psql("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = 'lifesignal_test' AND pid <> pg_backend_pid()
            """)
    }

    /// `pg_ctl restart -m immediate`: every session dropped without a goodbye, crash recovery at start.
    func crashRestart() throws { try run("crash-restart") }

    /// SIGSTOP to the server and every session: it accepts nothing and answers nothing, as a
    /// server whose machine hangs.
    func freeze() throws { try signalServer(SIGSTOP) }

    /// SIGCONT: the frozen server carries on where it was.
    func thaw() throws { try signalServer(SIGCONT) }

    func psql(_ statement: String) throws -> [String] {
        let (status, text) = try runCommand(
            URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "-v", "ON_ERROR_STOP=1", "-At", "-c", statement])
        guard status == 0 else { throw Failed(command: "psql: \(text)") }
        return text.split(separator: "\n").map(String.init)
    }

    private var serverPID: pid_t? {
        let file = (try? String(contentsOfFile: directory.path + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        return file.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    private func signalServer(_ signal: Int32) throws {
        guard let server = serverPID else { throw Failed(command: "no postmaster.pid") }
        // The sessions first on SIGSTOP (none is forked meanwhile), the server first on SIGCONT.
        if signal == SIGCONT { kill(server, signal) }
        for child in Self.children(of: server) { kill(child, signal) }
        if signal != SIGCONT { kill(server, signal) }
    }

    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (comm)": the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }
}
