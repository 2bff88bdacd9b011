import Foundation
import LifeSignalProtocol
import Testing

/// What a newcomer expects of both binaries (issue 11): `--version`, defaults in `--help`, the exit
/// statuses the help documents (64 usage, 1 broker or local error, 2 connection failure), and with
/// `--json` errors as one JSON object.
@Suite("Command-line conventions", .serialized)
struct CLIConventionsTests {
    @Test func bothBinariesTellTheSameVersion() throws {
        let broker = try runBroker(["--version"])
        #expect(broker.status == 0)
        let version = broker.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression) != nil, "\(broker.stdout)")
        let client = try LSClient(broker: try BrokerProcess()).run(["--version"])
        #expect(client.status == 0)
        #expect(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == version)
    }

    @Test func helpShowsDefaultsAndExitStatuses() throws {
        let serve = try runBroker(["serve", "--help"]).stdout.unwrapped
        for shown in ["(default: 127.0.0.1)", "(default: 7420)", "(default: ./lifesignal-data)", "(default: 65536)",
                      "(default: 200)", "(default: info)"] {
            #expect(serve.contains(shown), "serve --help lacks \(shown)")
        }
        #expect(try runBroker(["pushes", "--help"]).stdout.unwrapped.contains("(default: ./lifesignal-data)"))
        #expect(try runBroker(["--help"]).stdout.unwrapped.contains("64 a usage error"))

        let cli = LSClient(broker: try BrokerProcess())
        let help = try cli.run(["--help"]).stdout.unwrapped
        for status in ["1 an error from the broker", "2 the broker could not be reached", "64 a usage error"] {
            #expect(help.contains(status), "lsclient --help lacks \(status)")
        }
        #expect(try cli.run(["notifications", "--help"]).stdout.unwrapped.contains("(default: 100)"))
        #expect(try cli.run(["whoami", "--help"]).stdout.unwrapped.contains("(default: the profile's, else 127.0.0.1:7420)"))
    }

    /// README's "Configuration" table lists every option of `lsbroker serve`.
    @Test func theReadmeListsEveryServeOption() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let help = try runBroker(["serve", "--help"]).stdout.unwrapped
        let options = Set(help.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("--") }
            .map { String($0.prefix { $0 == "-" || $0.isLetter || $0.isNumber }) })
            .subtracting(["--help", "--version"])
        #expect(options.count > 20)
        for option in options.sorted() {
            #expect(readme.contains("| `\(option)` |"), "README's configuration table lacks \(option)")
        }
    }

    @Test func usageErrorsExit64() throws {
        let cli = LSClient(broker: try BrokerProcess())
        #expect(try cli.run(["--bogus"]).status == 64)
        #expect(try cli.run(["profile", "update", "--interval", "soon"]).status == 64)
        #expect(try cli.run(["watch", "--count", "0"]).status == 64)
        #expect(try cli.run(["--broker", "nowhere", "whoami"]).status == 64)
        #expect(try runBroker(["serve", "--bogus"]).status == 64)
        #expect(try runBroker(["serve", "--port", "seven"]).status == 64)
        // Values the broker's own check refuses are usage errors too.
        let data = TemporaryDirectory("serve")
        #expect(try runBroker(["serve", "--port", "99999", "--data-dir", data.path]).status == 64)
        #expect(try runBroker(["serve", "--data-dir", data.path], environment: ["LSBROKER_PORT": "x"]).status == 64)
        #expect(try runBroker(["serve", "--store-cache-mib", "0", "--data-dir", data.path]).status == 64)
    }

    @Test func brokerErrorsExit1AndConnectionFailuresExit2() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Carol")
        let refused = try cli.run(["--profile", "carol", "profile", "update", "--interval", "5"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: bad_request: "))
        broker.stop()
        let unreachable = try cli.run(["--profile", "carol", "whoami"])
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.hasPrefix("error: connection_failed: "))
    }

    @Test func withJSONAnErrorIsOneJSONObjectAndTheSameStatus() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        try cli.register("Dan")

        let refused = try cli.run(["--profile", "dan", "--json", "profile", "update", "--interval", "5"])
        #expect(refused.status == 1)
        #expect(try jsonError(refused.stderr)?.code == "bad_request")

        let usage = try cli.run(["--json", "--bogus"])
        #expect(usage.status == 64)
        #expect(try jsonError(usage.stderr)?.code == "usage")

        let local = try cli.run(["--profile", "nobody", "--json", "whoami"])
        #expect(local.status == 1)
        #expect(try jsonError(local.stderr)?.code == "local")

        broker.stop()
        let unreachable = try cli.run(["--profile", "dan", "--json", "whoami"])
        #expect(unreachable.status == 2)
        let error = try jsonError(unreachable.stderr)
        #expect(error?.code == "connection_failed")
        #expect(error?.message.isEmpty == false)
    }

    /// stderr as exactly one `{"type":"error","error":{"code","message"}}` line.
    private func jsonError(_ stderr: String) throws -> (code: String, message: String)? {
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(stderr)")
        guard let line = lines.first, let object = JSONLine.parse(String(line)),
              object.string(at: "type") == "error",
              let code = object.string(at: "error", "code"), let message = object.string(at: "error", "message")
        else { return nil }
        return (code, message)
    }
}

extension String {
    /// Help text as one line: ArgumentParser wraps it to the width of a terminal.
    fileprivate var unwrapped: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
