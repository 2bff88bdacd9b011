import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules

/// What the engine asks of a store, answered alike by the embedded SQLite store and the cluster's
/// PostgreSQL: `StoreConformanceTests` runs one suite, unchanged, over both.
///
/// A store keeps what it is given: the history (§10) and event retention (§6) are the engine's to
/// keep, through `pruneNotifications` and `pruneEvents`. Until a notification past the history is
/// pruned, the reads given that `history` leave it out.
public protocol EngineStore: Sendable {
    /// Applies `changes` in order, in one transaction: all of them or none.
    func commit(_ changes: [StoreChange]) async throws

    /// The user whose current QR code this is, with their name (`contacts.add`, `qr.lookup`).
    func qrCodeOwner(_ qrCode: String) async throws -> QRCodeOwner?

    /// The user's notification `id` if it is among their newest `history` (0: all); someone else's
    /// is nil, like an unknown one.
    func notification(_ id: String, of userID: String, history: Int) async throws -> Notification?

    /// Newest first, older than `before` (exclusive), at most `limit`, among the user's newest
    /// `history` (0: all); nil when `before` names no notification of the user's history.
    func notifications(of userID: String, before: String?, limit: Int, history: Int) async throws -> [Notification]?

    /// The pushes recorded for the user's notifications, oldest first; a notification's go with it.
    func pushes(of userID: String) async throws -> [PushMessage]

    /// The accounts of those of `ids` who exist, by id: each user with their side of every
    /// relationship (`ContactRecord`), as the rules are given them.
    func accounts(of ids: Set<String>) async throws -> [String: Account]

    /// Every user with a check-in deadline who is not marked non-responsive yet, with it (§8).
    func pendingDeadlines() async throws -> [String: Int64]

    /// Every device the user has, online or not, by device id.
    func devices(of userID: String) async throws -> [DeviceRecord]

    /// The bodies of the user's events `(after, through]` in seq order; nil if any of them is no
    /// longer retained or their frames would take more than `maxBytes` (`hello … resume`).
    func events(of userID: String, after: Int64, through: Int64, maxBytes: Int) async throws -> [[UInt8]]?

    /// What the user's request with `opID` came to, if it is kept (§12).
    func keptOutcome(_ opID: String, of userID: String) async throws -> KeptOutcome?

    /// Every outcome kept for the user, oldest first (by time, then `opId`).
    func keptOutcomes(of userID: String) async throws -> [KeptOutcome]

    /// The user's device credentials, by device id (§12).
    func deviceCredentials(of userID: String) async throws -> [DeviceCredential]

    /// The link code, spent or not yet, expired or not; nil if there is none.
    func linkCode(_ code: String) async throws -> LinkCode?
}
