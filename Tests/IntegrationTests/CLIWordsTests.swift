import Foundation
import Testing

/// Issue 26, items 8 and 9: the command line answers in its user's words. A mistyped command is
/// named, with the nearest one; a value the broker refuses is named by the flag that set it.
@Suite("lsclient in its user's words", .serialized)
struct CLIWordsTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = try LSClient(broker: broker, registering: ["Alice"])
    }

    @Test func aMistypedCommandIsNamedWithTheNearestOne() throws {
        let top = try cli.run(["--profile", "alice", "chekin"])
        #expect(top.status == 64)
        #expect(top.stderr.contains("error: unknown command 'chekin'; did you mean 'checkin'?"), "\(top.stderr)")

        let nested = try cli.run(["load", "pingz", "--pairs", "1"])
        #expect(nested.status == 64)
        #expect(nested.stderr.contains("unknown command 'pingz' of 'load'; did you mean 'pings'?"), "\(nested.stderr)")

        let faraway = try cli.run(["--profile", "alice", "fly"])
        #expect(faraway.status == 64)
        #expect(faraway.stderr.contains("unknown command 'fly'") && !faraway.stderr.contains("did you mean"),
                "\(faraway.stderr)")

        // What is known still parses: help, a group's default subcommand with its argument.
        #expect(try cli.run(["help", "checkin"]).status == 0)
        #expect(try cli.run(["--profile", "alice", "checkin"]).status == 0)
    }

    @Test func aRefusedValueIsNamedByItsFlag() throws {
        let tooShort = try cli.run(["--profile", "alice", "profile", "update", "--interval", "2s"])
        #expect(tooShort.status == 1)
        #expect(tooShort.stderr.contains("error: bad_request: --interval must be 60–2592000 seconds (1m to 30d)"),
                "\(tooShort.stderr)")

        let negative = try cli.run(["--profile", "alice", "profile", "update", "--interval", "-5"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("The value '-5' is invalid for '--interval"), "\(negative.stderr)")
    }

    @Test func usageErrorsStartLikeEveryOtherError() throws {
        // ArgumentParser's own start "Error:"; every other error of both programs "error:".
        let client = try cli.run(["--profile", "alice", "profile", "update", "--interval", "soon"])
        #expect(client.status == 64)
        #expect(client.stderr.hasPrefix("error: "), "\(client.stderr)")
        let (status, output) = try runCommand(Binaries.broker, ["serve", "--port", "99999"])
        #expect(status == 64)
        #expect(output.hasPrefix("error: "), "\(output)")
    }

    /// Help reads as written: no line ends in spaces, and no prose has two spaces inside it (the
    /// gap between an option and its description is the only one).
    @Test(arguments: [
        ["load", "--help"], ["load", "keepalive", "--help"], ["load", "pings", "--help"], ["load", "idle", "--help"],
        ["load", "storm", "--help"], ["load", "fanout", "--help"], ["load", "flood", "--help"],
        ["load", "failover", "--help"], ["load", "hostile", "--help"], ["load", "plot", "--help"],
        ["load", "compare", "--help"], ["sync", "--help"], ["watch", "--help"], ["--help"],
        ["outbox", "--help"], ["outbox", "send", "--help"], ["alert", "trigger", "--help"], ["checkin", "--help"],
        ["account", "delete", "--help"],
    ])
    func helpHasNoStraySpaces(_ arguments: [String]) throws {
        let help = try cli.run(arguments)
        #expect(help.status == 0)
        for line in help.stdout.split(separator: "\n").map(String.init) {
            #expect(!Self.hasStraySpaces(line), "stray spaces: '\(line)'")
        }
    }

    @Test func theStraySpaceCheckSeesThem() {
        #expect(Self.hasStraySpaces("Each device is one  connection."))
        #expect(Self.hasStraySpaces("  --out <FILE>            Also write  the run."))
        #expect(Self.hasStraySpaces("ends here. "))
        #expect(!Self.hasStraySpaces("  --out <FILE>            Also write the run to FILE: its settings,"))
        #expect(!Self.hasStraySpaces("  keepalive               Each device keeps K keepalives in flight; reports"))
        #expect(!Self.hasStraySpaces("                          responses/s and round-trip latency."))
    }

    /// Trailing spaces, or two spaces inside prose: an option's or subcommand's line (two spaces in,
    /// then its name) has one gap before its description, which is not prose.
    static func hasStraySpaces(_ line: String) -> Bool {
        if line.hasSuffix(" ") { return true }
        var prose = Substring(line.drop { $0 == " " })
        if line.hasPrefix("  ") && !line.hasPrefix("   "), let gap = prose.range(of: "  ") {
            prose = prose[gap.upperBound...].drop { $0 == " " }
        }
        return prose.contains("  ")
    }
}
