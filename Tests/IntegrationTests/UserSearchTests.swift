import Testing

@testable import lsbroker

/// How `lsbroker users` finds users, as a function of the store's (id, name) list.
@Suite struct UserSearchTests {
    private let users = [("u_a1", "Alice"), ("u_b2", "alice"), ("u_c3", "Natalia"), ("u_d4", "Jo Smith"), ("u_e5", "Bob")]
        .map { UserDirectory.User(id: $0.0, name: $0.1) }

    private func ids(_ query: String) -> [String] { UserSearch.find(query, among: users).matches.map(\.id) }
    private func nearby(_ query: String) -> [String] { UserSearch.find(query, among: users).nearby.map(\.id) }

    @Test func anIdThenANameInAnyCaseThenAPart() {
        #expect(ids("u_c3") == ["u_c3"])
        #expect(ids("ALICE") == ["u_a1", "u_b2"])
        #expect(ids("ali") == ["u_a1", "u_b2", "u_c3"])
        #expect(ids("smith") == ["u_d4"])
        #expect(ids("u_e") == ["u_e5"])
        #expect(ids("") == [])
        #expect(UserSearch.find("u_c3", among: users).isExact && UserSearch.find("ALICE", among: users).isExact)
        #expect(!UserSearch.find("ali", among: users).isExact)
    }

    @Test func nearMissesAreSuggestedNearestFirstOnlyWhenNothingMatches() {
        #expect(ids("alcie").isEmpty)
        #expect(nearby("alcie") == ["u_a1", "u_b2"])
        #expect(nearby("smiht") == ["u_d4"])
        #expect(nearby("bobb") == ["u_e5"])
        #expect(nearby("xyzzy") == [])
        #expect(UserSearch.find("ali", among: users).nearby.isEmpty)
    }
}
