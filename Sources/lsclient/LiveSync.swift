import LifeSignalClient

/// `sync --live`: each device of the profile on a connection of its own, as that device (a hello
/// with its id, resuming from its saved state), so the table shows what each holds once caught up
/// and, with --watch, as events arrive; each state is saved as `watch` saves it. The broker allows
/// one connection per device: a `watch` running as one of them is replaced.
struct LiveSync {
    let globals: GlobalOptions
    let devices: [String]

    /// Connects every device; `show` is given the rows once all have caught up, then (while
    /// `keepWatching`) whenever one of them changes, until a signal or `deadline`.
    func run(keepWatching: Bool, deadline: ContinuousClock.Instant?,
             show: @escaping ([DeviceSync.Row]) -> Void) async throws {
        let contexts = try devices.map { device throws(CLIError) in try CommandContext(globals, device: device) }
        let clients = try contexts.map { try $0.makeClient(reconnect: ReconnectPolicy()) }
        let autosaves = zip(contexts, clients).map { context, client in
            let stateFile = context.stateFile
            return StateAutosave(read: { await client.state }, write: { stateFile.save($0) })
        }
        let stopAll = { @Sendable in for client in clients { await WatchCommand.stop(client) } }
        let trap = SignalTrap { Task { await stopAll() } }
        defer { trap.cancel() }

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { try await client.connect() } }
                try await group.waitForAll()
            }
        } catch {
            await stopAll()
            throw error as? LifeSignalClientError ?? .connectionFailed("\(error)")
        }
        for autosave in autosaves { await autosave.saveNow() }
        show(await rows(of: clients))

        if keepWatching {
            let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let listeners = zip(clients, autosaves).map { client, autosave in
                Task {
                    for await event in client.events {
                        if case .disconnected(_, false) = event { break }
                        await autosave.changed()
                        changed.yield()
                    }
                }
            }
            let timer = deadline.map { deadline in Task { try await Task.sleep(until: deadline); await stopAll() } }
            // Every listener ends when its client is closed (a signal, the deadline, or for good).
            let ended = Task { for listener in listeners { await listener.value }; changed.finish() }
            for await _ in changes { show(await rows(of: clients)) }
            timer?.cancel()
            _ = await ended.value
        }
        await stopAll()
        for autosave in autosaves { await autosave.saveNow() }
    }

    private func rows(of clients: [LifeSignalClient]) async -> [DeviceSync.Row] {
        var rows: [DeviceSync.Row] = []
        for (device, client) in zip(devices, clients) {
            if let state = await client.state { rows.append(DeviceSync.Row(device: device, state: state)) }
        }
        return rows
    }
}
