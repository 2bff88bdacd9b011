import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite

extension Broker {
    /// Calls `body` with the user's session, loading it from the store first if needed;
    /// nil when no such user exists. Callers that arrive while it loads wait in order.
    func withSession(_ userID: String, _ body: @escaping (SessionLookup) -> Void) {
        switch users[userID] {
        case .loaded(let session):
            if session.onLoop({ $0.isStale }) {
                // A stale session is reloaded once its last commit has finished; wait for that.
                pendingReloads[userID, default: []].append(body)
            } else {
                body(.success(session))
            }
        case .loading(let waiters):
            users[userID] = .loading(waiters: waiters + [body])
        case nil:
            load(userID, waiters: [body])
        }
    }

    /// Calls `body` once every one of `userIDs` that exists is loaded, with those sessions by id,
    /// or with the store's error if any of them could not be read. They are pinned until `body`
    /// returns, so none is unloaded while the others load.
    func withSessions(_ userIDs: Set<String>,
                      _ body: @escaping @Sendable (Result<[String: UserSession], any Error>) -> Void) {
        guard !userIDs.isEmpty else { return body(.success([:])) }
        let gathering = SessionGathering(count: userIDs.count)
        for userID in userIDs {
            withSession(userID) { lookup in
                switch lookup {
                case .success(let session?):
                    session.onLoop { $0.pin() }
                    gathering.loaded[userID] = session
                case .success(nil):
                    break
                case .failure(let error):
                    gathering.failure = error
                }
                gathering.remaining -= 1
                guard gathering.remaining == 0 else { return }
                body(gathering.failure.map { .failure($0) } ?? .success(gathering.loaded))
                for session in gathering.loaded.values { session.onLoop { $0.unpin() } }
            }
        }
    }

    /// The session of a user who is loaded now, if any.
    func loadedSession(_ userID: String) -> UserSession? {
        if case .loaded(let session) = users[userID] { session } else { nil }
    }

    private func load(_ userID: String, waiters: [(SessionLookup) -> Void]) {
        users[userID] = .loading(waiters: waiters)
        // The trim is housekeeping, a write of its own: on a full disk it fails, and the read
        // after it (which needs no room) still lets the user in (PROTOCOL §10's history waits).
        let trim = notificationHistoryTrim(of: userID)
        if !trim.isEmpty {
            submit(StoreWrite(changes: trim)) { [self] result in
                guard case .failure(let error) = result else { return }
                onLoop { $0.logStoreFailure("could not trim a user's notifications", ["lifesignal.error": "\(error)"]) }
            }
        }
        submit(StoreWrite(changes: [], query: .user(id: userID))) { [self] result in
            let loaded = result.map { written -> StoredUser? in
                if case .user(let stored) = written.queryResult { stored } else { nil }
            }
            onLoop { $0.finishLoading(userID, loaded) }
        }
    }

    private func finishLoading(_ userID: String, _ result: Result<StoredUser?, Error>) {
        guard case .loading(let waiters) = users[userID] else { return }
        var session: UserSession?
        var failure: (any Error)?
        switch result {
        case .success(var stored?):
            // A token that moved to a loaded device while this user loaded stays with its new owner:
            // the read ran before the move, which the store applies after it.
            for index in stored.devices.indices {
                guard let token = stored.devices[index].pushToken else { continue }
                if let owner = pushTokenOwners[token], owner != stored.devices[index].key {
                    stored.devices[index].pushToken = nil
                } else {
                    pushTokenOwners[token] = stored.devices[index].key
                }
            }
            let loaded = UserSession(stored: stored, broker: self, loop: loop)
            logger.debug("user loaded", metadata: ["lifesignal.user": "\(userID)", "lifesignal.seq": .stringConvertible(stored.lastSeq)])
            users[userID] = .loaded(loaded)
            // The stored deadline is the true one: after a failed write the scheduler may differ.
            deadlineChanged(for: stored.user)
            session = loaded
        case .success(nil):
            users[userID] = nil
        case .failure(let error):
            logStoreFailure("could not load user", ["lifesignal.user": "\(userID)", "lifesignal.error": "\(error)"])
            users[userID] = nil
            failure = error
        }
        // Pinned while the waiters run: one whose request fails must not unload the user
        // under the next, which would then act on a session no longer in the registry.
        session?.onLoop { $0.pin() }
        let lookup: SessionLookup = failure.map { .failure($0) } ?? .success(session)
        for waiter in waiters { waiter(lookup) }
        session?.onLoop { $0.unpin() }
    }

    /// Unloads a session nobody needs: no device online, nothing in flight.
    func evictIfIdle(_ session: UserSession) {
        guard case .loaded(let current) = users[session.userID], current === session else { return }
        let (idle, stale, erased, tokens) = session.onLoop {
            ($0.isIdle, $0.isStale, $0.isErased, $0.devices.values.compactMap(\.pushToken))
        }
        guard idle else { return }
        logger.debug("user unloaded", metadata: [
            "lifesignal.user": "\(session.userID)", "lifesignal.seq": .stringConvertible(session.onLoop { $0.lastSeq }),
        ])
        users[session.userID] = nil
        session.onLoop { $0.leaveMirrorWithContacts() }
        forgetPushTokens(tokens, of: session.userID)
        if let waiters = pendingReloads.removeValue(forKey: session.userID) {
            load(session.userID, waiters: waiters)
        } else if stale && !erased {
            // Not at once: the store just failed, and reloading would fire a due deadline into it again.
            retryAfterStoreFailure(.reload(userID: session.userID))
        }
    }

    /// `device.register` moved `token` to `key`: whichever loaded device held it loses it. Returns
    /// the holder's session, which the request touches: its memory changed in the same step.
    func takePushToken(_ token: String, for key: DeviceKey) -> UserSession? {
        defer { pushTokenOwners[token] = key }
        guard let previous = pushTokenOwners[token], previous != key,
              case .loaded(let holder) = users[previous.userID] else { return nil }
        holder.onLoop { $0.dropPushToken(token, deviceID: previous.deviceID) }
        return holder
    }

    /// The user's memory no longer speaks for these tokens (unloaded, or stale after a failed
    /// write): whoever loads next takes the store's word for them.
    func forgetPushTokens(_ tokens: [String], of userID: String) {
        for token in tokens where pushTokenOwners[token]?.userID == userID { pushTokenOwners[token] = nil }
    }

    func releasePushToken(_ token: String, from key: DeviceKey) {
        if pushTokenOwners[token] == key { pushTokenOwners[token] = nil }
    }
}

/// The sessions `withSessions` has gathered so far. Loop thread only.
/// A user's session once loaded; nil when there is no such user; the error when the store could
/// not be read (answered `internal`, never as if the user did not exist).
typealias SessionLookup = Result<UserSession?, any Error>

private final class SessionGathering: @unchecked Sendable {
    var loaded: [String: UserSession] = [:]
    var failure: (any Error)?
    var remaining: Int
    init(count: Int) { remaining = count }
}
