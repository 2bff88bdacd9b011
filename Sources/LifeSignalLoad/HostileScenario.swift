import LifeSignalProtocol

/// Victims and attackers on one broker (issue 12's "a hostile user at full rate does not cut,
/// slow or lock out another user"). V victims check in at a constant total rate (open loop),
/// each check-in a durable change; latency runs from its intended send time to its `ok`. H
/// hostile users, each the responder of every victim, keep K requests in flight as fast as the
/// broker answers, round-robin over what reaches a contact hardest: renames to the largest names
/// §10 allows (each a `contact.updated` to every victim), role toggles, pings and their
/// withdrawal. Within the request rate the broker allows they run; over it they are answered
/// `rate_limited` (counted among the errors). The run fails if a victim is cut or refused.
///
/// Devices 0..<V are the victims, V..<V+H the hostile users.
package final class HostileScenario: LoadScenario {
    package static let checkInKind = LoadRequestKind.firstScenarioKind
    package static let attackKind = LoadRequestKind.firstScenarioKind + 1
    /// 100 characters of 4 bytes: the largest names there are; two, so that each rename changes.
    package static let largestNames = [String(repeating: "😀", count: 100), String(repeating: "😃", count: 100)]

    package let victims: Int
    package let hostiles: Int
    package let rate: Int
    package let inFlight: Int

    private let schedule: OpenLoopSchedule
    private let pairing: ContactPairing
    /// Per hostile device, the attack requests sent so far (which one comes next).
    private var attacks: [Int]
    private var victimsCut = 0
    private var victimsRefused: [String: Int] = [:]

    package static func devices(victims: Int, hostiles: Int) -> Int { victims + hostiles }

    package init(victims: Int, hostiles: Int, rate: Int, inFlight: Int) {
        self.victims = victims
        self.hostiles = hostiles
        self.rate = rate
        self.inFlight = inFlight
        schedule = OpenLoopSchedule(rate: Double(rate))
        attacks = Array(repeating: 0, count: hostiles)
        var links: [ContactPairing.Link] = []
        for hostile in 0..<hostiles {
            for victim in 0..<victims { links.append(.init(adder: victims + hostile, addee: victim)) }
        }
        pairing = ContactPairing(links)
    }

    package var name: String { "hostile" }
    package var keepsConnections: Bool { false }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "victims", label: "victims (check in, open loop)", value: victims),
         LoadReport.Parameter(key: "hostiles", label: "hostile users (responders of every victim)", value: hostiles),
         LoadReport.Parameter(key: "rate", label: "intended victim check-ins/s", value: rate),
         LoadReport.Parameter(key: "inFlight", label: "attack requests in flight per hostile", value: inFlight)]
    }

    package var measuresResponseLatency: Bool { false }
    package var latencyLabel: String? { "victim checkin → ok" }

    package func prepare(in run: LoadRun) {
        pairing.start(in: run) { [unowned run] in run.preparationFinished() }
    }

    package func start(_ device: LoadDevice, in run: LoadRun) {
        if device.index == 0 {
            schedule.start(in: run) { [unowned self, unowned run] index, dueNs in
                checkIn(victim: Int(index % UInt64(victims)), dueNs: dueNs, run)
            }
        }
        if device.index >= victims {
            for _ in 0..<inFlight { attack(from: device, run) }
        }
    }

    private func checkIn(victim: Int, dueNs: UInt64, _ run: LoadRun) {
        let device = run.devices[victim]
        guard device.state == .ready else { return }  // a cut victim: reported by the run
        run.recordSent()
        device.send(.checkIn, kind: Self.checkInKind, startNs: dueNs, wantsFields: false)
    }

    private func attack(from device: LoadDevice, _ run: LoadRun) {
        let hostile = device.index - victims
        let number = attacks[hostile]
        attacks[hostile] += 1
        guard let victimID = run.devices[number / 4 % victims].credential?.userID else { return }
        let command: DeviceCommand = switch number % 4 {
        case 0: .profileUpdate(ProfileUpdate(name: Self.largestNames[number / 4 % 2]))
        case 1: .contactsSetRoles(contactID: victimID, isResponder: number / 4 % 2 == 0, isDependent: true)
        case 2: .pingSend(contactID: victimID)
        default: .pingClear(contactID: victimID)
        }
        device.send(command, kind: Self.attackKind, wantsFields: false)
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        if pairing.handle(response, from: device, in: run) { return }
        switch response.kind {
        case Self.checkInKind:
            if let code = response.errorCode {
                victimsRefused[code.rawValue, default: 0] += 1
            } else {
                run.recordDelivery(ns: response.latencyNs)
            }
        case Self.attackKind:
            if run.isSending { attack(from: device, run) }
        default:
            break
        }
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {
        if !run.isSending { pairing.handleEvent(name, on: device) }
    }

    package func device(_ device: LoadDevice, didDisconnect error: String?, in run: LoadRun) {
        if device.index < victims { victimsCut += 1 }
    }

    package func results(in run: LoadRun) -> [LoadReport.Figure] {
        [.count("victimsCut", "victim connections lost", victimsCut),
         .count("victimsRefused", "victim check-ins refused", victimsRefused.values.reduce(0, +))]
    }

    package func verificationFailure(in run: LoadRun) -> String? {
        if victimsCut > 0 { return "\(victimsCut) victim connections were lost" }
        if !victimsRefused.isEmpty { return "victim check-ins were refused: \(victimsRefused)" }
        return nil
    }
}
