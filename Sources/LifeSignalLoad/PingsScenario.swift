import LifeSignalProtocol

/// Open loop: P responder→dependent pairs, pings at a constant total rate R whatever the broker
/// does. Ping i is due at start + i/R, on pair i mod P (`OpenLoopSchedule`). Latency runs from
/// the due time (not the actual write: the correction for coordinated omission) to the dependent
/// device reading its `notification.added`. Each ping is stored durably before it is delivered,
/// so this measures the broker's store path as well as routing.
///
/// Devices 2p and 2p+1 are pair p's responder and dependent. The pingId comes in the
/// responder's `ok`, which may arrive after the notification, so notifications are matched by
/// order: a FIFO of due times per pair.
package final class PingsScenario: LoadScenario {
    package static let pingKind = LoadRequestKind.firstScenarioKind

    package let pairs: Int
    package let rate: Int

    private var dueTimes: [IntendedTimeQueue]
    private let schedule: OpenLoopSchedule
    /// Preparation: each responder adds its dependent.
    private let pairing: ContactPairing

    package init(pairs: Int, rate: Int) {
        self.pairs = pairs
        self.rate = rate
        dueTimes = Array(repeating: IntendedTimeQueue(), count: pairs)
        schedule = OpenLoopSchedule(rate: Double(rate))
        pairing = ContactPairing((0..<pairs).map { ContactPairing.Link(adder: 2 * $0, addee: 2 * $0 + 1) })
    }

    package var name: String { "pings" }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "pairs", label: "responder→dependent pairs", value: pairs),
         LoadReport.Parameter(key: "rate", label: "intended pings/s (open loop)", value: rate)]
    }

    package var measuresResponseLatency: Bool { false }

    private func responder(_ pair: Int, _ run: LoadRun) -> LoadDevice { run.devices[2 * pair] }
    private func dependent(_ pair: Int, _ run: LoadRun) -> LoadDevice { run.devices[2 * pair + 1] }

    package func prepare(in run: LoadRun) {
        run.outstandingAtEnd = { [unowned self] in UInt64(dueTimes.reduce(0) { $0 + $1.count }) }
        pairing.start(in: run) { [unowned run] in run.preparationFinished() }
    }

    // MARK: - Open loop

    package func start(_ device: LoadDevice, in run: LoadRun) {
        guard device.index == 0 else { return }
        schedule.start(in: run) { [unowned self, unowned run] index, dueNs in
            sendPing(onPair: Int(index % UInt64(pairs)), dueNs: dueNs, run)
        }
    }

    private func sendPing(onPair pair: Int, dueNs: UInt64, _ run: LoadRun) {
        let device = responder(pair, run)
        guard device.state == .ready, let contactID = dependent(pair, run).credential?.userID,
              dependent(pair, run).state == .ready
        else { return }  // a lost connection: its pings are not sent (the disconnect is reported)
        dueTimes[pair].append(dueNs)
        run.recordSent()
        device.send(.pingSend(contactID: contactID), kind: Self.pingKind, startNs: dueNs, wantsFields: false)
    }

    // MARK: - Traffic

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        if pairing.handle(response, from: device, in: run) { return }
        // A failed ping gets no notification (errors are counted by the run).
        if response.kind == Self.pingKind, response.errorCode != nil {
            dueTimes[device.index / 2].remove(response.startNs)
        }
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        guard run.isSending else { return pairing.handleEvent(name, on: device) }
        guard name == EventName.notificationAdded, device.index % 2 == 1,
              let dueNs = dueTimes[device.index / 2].popFirst()
        else { return }
        run.recordDelivery(ns: receivedNs >= dueNs ? receivedNs - dueNs : 0)
    }
}
