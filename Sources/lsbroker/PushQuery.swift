import LifeSignalBroker
import LifeSignalStoreSQLite

/// The pushes `lsbroker pushes` shows: all of them, or those of some users (several when
/// `--user` names several), in the order they were recorded.
struct PushQuery {
    let log: any PushRecords
    /// nil: every user's.
    var userIDs: [String]?

    /// The newest `limit` (all when nil), oldest first.
    func latest(limit: Int?) throws -> [PushLog.Entry] {
        guard let userIDs, userIDs.count != 1 else { return try log.latest(userID: userIDs?.first, limit: limit) }
        let merged = try userIDs.flatMap { try log.latest(userID: $0, limit: limit) }.sorted(by: Self.recordOrder)
        return limit.map { Array(merged.suffix($0)) } ?? merged
    }

    /// Those recorded after `position`, oldest first, at most `limit`.
    func after(_ position: Int64, limit: Int) throws -> [PushLog.Entry] {
        guard let userIDs, userIDs.count != 1 else { return try log.after(position, userID: userIDs?.first, limit: limit) }
        let merged = try userIDs.flatMap { try log.after(position, userID: $0, limit: limit) }.sorted(by: Self.recordOrder)
        return Array(merged.prefix(limit))
    }

    private static func recordOrder(_ a: PushLog.Entry, _ b: PushLog.Entry) -> Bool { a.position < b.position }
}
