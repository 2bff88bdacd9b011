import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules

/// The embedded store's answers are the writer's: every read runs in its queue, after the writes
/// submitted before it, as the embedded engine's own reads do (`StoreQuery`).
extension SQLiteStore: EngineStore {
    public func commit(_ changes: [StoreChange]) async throws {
        _ = try await submitted(StoreWrite(changes: changes))
    }

    public func qrCodeOwner(_ qrCode: String) async throws -> QRCodeOwner? {
        let query = StoreQuery.qrCodeOwner(qrCode)
        guard case .qrCodeOwner(let owner) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return owner
    }

    public func notification(_ id: String, of userID: String, history: Int) async throws -> LifeSignalProtocol.Notification? {
        let query = StoreQuery.notification(userID: userID, id: id, history: history)
        guard case .notification(let notification) = try await answer(query) else {
            throw MismatchedStoreAnswer(query: query)
        }
        return notification
    }

    public func notifications(of userID: String, before: String?, limit: Int, history: Int) async throws
        -> [LifeSignalProtocol.Notification]?
    {
        let query = StoreQuery.notifications(userID: userID, beforeID: before, limit: limit, history: history)
        guard case .notifications(let page) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return page
    }

    public func pushes(of userID: String) async throws -> [PushMessage] {
        let query = StoreQuery.pushes(userID: userID)
        guard case .pushes(let pushes) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return pushes
    }

    public func accounts(of ids: Set<String>) async throws -> [String: Account] {
        let query = StoreQuery.accounts(Array(ids))
        guard case .accounts(let accounts) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0) })
    }

    public func pendingDeadlines() async throws -> [String: Int64] {
        let query = StoreQuery.pendingDeadlines
        guard case .deadlines(let deadlines) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return Dictionary(uniqueKeysWithValues: deadlines.map { ($0.userID, $0.deadline) })
    }

    public func devices(of userID: String) async throws -> [DeviceRecord] {
        let query = StoreQuery.devices(userID: userID)
        guard case .devices(let devices) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return devices.sorted { $0.key.deviceID < $1.key.deviceID }
    }

    public func events(of userID: String, after: Int64, through: Int64, maxBytes: Int) async throws -> [[UInt8]]? {
        let query = StoreQuery.events(userID: userID, afterSeq: after, throughSeq: through, maxBytes: maxBytes)
        guard case .events(let bodies) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return bodies
    }

    public func keptOutcome(_ opID: String, of userID: String) async throws -> KeptOutcome? {
        let query = StoreQuery.keptOutcome(userID: userID, opID: opID)
        guard case .keptOutcome(let outcome) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return outcome
    }

    public func keptOutcomes(of userID: String) async throws -> [KeptOutcome] {
        let query = StoreQuery.keptOutcomes(userID: userID)
        guard case .keptOutcomes(let outcomes) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return outcomes
    }

    public func deviceCredentials(of userID: String) async throws -> [DeviceCredential] {
        let query = StoreQuery.deviceCredentials(userID: userID)
        guard case .deviceCredentials(let credentials) = try await answer(query) else {
            throw MismatchedStoreAnswer(query: query)
        }
        return credentials
    }

    public func linkCode(_ code: String) async throws -> LinkCode? {
        let query = StoreQuery.linkCode(code)
        guard case .linkCode(let link) = try await answer(query) else { throw MismatchedStoreAnswer(query: query) }
        return link
    }

    private func answer(_ query: StoreQuery) async throws -> StoreQueryResult? {
        try await submitted(StoreWrite(changes: [], query: query)).queryResult
    }

    private func submitted(_ write: StoreWrite) async throws -> StoreWriteResult {
        try await withCheckedThrowingContinuation { done in submit(write) { done.resume(with: $0) } }
    }
}

/// A store answered a query with a result of another kind: a bug, not a condition.
package struct MismatchedStoreAnswer: Error {
    package let query: StoreQuery
}
