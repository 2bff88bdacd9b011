import Foundation

/// Where a client keeps its pending operations (`LifeSignalClient.enqueue`) between runs: an app
/// supplies its own (a database row, the keychain) or uses `FileOutboxStorage`.
public protocol OutboxStorage: Sendable {
    /// What was saved last, oldest first; empty if nothing was.
    func load() throws -> [PendingOperation]
    /// Replaces what is saved, durably, before it returns: an operation queued is one a crash
    /// does not lose, and one answered is not sent again (if it were, its `opId` answers it).
    func save(_ operations: [PendingOperation]) throws
}

/// The outbox as a JSON file, replaced whole on each save: written beside it, flushed to disk and
/// renamed over it, so a crash leaves the old list or the new one, never a torn one.
public struct FileOutboxStorage: OutboxStorage {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> [PendingOperation] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try JSONDecoder().decode([PendingOperation].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public func save(_ operations: [PendingOperation]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFileWrite.replace(path, with: encoder.encode(operations))
    }
}

/// An outbox that lasts as long as the process: for tests and previews.
public final class InMemoryOutboxStorage: OutboxStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var saved: [PendingOperation] = []

    public init(_ operations: [PendingOperation] = []) {
        saved = operations
    }

    public func load() throws -> [PendingOperation] { lock.withLock { saved } }
    public func save(_ operations: [PendingOperation]) throws { lock.withLock { saved = operations } }
}
