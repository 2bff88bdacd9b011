import LifeSignalEngine
import LifeSignalUV

extension ClusterPushLog {
    /// `lsbroker users --postgres`: one user's summary, or nil for an id the cluster does not know.
    public func summary(of userID: String) throws -> UserSummary? {
        let (database, logger) = (database, logger)
        return try waitFor {
            try await database.withConnection { connection in
                try await ClusterRows.summary(of: userID, on: connection, logger: logger)
            }
        }
    }
}
