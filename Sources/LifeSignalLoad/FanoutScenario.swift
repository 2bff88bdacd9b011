import LifeSignalProtocol

/// Open-loop fan-out: D dependents with R responders each (every responder adds its dependent,
/// so the dependent has R responders). Alert operations at a constant total rate, round-robin
/// over the dependents (`OpenLoopSchedule`); each dependent alternates `alert.trigger` and
/// `alert.cancel` (a trigger while an alert is active makes no new one), and each of them is a
/// notification to every one of its responders (PROTOCOL §5). Latency runs from the operation's
/// intended send time to each responder device reading its `notification.added`.
///
/// Devices g(R+1) … g(R+1)+R are group g: its dependent, then its responders. A responder's
/// notifications arrive in the order of its dependent's operations, so each responder has a
/// FIFO of the due times it is waiting for.
package final class FanoutScenario: LoadScenario {
    package static let alertKind = LoadRequestKind.firstScenarioKind

    package let dependents: Int
    package let responders: Int
    package let rate: Int

    private let schedule: OpenLoopSchedule
    private let pairing: ContactPairing
    /// By device index (responders' only).
    private var dueTimes: [IntendedTimeQueue]
    /// By group: operations sent, so even is a trigger next and odd a cancel.
    private var operations: [Int]

    package init(dependents: Int, responders: Int, rate: Int) {
        self.dependents = dependents
        self.responders = responders
        self.rate = rate
        schedule = OpenLoopSchedule(rate: Double(rate))
        let size = responders + 1
        pairing = ContactPairing((0..<dependents).flatMap { group in
            (1...responders).map { ContactPairing.Link(adder: group * size + $0, addee: group * size) }
        })
        dueTimes = Array(repeating: IntendedTimeQueue(), count: dependents * size)
        operations = Array(repeating: 0, count: dependents)
    }

    package static func devices(dependents: Int, responders: Int) -> Int { dependents * (responders + 1) }

    package var name: String { "fanout" }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "dependents", label: "dependents", value: dependents),
         LoadReport.Parameter(key: "responders", label: "responders per dependent", value: responders),
         LoadReport.Parameter(key: "rate", label: "intended alert.trigger/alert.cancel per second (open loop)",
                              value: rate)]
    }

    package var measuresResponseLatency: Bool { false }

    private func responderIndices(ofGroup group: Int) -> ClosedRange<Int> {
        (group * (responders + 1) + 1)...(group * (responders + 1) + responders)
    }

    package func prepare(in run: LoadRun) {
        run.outstandingAtEnd = { [unowned self] in UInt64(dueTimes.reduce(0) { $0 + $1.count }) }
        pairing.start(in: run) { [unowned run] in run.preparationFinished() }
    }

    // MARK: - Open loop

    package func start(_ device: LoadDevice, in run: LoadRun) {
        guard device.index == 0 else { return }
        schedule.start(in: run) { [unowned self, unowned run] index, dueNs in
            sendAlertOperation(group: Int(index % UInt64(dependents)), dueNs: dueNs, run)
        }
    }

    private func sendAlertOperation(group: Int, dueNs: UInt64, _ run: LoadRun) {
        let dependent = run.devices[group * (responders + 1)]
        guard dependent.state == .ready else { return }  // lost: not sent (the disconnect is reported)
        // Only responders still online will read their notification.
        for index in responderIndices(ofGroup: group) where run.devices[index].state == .ready {
            dueTimes[index].append(dueNs)
            run.recordSent()
        }
        let op = operations[group] % 2 == 0 ? Op.alertTrigger : Op.alertCancel
        operations[group] += 1
        dependent.send(op, kind: Self.alertKind, startNs: dueNs, wantsFields: false)
    }

    // MARK: - Traffic

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        if pairing.handle(response, from: device, in: run) { return }
        // A failed operation notifies nobody (errors are counted by the run).
        guard response.kind == Self.alertKind, response.errorCode != nil else { return }
        for index in responderIndices(ofGroup: device.index / (responders + 1))
        where run.devices[index].state == .ready {
            dueTimes[index].remove(response.startNs)
        }
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        guard run.isSending else { return pairing.handleEvent(name, on: device) }
        guard name == EventName.notificationAdded, device.index % (responders + 1) != 0,
              let dueNs = dueTimes[device.index].popFirst()
        else { return }
        run.recordDelivery(ns: receivedNs >= dueNs ? receivedNs - dueNs : 0)
    }
}
