import ArgumentParser
import Foundation
import LifeSignalProtocol
import LifeSignalVersion

@main
struct LSBroker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsbroker",
        abstract: "The LifeSignal broker: routes check-ins, pings, alerts and contact changes between devices.",
        discussion: """
            Exit status: 0 success (serve: stopped by SIGINT or SIGTERM); 1 a failure (serve: cannot \
            listen or open its store; pushes, users: no store, or no user of that id or name); 64 a usage \
            error (an unknown option, a bad value, a bad LSBROKER_* variable). With --json (pushes, users) an \
            error is \
            one JSON object on stderr, {"type":"error","error":{"code":…,"message":…}}.
            """,
        version: LifeSignalVersion.current,
        subcommands: [Serve.self, Pushes.self, Users.self, Stats.self, BenchDeadlines.self, BenchStore.self, BenchCluster.self],
        defaultSubcommand: Serve.self
    )

    /// ArgumentParser's own main, but with --json an error is reported as JSON.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let json = arguments.prefix { $0 != "--" }.contains("--json")
            // Help and --version print as usual; errors start `error:`, as every other one does.
            guard json, !(error is CleanExit) else { exit(withLowercaseError: error) }
            let status = exitCode(for: error)
            let code = (error as? CommandFailure)?.code ?? (status.rawValue == 64 ? "usage" : "failed")
            let report: JSONValue = ["type": "error", "error": ["code": .string(code), "message": .string(message(for: error))]]
            FileHandle.standardError.write(Data((String(decoding: report.serialized(), as: UTF8.self) + "\n").utf8))
            exit(withError: ExitCode(status.rawValue))
        }
    }
}
