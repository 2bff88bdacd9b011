import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account and save it as a profile.",
        discussion: "Refuses to replace an existing profile unless --force is given.")

    @OptionGroup var globals: GlobalOptions

    @Option(help: "The user's name.")
    var name: String

    @Option(help: "The user's phone number.")
    var phone: String?

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
            let broker = brokers[0]
            let device = try ProfileStore.checkedDeviceID(globals.device ?? Profile.newDeviceID())
            let tls = globals.clientTLS(profile: nil)
            let registration = try await LifeSignalClient.register(
                host: broker.host, port: broker.port, name: name, phone: phone,
                responseTimeoutMs: try globals.responseTimeoutMs(), tls: tls)
            let profile = Profile(
                userID: registration.user.id, token: registration.token, device: device,
                broker: brokers.map(\.description).joined(separator: ","), tls: tls)
            try store.saveProfile(profile, as: profileName)
            CommandResult(
                fields: [
                    "user": registration.user.json, "token": .string(registration.token),
                    "profile": .string(profileName), "device": .string(device),
                ],
                text: "registered \(registration.user.name) (\(registration.user.id)) "
                    + "as profile '\(profileName)', device \(device)"
            ).print(json: globals.json)
        }
    }
}
