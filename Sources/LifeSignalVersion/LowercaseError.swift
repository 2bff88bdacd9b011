import ArgumentParser
import Foundation

extension ParsableCommand {
    /// ArgumentParser's `exit(withError:)`, its message starting `error:` like every other error's.
    public static func exit(withLowercaseError error: Error) -> Never {
        let text = fullMessage(for: error)
        guard text.hasPrefix("Error: ") else { exit(withError: error) }
        FileHandle.standardError.write(Data(("error: " + text.dropFirst(7) + "\n").utf8))
        Foundation.exit(exitCode(for: error).rawValue)
    }
}
