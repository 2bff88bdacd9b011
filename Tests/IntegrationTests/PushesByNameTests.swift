import Foundation
import LifeSignalProtocol
import Testing

/// `lsbroker pushes --user` takes a name (any case) or an id and shows names (issue 11).
@Suite("lsbroker pushes by name", .serialized)
struct PushesByNameTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = LSClient(broker: broker)
    }

    /// A user whose phone has a push token and is offline, added by Bob: one push, "Bob added you.".
    private func pushedUser(profile: String, name: String) throws -> String {
        #expect(try cli.run(["--profile", profile, "register", "--name", name]).status == 0)
        let phone = try cli.run(["--profile", profile, "--device", "phone", "--json", "device", "register",
                                 "token-of-\(profile)-phone"])
        #expect(phone.status == 0)
        let id = try #require(try cli.run(["--profile", profile, "--json", "whoami"]).result?.string(at: "user", "id"))
        let add = try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: profile), "--dependent"])
        #expect(add.status == 0, "\(add.stderr)")
        return id
    }

    private func pushes(_ arguments: [String]) throws -> LSClient.Outcome {
        try runBroker(["pushes", "--data-dir", broker.dataDirectory.path] + arguments)
    }

    @Test func aNameInAnyCaseOrTheIdFindsTheUser() throws {
        try cli.register("Bob")
        let alice = try pushedUser(profile: "alice", name: "Alice")
        try #require(try eventually { try pushes(["--user", alice]).stdout.contains("Bob added you.") })

        for query in ["Alice", "alice", "ALICE", alice] {
            let listed = try pushes(["--user", query])
            #expect(listed.status == 0)
            let lines = listed.stdout.split(separator: "\n")
            #expect(lines.count == 1, "--user \(query): \(listed.stdout)")
            #expect(lines.first?.contains("  Alice (\(alice))  phone  ") == true, "\(listed.stdout)")
            #expect(lines.first?.hasSuffix("Contact Added — Bob added you.") == true)
        }
        let json = try pushes(["--json", "--user", "alice"])
        let object = try #require(JSONLine.parse(json.stdout.trimmingCharacters(in: .newlines)))
        #expect(object.string(at: "userName") == "Alice")
        #expect(object.string(at: "userId") == alice)
    }

    @Test func severalUsersOfOneNameAreAllShownAndListed() throws {
        try cli.register("Bob")
        let first = try pushedUser(profile: "carol1", name: "Carol")
        let second = try pushedUser(profile: "carol2", name: "Carol")
        try #require(try eventually { try pushes(["--user", second]).stdout.contains("Bob added you.") })

        let listed = try pushes(["--user", "carol"])
        #expect(listed.status == 0)
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("Carol (\(first))") == true)
        #expect(lines.last?.contains("Carol (\(second))") == true)
        #expect(listed.stderr.contains("2 users match 'carol': Carol (\(first)), Carol (\(second))"), "\(listed.stderr)")
    }

    @Test func noSuchUserIsAnErrorThatSaysSo() throws {
        try cli.register("Bob")
        let missing = try pushes(["--user", "nobody"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no user has the id or name 'nobody'"), "\(missing.stderr)")
        // With --json, as JSON.
        let json = try pushes(["--json", "--user", "nobody"])
        #expect(json.status == 1)
        let error = JSONLine.parse(json.stderr.trimmingCharacters(in: .newlines))
        #expect(error?.string(at: "type") == "error")
        #expect(error?.string(at: "error", "code") == "not_found")
        // A user who exists but was never pushed is no error: just nothing to show.
        let bob = try pushes(["--user", "Bob"])
        #expect(bob.status == 0)
        #expect(bob.stdout.isEmpty)
    }
}
