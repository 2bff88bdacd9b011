import ArgumentParser

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

            Exit status: 0 success, 1 an error from the broker (printed as "error: <code>: <message>") \
            or a local one, 2 a connection failure.
            """,
        subcommands: [
            RegisterCommand.self, WhoamiCommand.self, ProfileCommand.self, QRCommand.self,
            DeviceCommand.self, DevicesCommand.self, KeepaliveCommand.self, StateCommand.self,
            WatchCommand.self, LoadCommand.self,
            ContactsCommand.self, PingCommand.self, CheckInCommand.self, AlertCommand.self,
            NotificationsCommand.self, ReadCommand.self, ReadAllCommand.self, DeleteCommand.self,
        ]
    )

    static func main() async {
        await main(GlobalOptionsPlacement.normalized(Array(CommandLine.arguments.dropFirst())))
    }
}
