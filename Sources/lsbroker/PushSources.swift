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
    /// The user whose id is `query`, else every user of that name in any case; oldest first.
    func users(matching query: String) throws -> [UserDirectory.User]
    func name(of id: String) throws -> String?
}

extension PushLog: PushRecords {}
extension UserDirectory: UserNames {}

extension ClusterPushLog: PushRecords, UserNames {
    func users(matching query: String) throws -> [UserDirectory.User] {
        try usersNamed(query).map { UserDirectory.User(id: $0.id, name: $0.name) }
    }
}
