/// Lets the global options stand before the subcommand as well as after it
/// (`lsclient --profile alice qr rotate` and `lsclient qr rotate --profile alice`).
/// ArgumentParser reads a subcommand's options only after its name, so the leading ones
/// are moved to the end before parsing.
enum GlobalOptionsPlacement {
    static let valued: Set<String> = ["--broker", "--profile", "--device", "--timeout-ms", "--ca-file"]
    static let flags: Set<String> = ["--json", "--tls"]

    static func normalized(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            if flags.contains(argument) || (valued.contains(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.count {
                leading += arguments[index...index + 1]
                index += 2
            } else {
                break
            }
        }
        return Array(arguments[index...]) + leading
    }

    /// Whether `--json` is among the arguments (before a `--`, after which all are positional):
    /// known before parsing, so that even a usage error can be reported as JSON.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }
}
