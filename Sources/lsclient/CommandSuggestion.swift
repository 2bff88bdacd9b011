import ArgumentParser

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
                if let nearest = nearest(to: argument, among: names) { message += "; did you mean '\(nearest)'?" }
                return message + " (lsclient \(path.joined(separator: " "))\(path.isEmpty ? "" : " ")--help lists them)"
            }
            command = subcommands[index]
            path.append(argument)
        }
        return nil
    }

    /// The name at the smallest edit distance from `word`, if it is close enough to be a typo.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (name, score) = scored, score <= max(1, min(2, word.count / 3)) else { return nil }
        return name
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
