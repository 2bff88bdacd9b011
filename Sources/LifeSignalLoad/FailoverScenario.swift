import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV

/// A broker of a cluster dies under its devices (issue 13): devices are spread over the brokers
/// (device k on broker k mod n; pairs 2p → 2p+1 made contacts, so partners are on different
/// brokers). When the clock starts the first broker is SIGKILLed (`killPID`); each of its
/// devices, as it notices, moves to the next broker and says hello with `resume`, while each
/// partner makes `updates` profile changes its user must see. The window ends when every moved
/// device has seen all of them. Checked: the catch-up and the live events after it run on from
/// where the device was, with no seq missed and none repeated. Loop thread only.
package final class FailoverScenario: LoadScenario {
    package static let profileUpdateKind = LoadRequestKind.firstScenarioKind

    package let updates: Int
    package let killPID: Int32
    private let pairing: ContactPairing
    private var brokers: [Endpoint] = []

    private var killedNs: UInt64 = 0
    /// Devices on the killed broker: their seq when it died, the seq they must reach, the last
    /// seq they were sent since, and when they were back.
    private var seqBefore: [Int: Int64] = [:]
    private var tracked: [Int: Int64] = [:]
    private var resumedNs: [Int: UInt64] = [:]
    private var caughtUpNs: [Int: UInt64] = [:]
    private var updatesAnswered = 0
    private var updatesFailed = 0
    private var missed: Int64 = 0
    private var repeated = 0
    private var failedReconnects = 0

    package init(devices: Int, updates: Int, killPID: Int32) {
        self.updates = updates
        self.killPID = killPID
        pairing = ContactPairing((0..<devices / 2).map { ContactPairing.Link(adder: 2 * $0, addee: 2 * $0 + 1) })
    }

    package var name: String { "failover" }
    package var keepsConnections: Bool { false }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "updates", label: "profile.update per partner of a moved device", value: updates),
         LoadReport.Parameter(key: "killedPid", label: "broker killed (pid)", value: Int(killPID))]
    }

    package var latencyLabel: String? { "failover (kill → hello ok on the next broker)" }

    package var hasWarmup: Bool { false }

    package func prepare(in run: LoadRun) {
        brokers = run.settings.brokers
        pairing.start(in: run) { [unowned run] in run.preparationFinished() }
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        if pairing.handle(response, from: device, in: run) { return }
        guard response.kind == Self.profileUpdateKind else { return }
        if response.errorCode == nil { updatesAnswered += 1 } else { updatesFailed += 1 }
        sendUpdate(from: device, in: run)
        endIfDone(run)
    }

    // MARK: - The kill

    package func start(_ device: LoadDevice, in run: LoadRun) {
        guard device.index == 0 else { return }
        for candidate in run.devices where isOnKilledBroker(candidate, run) {
            seqBefore[candidate.index] = candidate.lastSeq ?? 0
        }
        killedNs = MonotonicClock.nowNs()
        kill(killPID, SIGKILL)
        // The partners of the moved devices change their names, one request at a time each.
        for index in seqBefore.keys { sendUpdate(from: run.devices[index ^ 1], in: run) }
    }

    private var updatesSent: [Int: Int] = [:]

    private func sendUpdate(from partner: LoadDevice, in run: LoadRun) {
        let sent = updatesSent[partner.index, default: 0]
        guard sent < updates, run.isSending else { return }
        updatesSent[partner.index] = sent + 1
        partner.send(.profileUpdate(ProfileUpdate(name: "\(partner.deviceID) \(sent + 1)")), kind: Self.profileUpdateKind,
                     wantsFields: false)
    }

    private func isOnKilledBroker(_ device: LoadDevice, _ run: LoadRun) -> Bool {
        (run.settings.deviceOffset + device.index) % brokers.count == 0
    }

    private var attempts: [Int: Int] = [:]
    package static let maxAttempts = 3

    /// A moved device's connection is gone: it tries the next broker, a few times at most.
    package func deviceDidClose(_ device: LoadDevice, in run: LoadRun) {
        guard killedNs > 0, seqBefore[device.index] != nil, resumedNs[device.index] == nil else { return }
        let attempt = attempts[device.index, default: 0] + 1
        attempts[device.index] = attempt
        guard attempt <= Self.maxAttempts else {
            failedReconnects += 1
            return endIfDone(run)
        }
        device.broker = brokers[attempt % brokers.count == 0 ? 1 % brokers.count : attempt % brokers.count]
        run.reconnect(device)
    }

    package func deviceDidReconnect(_ device: LoadDevice, in run: LoadRun) {
        guard let before = seqBefore[device.index] else { return }
        resumedNs[device.index] = device.helloOkNs
        run.recordResponse(latencyNs: device.helloOkNs &- killedNs)
        let catchUp = device.lastCatchUp
        repeated += catchUp.repeated
        missed += catchUp.missed
        if !catchUp.snapshot, catchUp.events == 0, (device.lastSeq ?? 0) < before { missed += 1 }
        tracked[device.index] = device.lastSeq ?? before
        checkCaughtUp(device, run)
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        if !pairing.isDone { return pairing.handleEvent(name, on: device) }
        guard let last = tracked[device.index] else { return }
        if seq <= last {
            repeated += 1
        } else {
            missed += seq - last - 1
            tracked[device.index] = seq
        }
        checkCaughtUp(device, run)
    }

    /// A moved device has caught up once it has seen every change its partner made.
    private func checkCaughtUp(_ device: LoadDevice, _ run: LoadRun) {
        guard caughtUpNs[device.index] == nil, let before = seqBefore[device.index],
              let last = tracked[device.index], last >= before + Int64(updates) else { return }
        caughtUpNs[device.index] = MonotonicClock.nowNs()
        endIfDone(run)
    }

    private func endIfDone(_ run: LoadRun) {
        let allUpdates = seqBefore.count * updates
        guard caughtUpNs.count + failedReconnects == seqBefore.count,
              updatesAnswered + updatesFailed == allUpdates else { return }
        run.endWindow()
    }

    // MARK: - Report

    package func results(in run: LoadRun) -> [LoadReport.Figure] {
        let lastResumed = resumedNs.values.max().map { Double($0 &- killedNs) / 1e9 } ?? 0
        let lastCaughtUp = caughtUpNs.values.max().map { Double($0 &- killedNs) / 1e9 } ?? 0
        return [
            .count("moved", "devices on the killed broker", seqBefore.count),
            .count("resumed", "devices resumed on the next broker", resumedNs.count),
            .seconds("lastResumedSec", "kill → last device resumed (hello ok)", lastResumed),
            .seconds("lastCaughtUpSec", "kill → last device saw every change made meanwhile", lastCaughtUp),
            .count("updatesAnswered", "partners' profile.update answered ok", updatesAnswered),
            .count("updatesFailed", "partners' profile.update refused or failed", updatesFailed),
            .count("missed", "events missed (gaps in seq)", missed),
            .count("repeated", "events repeated", repeated),
        ]
    }

    package func verificationFailure(in run: LoadRun) -> String? {
        let notResumed = seqBefore.count - caughtUpNs.count
        guard missed > 0 || repeated > 0 || notResumed > 0 else { return nil }
        return "failover: \(NumberFormat.grouped(missed)) events missed, \(NumberFormat.grouped(repeated)) repeated, "
            + "\(NumberFormat.grouped(notResumed)) of \(NumberFormat.grouped(seqBefore.count)) moved devices not caught up"
    }
}
