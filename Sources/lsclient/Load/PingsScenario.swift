import LifeSignalProtocol
import LifeSignalUV

/// Open loop: P responder→dependent pairs, pings at a constant total rate R whatever the broker
/// does. Ping i is due at start + i/R, on pair i mod P; a 1 ms loop timer sends every ping that
/// is due. Latency runs from the due time (not the actual write: the correction for coordinated
/// omission) to the dependent device reading its `notification.added`. Each ping is stored
/// durably before it is delivered, so this measures the broker's store path as well as routing.
///
/// Devices 2p and 2p+1 are pair p's responder and dependent. The pingId comes in the
/// responder's `ok`, which may arrive after the notification, so notifications are matched by
/// order: a FIFO of due times per pair.
final class PingsScenario: LoadScenario {
    static let contactsAddKind = LoadRequestKind.firstScenarioKind
    static let pingKind = LoadRequestKind.firstScenarioKind + 1

    let pairs: Int
    let rate: Int

    private var dueTimes: [IntendedTimeQueue]
    private var timer: Timer?
    private var scheduleStartNs: UInt64 = 0
    private var nextPing: UInt64 = 0

    // Preparation: one contacts.add per pair; both sides' answers awaited.
    private var contactAdded: [Bool]
    private var dependentNotified: [Bool]
    private var preparedPairs = 0

    init(pairs: Int, rate: Int) {
        self.pairs = pairs
        self.rate = rate
        dueTimes = Array(repeating: IntendedTimeQueue(), count: pairs)
        contactAdded = Array(repeating: false, count: pairs)
        dependentNotified = Array(repeating: false, count: pairs)
    }

    var name: String { "pings" }

    var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "pairs", label: "responder→dependent pairs", value: pairs),
         LoadReport.Parameter(key: "rate", label: "intended pings/s (open loop)", value: rate)]
    }

    var measuresResponseLatency: Bool { false }

    private func responder(_ pair: Int, _ run: LoadRun) -> LoadDevice { run.devices[2 * pair] }
    private func dependent(_ pair: Int, _ run: LoadRun) -> LoadDevice { run.devices[2 * pair + 1] }

    // MARK: - Preparation

    func prepare(in run: LoadRun) {
        run.outstandingAtEnd = { [unowned self] in UInt64(dueTimes.reduce(0) { $0 + $1.count }) }
        for pair in 0..<pairs {
            guard let qrCode = dependent(pair, run).qrCode else {
                return run.preparationFailed("the register result of \(dependent(pair, run).deviceID) has no qrCode")
            }
            responder(pair, run).send(
                Op.contactsAdd, kind: Self.contactsAddKind,
                ["qrCode": .string(qrCode), "isResponder": .bool(false), "isDependent": .bool(true)])
        }
    }

    private func pairPrepared(_ pair: Int, _ run: LoadRun) {
        guard contactAdded[pair], dependentNotified[pair] else { return }
        preparedPairs += 1
        if preparedPairs == pairs { run.preparationFinished() }
    }

    // MARK: - Open loop

    func start(_ device: LoadDevice, in run: LoadRun) {
        guard timer == nil else { return }
        do {
            timer = try Timer(loop: run.loop)
        } catch {
            return run.preparationFailed("no timer: \(error)")
        }
        scheduleStartNs = MonotonicClock.nowNs()
        timer?.start(afterMs: 1, repeatMs: 1) { [unowned self, unowned run] in tick(run) }
    }

    /// Sends every ping due by now, however many that is: the schedule never waits for the broker.
    private func tick(_ run: LoadRun) {
        guard run.isSending else {
            timer?.close()
            return
        }
        let now = MonotonicClock.nowNs()
        let elapsed = now - scheduleStartNs
        // Pings due by now: floor(elapsed × R) + 1 (ping 0 is due at the start).
        let due = UInt64((Double(elapsed) * Double(rate) / 1e9).rounded(.down)) + 1
        while nextPing < due {
            let dueNs = scheduleStartNs + UInt64((Double(nextPing) * 1e9 / Double(rate)).rounded())
            let pair = Int(nextPing % UInt64(pairs))
            nextPing += 1
            let device = responder(pair, run)
            guard device.state == .ready, let contactID = dependent(pair, run).credential?.userID,
                  dependent(pair, run).state == .ready
            else { continue }  // a lost connection: its pings are not sent (the disconnect is reported)
            dueTimes[pair].append(dueNs)
            run.recordSent()
            device.send(Op.pingSend, kind: Self.pingKind, ["contactId": .string(contactID)], startNs: dueNs,
                        wantsFields: false)
        }
    }

    // MARK: - Traffic

    func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        let pair = device.index / 2
        switch response.kind {
        case Self.contactsAddKind:
            if let code = response.errorCode {
                return run.preparationFailed("contacts.add by \(device.deviceID): \(code.rawValue)")
            }
            contactAdded[pair] = true
            pairPrepared(pair, run)
        case Self.pingKind:
            // A failed ping gets no notification (errors are counted by the run).
            if response.errorCode != nil { dueTimes[pair].remove(response.startNs) }
        default:
            break
        }
    }

    func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        guard name == EventName.notificationAdded, device.index % 2 == 1 else { return }
        let pair = device.index / 2
        if !run.isSending {
            // Preparation: the dependent's "added you" notification.
            if !dependentNotified[pair] {
                dependentNotified[pair] = true
                pairPrepared(pair, run)
            }
            return
        }
        guard let dueNs = dueTimes[pair].popFirst() else { return }
        run.recordDelivery(ns: receivedNs >= dueNs ? receivedNs - dueNs : 0)
    }
}
