import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO

extension ClusterRows {
    /// Each contact of `account` as they see them, in the order they were added (`contacts.list`
    /// and snapshots), derived from each contact's own row (§4; ARCHITECTURE.md, "Rules are plain
    /// functions").
    package static func contactViews(of account: Account, on connection: PostgresConnection, logger: Logger) async throws
        -> [Contact]
    {
        let others = try await accounts(Array(account.contacts.keys), on: connection, logger: logger)
        let mirrors = Dictionary(uniqueKeysWithValues: others.map { ($0.id, ContactMirror(of: $0.user)) })
        return account.contacts.values
            .sorted { ($0.addedAt, $0.contactID) < ($1.addedAt, $1.contactID) }
            .compactMap { record in mirrors[record.contactID].map { record.view(showing: $0) } }
    }
}
