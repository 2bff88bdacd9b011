#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour for a person at a terminal: alerts and missed check-ins in bold red, so they stand out in
/// a scrolling `watch`. Only when standard output is a terminal and NO_COLOR is not set
/// (https://no-color.org), so pipes, files and tests always get plain text.
enum Style {
    /// Standard output is a terminal (a person reads it), not a pipe or a file.
    static let isTerminal = isatty(1) != 0

    static let isEnabled = isEnabled(
        isTerminal: isTerminal, noColor: Environment.value("NO_COLOR"), term: Environment.value("TERM"))

    /// The decision, apart from the process it is made for.
    static func isEnabled(isTerminal: Bool, noColor: String?, term: String?) -> Bool {
        isTerminal && noColor == nil && term != "dumb"
    }

    /// Faint when colour is on: what a line carries besides its news (seq, time).
    static func dim(_ text: String, enabled: Bool = isEnabled) -> String {
        enabled ? "\u{1B}[2m" + text + "\u{1B}[0m" : text
    }

    /// Bold red when colour is on.
    static func alarm(_ text: String, enabled: Bool = isEnabled) -> String {
        enabled ? "\u{1B}[1;31m" + text + "\u{1B}[0m" : text
    }
}
