import LifeSignalBroker
import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalStoreSQLite

/// Where `lsbroker users` reads users: the embedded store or a cluster's PostgreSQL.
protocol UserSummaries: UserNames {
    /// nil for an id the store does not know.
    func summary(of id: String) throws -> UserSummary?
}

extension UserDirectory: UserSummaries {}
extension ClusterPushLog: UserSummaries {}
