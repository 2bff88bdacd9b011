import LifeSignalVersion

/// How `lsbroker users` and `lsbroker pushes --user` find users in a store's (id, name) list: an
/// id, else a name in any case, else every name holding the query (a prefix, a part: "ali" finds
/// Alice and Natalia) or an id starting with it; when nothing holds it, the names near it are
/// suggested ("alcie": did you mean Alice?). A plain function of the list, tested without a store.
enum UserSearch {
    struct Found: Equatable {
        /// Oldest first, as the store lists them.
        var matches: [UserDirectory.User]
        /// When nothing matched: users whose name is near the query, nearest first.
        var nearby: [UserDirectory.User] = []
        /// Whether the query was an id or a whole name, not a part of one: what a change
        /// (`--remove-token`) asks for.
        var isExact = true
    }

    static let mostSuggestions = 5

    static func find(_ query: String, among users: [UserDirectory.User]) -> Found {
        if let user = users.first(where: { $0.id == query }) { return Found(matches: [user]) }
        let wanted = query.lowercased()
        let named = users.filter { $0.name.lowercased() == wanted }
        if !named.isEmpty { return Found(matches: named) }
        guard !wanted.isEmpty else { return Found(matches: []) }
        let holding = users.filter { $0.name.lowercased().contains(wanted) || $0.id.hasPrefix(query) }
        if !holding.isEmpty { return Found(matches: holding, isExact: false) }
        // Two letters are too few to be near anything in particular.
        guard wanted.count >= 3 else { return Found(matches: [], isExact: false) }
        // Two edits (a swapped pair is two) even in a short name; a third of a long one.
        let most = max(2, min(3, wanted.count / 3))
        let scored = users.compactMap { user -> (UserDirectory.User, Int)? in
            // The whole name, or one of its words: "smiht" is near "Jo Smith".
            let candidates = [user.name.lowercased()] + user.name.lowercased().split(separator: " ").map(String.init)
            let distance = candidates.map { EditDistance.between(wanted, $0) }.min() ?? .max
            return distance <= most ? (user, distance) : nil
        }
        let nearest = scored.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
        return Found(matches: [], nearby: nearest.prefix(mostSuggestions).map(\.element.0), isExact: false)
    }

    /// What to say when nothing matched.
    static func notFound(_ query: String, nearby: [UserDirectory.User], in store: String) -> CommandFailure {
        var message = "no user has the id or name '\(query)', or a name holding it, in \(store)"
        if !nearby.isEmpty {
            message += "; did you mean " + nearby.map { "\($0.name) (\($0.id))" }.joined(separator: ", ") + "?"
        }
        return CommandFailure(code: "not_found", message: message)
    }
}
