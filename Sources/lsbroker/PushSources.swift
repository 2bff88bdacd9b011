import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalStoreSQLite

/// Where `lsbroker pushes` reads recorded pushes: the embedded store or a cluster's PostgreSQL.
protocol PushRecords {
    func latest(userID: String?, limit: Int?) throws -> [PushLog.Entry]
    func after(_ position: Int64, userID: String?, limit: Int) throws -> [PushLog.Entry]
}

/// Users' ids and names, so that an operator can say "Bob" where the store says `u_…`.
protocol UserNames {
    /// Every user, oldest first.
    func allUsers() throws -> [UserDirectory.User]
    /// nil for an id the store does not know.
    func name(of id: String) throws -> String?
}

extension UserNames {
    /// The users `query` means (UserSearch); the id is looked up first, without reading every user.
    func users(matching query: String) throws -> UserSearch.Found {
        if let name = try name(of: query) { return UserSearch.Found(matches: [UserDirectory.User(id: query, name: name)]) }
        return UserSearch.find(query, among: try allUsers())
    }
}

extension PushLog: PushRecords {}
extension UserDirectory: UserNames {}

extension ClusterPushLog: PushRecords, UserNames {
    func allUsers() throws -> [UserDirectory.User] {
        try everyUser().map { UserDirectory.User(id: $0.id, name: $0.name) }
    }
}
