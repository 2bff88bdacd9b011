import LifeSignalClient

/// Where one (profile, device) keeps its `DeviceState` between runs. A value, so that a task of its
/// own (`StateAutosave`) can save while the command goes on.
struct StateFile: Sendable {
    let store: ProfileStore
    let profile: String
    let device: String

    /// The saved state, or nil. A damaged file is reported and ignored: a snapshot rebuilds it.
    func load() -> DeviceState? {
        do {
            return try store.loadState(profile: profile, device: device)
        } catch {
            Console.err("warning: \(error); starting from a snapshot")
            return nil
        }
    }

    /// A failed save is reported, not fatal: the next run resumes from further back, nothing worse.
    func save(_ state: DeviceState?) {
        guard let state else { return }
        do {
            try store.saveState(state, profile: profile, device: device)
        } catch {
            Console.err("warning: \(error)")
        }
    }
}
