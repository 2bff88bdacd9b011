import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

/// `signin` (PROTOCOL §12): this machine becomes a new device of an account, with a code from
/// `lsclient device link` on one of its devices, and is saved as a profile holding the device's
/// own token.
struct SigninCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Sign a new device in to an account with a link code, and save it as a profile.",
        discussion: "The code comes from `lsclient device link` on a device of the account. Refuses to replace an "
            + "existing profile unless --force is given.")

    @OptionGroup var globals: GlobalOptions

    @Argument(help: "The link code (8 characters).")
    var code: String

    @Option(help: "The device's platform, e.g. ios or android.")
    var platform: String?

    @Flag(help: "Replace an existing profile of the same name.")
    var force = false

    func run() async throws {
        try await Failure.reporting {
            let new = try NewProfile(globals, force: force)
            let signIn = try await LifeSignalClient.signIn(
                host: new.broker.host, port: new.broker.port, code: code.uppercased(), device: new.device,
                platform: platform, responseTimeoutMs: new.responseTimeoutMs, tls: new.tls)
            try new.save(userID: signIn.user.id, token: signIn.deviceToken)
            CommandResult(
                fields: ["user": signIn.user.json, "profile": .string(new.name), "device": .string(new.device)],
                text: "signed in as \(signIn.user.name) (\(signIn.user.id)): profile '\(new.name)', device \(new.device)"
            ).print(json: globals.json)
        }
    }
}
