import Foundation
import GRDB
import LifeSignalStoreSQLite

/// Users' ids and names, read straight from the broker's SQLite store with a read-only connection
/// (WAL lets it read while the broker writes), so that an operator can say "Bob" where the store
/// says `u_…` (`lsbroker pushes --user`, `lsbroker users`).
final class UserDirectory {
    struct User: Equatable {
        let id: String
        let name: String
    }

    let queue: DatabaseQueue
    private var names: [String: String?] = [:]

    init(directory: String) throws {
        // The file name of `SQLiteStore.path(in:)`, which LifeSignalBroker keeps internal.
        let path = (directory as NSString).appendingPathComponent("lifesignal.sqlite")
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Every user, oldest first. Names are not indexed: `lsbroker users` finds them by part.
    func allUsers() throws -> [User] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM users ORDER BY created_at, id").map {
                User(id: $0["id"], name: $0["name"])
            }
        }
    }

    /// The user's name, or nil for an id the store does not know; remembered, since a follower asks
    /// again for every push.
    func name(of id: String) throws -> String? {
        if let known = names[id] { return known }
        let name = try queue.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM users WHERE id = ?", arguments: [id])
        }
        names[id] = name
        return name
    }
}
