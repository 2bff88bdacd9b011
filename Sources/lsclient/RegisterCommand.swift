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
            let new = try NewProfile(globals, force: force)
            let registration = try await LifeSignalClient.register(
                host: new.broker.host, port: new.broker.port, name: name, phone: phone,
                responseTimeoutMs: new.responseTimeoutMs, tls: new.tls)
            try new.save(userID: registration.user.id, token: registration.token)
            CommandResult(
                fields: [
                    "user": registration.user.json, "token": .string(registration.token),
                    "profile": .string(new.name), "device": .string(new.device),
                ],
                text: "registered \(registration.user.name) (\(registration.user.id)) "
                    + "as profile '\(new.name)', device \(new.device)"
            ).print(json: globals.json)
        }
    }
}
