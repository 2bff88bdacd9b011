import LifeSignalClient

/// Saves `watch`'s device state as it goes, so that a watch that dies without a chance to save
/// (SIGKILL, a crash, a power cut) resumes at most about a second back instead of showing again
/// what it already showed: at once when a catch-up is complete (`saveNow`), after each burst of
/// events (`changed`: once they pause for `quiet`, and at most `maxDelay` after the first unsaved
/// one), and at exit (`saveNow`). Saves never overlap, and an older state never overwrites a newer one.
actor StateAutosave {
    private let read: @Sendable () async -> DeviceState?
    private let write: @Sendable (DeviceState) -> Void
    private let quiet: Duration
    private let maxDelay: Duration
    private var firstUnsaved: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?
    private var pending: Task<Void, Never>?
    private var savedSeq: Int64?

    init(
        quiet: Duration = .milliseconds(200), maxDelay: Duration = .seconds(1),
        read: @escaping @Sendable () async -> DeviceState?, write: @escaping @Sendable (DeviceState) -> Void
    ) {
        self.quiet = quiet
        self.maxDelay = maxDelay
        self.read = read
        self.write = write
    }

    /// An event or a snapshot was applied: save when its burst is over.
    func changed() {
        let now = ContinuousClock.now
        lastChange = now
        if firstUnsaved == nil { firstUnsaved = now }
        if pending == nil { pending = Task { await saveWhenDue() } }
    }

    func saveNow() async {
        pending?.cancel()
        pending = nil
        firstUnsaved = nil
        await save()
    }

    private func saveWhenDue() async {
        while let first = firstUnsaved, let last = lastChange {
            let due = min(last + quiet, first + maxDelay)
            guard ContinuousClock.now < due else { break }
            do {
                try await Task.sleep(until: due, clock: .continuous)
            } catch {
                return  // cancelled by saveNow, which saves itself
            }
        }
        pending = nil
        guard firstUnsaved != nil else { return }
        firstUnsaved = nil
        await save()
    }

    private func save() async {
        guard let state = await read() else { return }
        // Back on the actor after the read: a save that read later may have written already.
        if let savedSeq, state.lastSeq <= savedSeq { return }
        write(state)
        savedSeq = state.lastSeq
    }
}
