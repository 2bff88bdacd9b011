import Logging

/// The state cache (issue 27 item 6): the client's last state, kept in `configuration.stateCache`
/// so that an app opened offline shows it at once and resumes from it. Changes are saved a moment
/// after they come, together: a catch-up of a thousand events is a few writes, not a thousand.
extension LifeSignalClient {
    /// Whether the cache is behind `state`, and whether a save is already on its way.
    struct StateCacheProgress {
        var isBehind = false
        var saveIsScheduled = false
    }

    /// While changes keep coming, the cache is written at most once per this.
    static let stateSaveDelayMs: UInt64 = 250

    /// The state a new client starts from: `initialState` if it is this user's; without one, the
    /// cache's if it is. A cache that cannot be read counts as empty: the app must still open.
    static func startingState(_ configuration: ClientConfiguration, logger: Logger) -> DeviceState? {
        if let initial = configuration.initialState {
            return initial.user.id == configuration.userID ? initial : nil
        }
        guard let cache = configuration.stateCache else { return nil }
        let cached: DeviceState?
        do {
            cached = try cache.load()
        } catch {
            logger.warning("cached state not read", metadata: ["lifesignal.error": "\(error)"])
            return nil
        }
        guard let cached, cached.user.id == configuration.userID else {
            if cached != nil { logger.debug("ignoring another user's cached state") }
            return nil
        }
        return cached
    }

    /// `state` changed (`publish`): it is saved once the delay is over, with whatever else
    /// changed by then.
    func scheduleStateSave() {
        guard configuration.stateCache != nil, lifecycle != .closed else { return }
        stateCacheProgress.isBehind = true
        guard !stateCacheProgress.saveIsScheduled else { return }
        timers.stateCache.start(afterMs: Self.stateSaveDelayMs) { [weak self] in
            self?.assumeIsolated { $0.saveStateNow() }
        }
        stateCacheProgress.saveIsScheduled = true
    }

    /// Saves `state` now if the cache is behind it: when the delay is over, and before the app
    /// may be suspended or the client ends (`close()`, `bye()`, `didEnterBackground()`).
    func saveStateNow() {
        timers.stopStateCache()
        stateCacheProgress.saveIsScheduled = false
        guard stateCacheProgress.isBehind, let cache = configuration.stateCache, let state else { return }
        do {
            try cache.save(state)
            stateCacheProgress.isBehind = false
        } catch {
            // Still behind: the next change or the next final save tries again.
            logger.warning("state not cached", metadata: ["lifesignal.error": "\(error)"])
        }
    }

    /// The account is no longer this device's (deleted, the device revoked or signed out): what
    /// the cache kept of it goes, and no save still pending writes it back.
    func clearStateCache() {
        timers.stopStateCache()
        stateCacheProgress = StateCacheProgress()
        guard let cache = configuration.stateCache else { return }
        do {
            try cache.clear()
        } catch {
            logger.error("cached state not cleared", metadata: ["lifesignal.error": "\(error)"])
        }
    }
}
