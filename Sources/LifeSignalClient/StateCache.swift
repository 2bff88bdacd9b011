import Foundation

/// Where a client keeps its last `DeviceState` between runs (`ClientConfiguration.stateCache`),
/// so that an app opened offline shows it at once and its next `hello` resumes from it. An app
/// supplies its own (a database row) or uses `FileStateCache`.
public protocol StateCache: Sendable {
    /// What was saved last; nil if nothing was.
    func load() throws -> DeviceState?
    /// Replaces what is saved.
    func save(_ state: DeviceState) throws
    /// Forgets what is saved (the device was signed out, or the account deleted).
    func clear() throws
}

/// The state as a JSON file (`DeviceState.serialized()`), replaced whole on each save: written
/// beside it, flushed to disk and renamed over it, so a crash leaves the old state or the new one.
public struct FileStateCache: StateCache {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> DeviceState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try DeviceState(serialized: Array(Data(contentsOf: URL(fileURLWithPath: path))))
    }

    public func save(_ state: DeviceState) throws {
        try AtomicFileWrite.replace(path, with: Data(state.serialized()))
    }

    public func clear() throws {
        try AtomicFileWrite.remove(path)
    }
}

/// A cache that lasts as long as the process: for tests and previews.
public final class InMemoryStateCache: StateCache, @unchecked Sendable {
    private let lock = NSLock()
    private var saved: DeviceState?

    public init(_ state: DeviceState? = nil) {
        saved = state
    }

    public func load() throws -> DeviceState? { lock.withLock { saved } }
    public func save(_ state: DeviceState) throws { lock.withLock { saved = state } }
    public func clear() throws { lock.withLock { saved = nil } }
}
