import LifeSignalProtocol
import LifeSignalUV

/// A reconnect storm: N devices (pairs 2p → 2p+1 made contacts) go offline at once, their users'
/// other devices cause events for them meanwhile (`StormEventMaker`), then all N reconnect with
/// `hello` + `resume: lastSeq`, at most `concurrency` connecting at a time. The window runs from
/// the first reconnect to the last device caught up (`--duration` bounds it). Each reconnect's
/// latency is connect start → hello `ok`; each catch-up is checked: the events lastSeq+1 … the
/// user's seq, with none missing and none repeated (PROTOCOL §3, §6). Loop thread only.
package final class StormScenario: LoadScenario {
    package let updates: Int
    package let concurrency: Int

    private let pairing: ContactPairing
    private var eventMaker: StormEventMaker?
    private var offline = false
    private var closing = 0
    /// Per device: its lastSeq when it went offline, and whether its reconnect has ended.
    private var seqBefore: [Int64] = []
    private var settled: [Bool] = []
    private var nextToReconnect = 0

    private var stormStartNs: UInt64 = 0
    private var lastHelloOkNs: UInt64 = 0
    private var lastSettledNs: UInt64 = 0
    private var reconnected = 0
    private var failed = 0
    private var eventsExpected = 0
    private var eventsReplayed = 0
    private var snapshots = 0
    private var missed: Int64 = 0
    private var repeated = 0

    package init(devices: Int, updates: Int, concurrency: Int) {
        self.updates = updates
        self.concurrency = concurrency
        pairing = ContactPairing((0..<devices / 2).map { ContactPairing.Link(adder: 2 * $0, addee: 2 * $0 + 1) })
    }

    package var name: String { "storm" }
    package var keepsConnections: Bool { false }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "updates", label: "profile.update per user while offline", value: updates),
         LoadReport.Parameter(key: "concurrency", label: "reconnects in progress at once (at most)", value: concurrency)]
    }

    package var latencyLabel: String? { "hello latency (connect start → hello ok)" }

    package var hasWarmup: Bool { false }

    // MARK: - Preparation: pairs, offline, events to miss

    package func prepare(in run: LoadRun) {
        pairing.start(in: run) { [unowned self, unowned run] in goOffline(run) }
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        if !pairing.isDone { pairing.handleEvent(name, on: device) }
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        _ = pairing.handle(response, from: device, in: run)
    }

    /// Every device drops its connection at once, as after a network failure (no bye).
    private func goOffline(_ run: LoadRun) {
        offline = true
        seqBefore = run.devices.map { $0.lastSeq ?? 0 }
        settled = Array(repeating: false, count: run.devices.count)
        closing = run.devices.count
        for device in run.devices { device.close() }
    }

    package func deviceDidClose(_ device: LoadDevice, in run: LoadRun) {
        guard offline, closing > 0 else { return }
        closing -= 1
        if closing > 0 { return }
        let maker = StormEventMaker(
            users: run.devices, partner: { $0 ^ 1 }, updates: updates, concurrency: run.settings.setupConcurrency,
            run: run)
        eventMaker = maker
        maker.start { [unowned self, unowned run, unowned maker] in
            eventsExpected = maker.eventsCaused.reduce(0, +)
            run.preparationFinished()
        }
    }

    // MARK: - The storm

    package func start(_ device: LoadDevice, in run: LoadRun) {
        guard device.index == 0 else { return }
        stormStartNs = MonotonicClock.nowNs()
        for _ in 0..<min(concurrency, run.devices.count) { reconnectNext(run) }
    }

    private func reconnectNext(_ run: LoadRun) {
        guard nextToReconnect < run.devices.count, run.isSending else { return }
        let device = run.devices[nextToReconnect]
        nextToReconnect += 1
        run.reconnect(device)
    }

    package func deviceDidReconnect(_ device: LoadDevice, in run: LoadRun) {
        guard run.isSending, !settled[device.index] else { return }
        reconnected += 1
        run.recordResponse(latencyNs: device.helloOkNs &- device.connectStartNs)
        lastHelloOkNs = max(lastHelloOkNs, device.helloOkNs)
        check(device.lastCatchUp, of: device)
        settle(device, run)
    }

    package func device(_ device: LoadDevice, didDisconnect error: String?, in run: LoadRun) {
        // A reconnect that failed, or a device lost before it caught up.
        guard run.isSending, !settled[device.index] else { return }
        failed += 1
        settle(device, run)
    }

    private func settle(_ device: LoadDevice, _ run: LoadRun) {
        settled[device.index] = true
        lastSettledNs = MonotonicClock.nowNs()
        if reconnected + failed == run.devices.count {
            run.endWindow()
        } else {
            reconnectNext(run)
        }
    }

    /// The catch-up must bring the device from where it went offline to the user's seq, which
    /// includes every event the scenario caused for it.
    private func check(_ catchUp: LoadDevice.CatchUp, of device: LoadDevice) {
        let expected = seqBefore[device.index] + Int64(eventMaker?.eventsCaused[device.index] ?? 0)
        let reached = device.lastSeq ?? 0
        eventsReplayed += catchUp.events
        if catchUp.snapshot { snapshots += 1 }
        repeated += catchUp.repeated
        missed += catchUp.missed + max(0, expected - reached)
    }

    // MARK: - Report

    package func results(in run: LoadRun) -> [LoadReport.Figure] {
        let helloSeconds = Double(lastHelloOkNs &- stormStartNs) / 1e9
        return [
            .count("reconnected", "devices reconnected and caught up", reconnected),
            .count("notReconnected", "devices not reconnected by the end", run.devices.count - reconnected),
            .perSecond("hellosPerSec", "hellos/s (first connect → last hello ok)",
                       reconnected > 0 && helloSeconds > 0 ? Double(reconnected) / helloSeconds : 0),
            .seconds("stormSec", "storm (first connect → last device caught up or lost)",
                     lastSettledNs > 0 ? Double(lastSettledNs - stormStartNs) / 1e9 : 0),
            .count("eventsMissedOffline", "events caused while offline (to catch up)", eventsExpected),
            .count("eventsReplayed", "events replayed by resume", eventsReplayed),
            .count("snapshots", "catch-ups sent as a snapshot (resume older than retention)", snapshots),
            .count("missed", "events missed (gaps in seq)", missed),
            .count("repeated", "events repeated", repeated),
        ]
    }

    package func verificationFailure(in run: LoadRun) -> String? {
        let notReconnected = run.devices.count - reconnected
        guard missed > 0 || repeated > 0 || notReconnected > 0 else { return nil }
        return "storm: \(NumberFormat.grouped(missed)) events missed, \(NumberFormat.grouped(repeated)) repeated, "
            + "\(NumberFormat.grouped(notReconnected)) of \(NumberFormat.grouped(run.devices.count)) devices "
            + "not reconnected"
    }
}
