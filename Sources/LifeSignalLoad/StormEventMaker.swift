import LifeSignalProtocol

/// Gives a storm's offline devices something to catch up on. For each storm device's user, a
/// second device of that user ("load-N.other") says hello, sends `updates` profile.update
/// requests, each with a new name, and says bye. Every update is one `user.updated` for the user
/// and one `contact.updated` for its partner (PROTOCOL §5), and both are stored before its `ok`
/// (§6), so after the last `ok` each user has `eventsCaused` events its storm device missed.
/// A bounded number of these devices at a time, on the sockets the storm devices gave back.
/// Loop thread only.
package final class StormEventMaker: LoadDeviceDelegate {
    package static let profileUpdateKind = LoadRequestKind.firstScenarioKind

    private let users: [LoadDevice]
    private let partner: (Int) -> Int
    private let updates: Int
    private let concurrency: Int
    // Unowned: the run owns the scenario, which owns this maker.
    private unowned let run: LoadRun
    private var others: [LoadDevice?]
    private var answered: [Int]
    private var next = 0
    private var closed = 0
    private var onDone: (() -> Void)?
    private var failed = false
    /// Events each user (by storm device index) got from the updates so far.
    private(set) var eventsCaused: [Int]

    /// - Parameter partner: the index of the storm device whose user is a contact of this one's.
    package init(users: [LoadDevice], partner: @escaping (Int) -> Int, updates: Int, concurrency: Int, run: LoadRun) {
        self.users = users
        self.partner = partner
        self.updates = updates
        self.concurrency = concurrency
        self.run = run
        others = Array(repeating: nil, count: users.count)
        answered = Array(repeating: 0, count: users.count)
        eventsCaused = Array(repeating: 0, count: users.count)
    }

    /// Starts; `onDone` runs once every other device has made its updates and closed. A failure
    /// ends the run's preparation.
    package func start(onDone: @escaping () -> Void) {
        self.onDone = onDone
        if users.isEmpty || updates == 0 { return finish() }
        for _ in 0..<min(concurrency, users.count) { startNext() }
    }

    private func startNext() {
        guard next < users.count, !failed else { return }
        let user = users[next]
        guard let credential = user.credential else { return fail("\(user.deviceID) has no user") }
        let other = LoadDevice(
            index: next, deviceID: "\(user.deviceID).other", credential: credential, loop: run.loop,
            broker: run.settings.broker, sourceAddress: SourceAddresses(brokerHost: run.settings.broker.host)
                .address(for: run.settings.deviceOffset + next),
            delegate: self)
        others[next] = other
        next += 1
        other.connect()
    }

    /// Ends the run's preparation; no other device starts after this.
    private func fail(_ reason: String) {
        guard !failed else { return }
        failed = true
        run.preparationFailed(reason)
    }

    private func finish() {
        guard let onDone else { return }
        self.onDone = nil
        onDone()
    }

    // MARK: - LoadDeviceDelegate

    package func deviceIsReady(_ device: LoadDevice) {
        let name = users[device.index].deviceID
        for update in 1...updates {
            device.send(.profileUpdate(ProfileUpdate(name: "\(name) #\(update)")), kind: Self.profileUpdateKind,
                        wantsFields: false)
        }
    }

    package func device(_ device: LoadDevice, setupFailed reason: String) {
        fail("\(device.deviceID): \(reason)")
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse) {
        if let code = response.errorCode {
            return fail("profile.update by \(device.deviceID): \(code.rawValue)")
        }
        eventsCaused[device.index] += 1
        eventsCaused[partner(device.index)] += 1
        answered[device.index] += 1
        if answered[device.index] == updates { device.sayBye() }
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64) {}

    package func device(_ device: LoadDevice, didDisconnect error: String?) {
        guard answered[device.index] < updates else { return }
        fail("\(device.deviceID) was disconnected: \(error ?? "closed")")
    }

    package func deviceDidClose(_ device: LoadDevice) {
        others[device.index] = nil
        closed += 1
        if closed == users.count {
            finish()
        } else {
            startNext()
        }
    }
}
