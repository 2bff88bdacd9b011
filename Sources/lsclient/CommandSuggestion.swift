import ArgumentParser
import LifeSignalVersion

/// A mistyped command named as such, with the nearest one suggested (`lsclient chekin`: "unknown
/// command 'chekin'; did you mean 'checkin'?"), where ArgumentParser would complain about the
/// options that follow it instead. Checked before parsing, on the arguments as
/// `GlobalOptionsPlacement` leaves them (the command first).
enum CommandSuggestion {
    /// The usage error for `arguments`, or nil when their commands are known.
    static func error(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path: [String] = []
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            // Past the last group, or a group whose default subcommand takes this as its argument.
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil, !argument.hasPrefix("-")
            else { return nil }
            let names = subcommands.map { $0.configuration.commandName ?? "\($0)".lowercased() }
            // ArgumentParser's own `help` subcommand.
            if argument == "help" { return nil }
            guard let index = names.firstIndex(of: argument) else {
                let place = path.isEmpty ? "" : " of '\(path.joined(separator: " "))'"
                var message = "unknown command '\(argument)'\(place)"
                if let nearest = EditDistance.nearest(to: argument, among: names) { message += "; did you mean '\(nearest)'?" }
                return message + " (lsclient \(path.joined(separator: " "))\(path.isEmpty ? "" : " ")--help lists them)"
            }
            command = subcommands[index]
            path.append(argument)
        }
        return nil
    }
}
