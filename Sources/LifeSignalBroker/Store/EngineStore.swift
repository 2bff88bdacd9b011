import LifeSignalProtocol

/// What the engine asks of a store, answered alike by the embedded SQLite store and the cluster's
/// PostgreSQL: `StoreConformanceTests` runs one suite, unchanged, over both.
///
/// A store keeps what it is given: the history (§10) and event retention (§6) are the engine's to
/// keep, through `pruneNotifications` and `pruneEvents`. The cluster's reads also leave out
/// notifications past its `notificationHistory`, which it prunes about once per 64.
public protocol EngineStore: Sendable {
    /// Applies `changes` in order, in one transaction: all of them or none.
    func commit(_ changes: [StoreChange]) async throws

    /// The user whose current QR code this is, with their name (`contacts.add`, `qr.lookup`).
    func qrCodeOwner(_ qrCode: String) async throws -> QRCodeOwner?

    /// The user's notification `id`; someone else's is nil, like an unknown one.
    func notification(_ id: String, of userID: String) async throws -> Notification?

    /// Newest first, older than `before` (exclusive), at most `limit`; nil when `before` names
    /// no notification of the user.
    func notifications(of userID: String, before: String?, limit: Int) async throws -> [Notification]?

    /// Every device the user has, online or not, by device id.
    func devices(of userID: String) async throws -> [DeviceRecord]

    /// The bodies of the user's events `(after, through]` in seq order; nil if any of them is no
    /// longer retained or their frames would take more than `maxBytes` (`hello … resume`).
    func events(of userID: String, after: Int64, through: Int64, maxBytes: Int) async throws -> [[UInt8]]?
}

/// A store answered a query with a result of another kind: a bug, not a condition.
struct MismatchedStoreAnswer: Error {
    let query: StoreQuery
}
