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
            let store = try ProfileStore.resolve()
            let profileName = try ProfileStore.checkedProfileName(globals.profileName)
            guard force || !store.profileExists(profileName) else {
                throw CLIError.local(
                    "profile '\(profileName)' already exists (\(store.profilePath(profileName))); use --force to replace it")
            }
            let brokers = try globals.brokerEndpoints(profile: nil)
            let device = try ProfileStore.checkedDeviceID(globals.device ?? Profile.newDeviceID())
            let tls = globals.clientTLS(profile: nil)
            let signIn = try await LifeSignalClient.signIn(
                host: brokers[0].host, port: brokers[0].port, code: code.uppercased(), device: device, platform: platform,
                responseTimeoutMs: try globals.responseTimeoutMs(), tls: tls)
            let profile = Profile(userID: signIn.user.id, token: signIn.deviceToken, device: device,
                                  broker: brokers.map(\.description).joined(separator: ","), tls: tls)
            try store.saveProfile(profile, as: profileName)
            CommandResult(
                fields: ["user": signIn.user.json, "profile": .string(profileName), "device": .string(device)],
                text: "signed in as \(signIn.user.name) (\(signIn.user.id)): profile '\(profileName)', device \(device)"
            ).print(json: globals.json)
        }
    }
}
