import ArgumentParser
import LifeSignalVersion

/// The command-line device: one `lsclient` process is one device of the profile's user.
@main
struct LSClient: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsclient",
        abstract: "A LifeSignal device on the command line.",
        discussion: """
            Profiles live in $LSCLIENT_CONFIG_DIR, else $XDG_CONFIG_HOME/lifesignal, else \
            ~/.config/lifesignal. Each (profile, device) keeps its state there too, so the next run \
            resumes and receives exactly the events it missed.

            Exit status: 0 success; 1 an error from the broker (printed as "error: <code>: <message>") \
            or a local one (a missing profile, an unknown contact); 2 the broker could not be reached, did \
            not answer within --timeout-ms, or the connection failed; 64 a usage error (an unknown \
            option, a bad value). With --json an \
            error is one JSON object on stderr instead, {"type":"error","error":{"code":…,"message":…}}, \
            with the same exit status.

            Colour (alerts and missed check-ins in bold red) only on a terminal, and not with NO_COLOR set.
            """,
        version: LifeSignalVersion.current,
        subcommands: [
            RegisterCommand.self, WhoamiCommand.self, ProfileCommand.self, QRCommand.self,
            DeviceCommand.self, DevicesCommand.self, KeepaliveCommand.self, StateCommand.self,
            WatchCommand.self, SyncCommand.self, LoadCommand.self,
            ContactsCommand.self, PingCommand.self, CheckInCommand.self, AlertCommand.self,
            NotificationsCommand.self, ReadCommand.self, ReadAllCommand.self, DeleteCommand.self,
            OutboxCommand.self, AccountCommand.self, SigninCommand.self,
        ]
    )

    /// ArgumentParser's own main, but errors are reported the lsclient way (`Failure`), as JSON
    /// with --json: usage errors included, which ArgumentParser would print as text.
    static func main() async {
        let given = Array(CommandLine.arguments.dropFirst())
        let json = GlobalOptionsPlacement.asksForJSON(given)
        let arguments = GlobalOptionsPlacement.normalized(given)
        if let mistyped = CommandSuggestion.error(for: arguments, root: LSClient.self) {
            let failure = Failure(code: "usage", message: mistyped, status: Failure.Status.usage)
            failure.report(json: json)
            exit(withError: ExitCode(failure.status))
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as Failure {
            failure.report(json: json)
            exit(withError: ExitCode(failure.status))
        } catch {
            // Help and --version print as usual, and an exit status already reported stays quiet.
            guard json, !(error is CleanExit), !(error is ExitCode) else { exit(withLowercaseError: error) }
            let status = exitCode(for: error).rawValue
            Failure(code: status == Failure.Status.usage ? "usage" : "local", message: message(for: error),
                    status: status).report(json: true)
            exit(withError: ExitCode(status))
        }
    }
}
