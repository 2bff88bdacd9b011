import Foundation

/// The shell examples of README.md as steps a test can run, so that the README stays true.
///
/// Every ```sh block from "## Connect devices" up to the next `## ` heading is read, line by line:
/// - `lsbroker serve ARGS` (with or without `&`): the broker restarts with ARGS, same port and data;
/// - `COMMAND &`: a background device (`watch`), named by its `--profile` and `--device`;
/// - `#   WHO:  TEXT` on a line of its own: each background device WHO names prints TEXT;
/// - `COMMAND   # error: CODE: … (exit N)`: the command fails with that exit status and message;
/// - any other `COMMAND` must exit 0. Other comments are prose; `NAME=value` lines (PATH) are
///   the test's own environment.
struct ReadmeScript {
    enum Step: CustomStringConvertible {
        case serve(arguments: [String])
        case background(command: String, names: Set<String>)
        case run(command: String, failure: ExpectedFailure?)
        case expect(who: [String], text: String)

        var description: String {
            switch self {
            case .serve(let arguments): "lsbroker serve \(arguments.joined(separator: " "))"
            case .background(let command, _): "\(command) &"
            case .run(let command, _): command
            case .expect(let who, let text): "\(who.joined(separator: " and ")) print \(text)"
            }
        }
    }

    struct ExpectedFailure {
        let status: Int32
        /// What the error message starts with.
        let message: String
    }

    let steps: [Step]

    init(readme: String) {
        var steps: [Step] = []
        for line in Self.walkthroughLines(of: readme) {
            let (command, comment) = Self.split(line)
            if command.isEmpty || command.range(of: #"^[A-Za-z_][A-Za-z0-9_]*=\S*$"#, options: .regularExpression) != nil {
                // Prose, or a variable the test sets itself (PATH).
                if let comment, let expectation = Self.expectation(comment) { steps.append(expectation) }
            } else if command.hasPrefix("lsbroker serve") {
                let arguments = command.dropFirst("lsbroker serve".count)
                    .replacingOccurrences(of: "&", with: "").split(separator: " ").map(String.init)
                steps.append(.serve(arguments: arguments))
            } else if command.hasSuffix("&") {
                let command = String(command.dropLast()).trimmingCharacters(in: .whitespaces)
                steps.append(.background(command: command, names: Self.names(in: command)))
            } else {
                steps.append(.run(command: command, failure: comment.flatMap(Self.failure)))
            }
        }
        self.steps = steps
    }

    /// The lines of the sh blocks between the two headings.
    static func walkthroughLines(of readme: String) -> [String] {
        var lines: [String] = []
        var inSection = false
        var inBlock = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") { inSection = line == "## Connect devices" }
            guard inSection else { continue }
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```sh"
            } else if inBlock {
                lines.append(line)
            }
        }
        return lines
    }

    /// The command and its trailing comment (a `#` after white space, outside quotes).
    static func split(_ line: String) -> (command: String, comment: String?) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous.isWhitespace {
                let command = line[..<index].trimmingCharacters(in: .whitespaces)
                return (command, String(line[line.index(after: index)...]).trimmingCharacters(in: .whitespaces))
            }
            previous = character
        }
        return (line.trimmingCharacters(in: .whitespaces), nil)
    }

    /// `WHO:  TEXT`, with two spaces or more after the colon; a relative time at the end is left
    /// out, since it depends on how fast the test runs.
    static func expectation(_ comment: String) -> Step? {
        guard let match = comment.range(of: #"^[^:]+:\s{2,}"#, options: .regularExpression) else { return nil }
        let who = comment[..<match.upperBound].split(separator: ":")[0]
            .replacingOccurrences(of: ",", with: " ").lowercased()
            .split(separator: " ").map(String.init).filter { $0 != "and" }
        var text = String(comment[match.upperBound...])
        if let time = text.range(of: #"\s+\([^()]*\)$"#, options: .regularExpression) { text.removeSubrange(time) }
        return .expect(who: who, text: text)
    }

    /// `error: CODE: … (exit N)`.
    static func failure(_ comment: String) -> ExpectedFailure? {
        guard comment.hasPrefix("error:"),
              let exit = comment.range(of: #"\(exit (\d+)\)$"#, options: .regularExpression),
              let status = Int32(comment[exit].filter(\.isNumber))
        else { return nil }
        let message = comment[..<exit.lowerBound].replacingOccurrences(of: "…", with: "")
            .trimmingCharacters(in: .whitespaces)
        return ExpectedFailure(status: status, message: message)
    }

    /// The profile of a `lsclient --profile NAME read …` line, nil for any other command.
    static func readerProfile(in command: String) -> String? {
        let words = command.split(separator: " ").map(String.init)
        guard words.count > 3, words[0] == "lsclient", words[1] == "--profile", words[3] == "read" else { return nil }
        return words[2]
    }

    /// What a background device is called in expectations: its profile and its device.
    static func names(in command: String) -> Set<String> {
        var names: Set<String> = []
        let words = command.split(separator: " ").map(String.init)
        for (index, word) in words.enumerated() where ["--profile", "--device"].contains(word) && index + 1 < words.count {
            names.insert(words[index + 1].lowercased())
        }
        return names
    }
}
