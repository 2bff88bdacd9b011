import Foundation

/// The broker names the wire's fields in its `bad_request` messages ("field 'checkInIntervalSec'
/// must be 60–2592000 seconds"); a person typed lsclient's flags. Each field a command sets from a
/// flag is named by that flag instead ("--interval must be 60–2592000 seconds (1m to 30d)").
enum FlagNames {
    static let byField: [(field: String, flag: String)] = [
        ("checkInIntervalSec", "--interval"),
        ("preferences.mutedTypes", "--mute"),
        ("preferences.push", "--push"),
        ("phone", "--phone"),
        ("name", "--name"),
        ("limit", "--limit"),
        ("before", "--before"),
        ("message", "--message"),
        ("platform", "--platform"),
    ]

    static func inFlagTerms(_ message: String) -> String {
        for (field, flag) in byField {
            let quoted = "field '\(field)'"
            guard message.contains(quoted) else { continue }
            var result = message.replacingOccurrences(of: quoted, with: flag)
            if field == "checkInIntervalSec" { result += readableRange(in: message) }
            return result
        }
        return message
    }

    /// " (1m to 30d)" for a message that ends "A–B seconds", as lsclient writes intervals.
    private static func readableRange(in message: String) -> String {
        guard let range = message.split(separator: " ").first(where: { $0.contains("–") }) else { return "" }
        let bounds = range.split(separator: "–").compactMap { Int64($0) }
        guard bounds.count == 2 else { return "" }
        return " (\(Readable.duration(seconds: bounds[0])) to \(Readable.duration(seconds: bounds[1])))"
    }
}
