import Foundation
import LifeSignalProtocol

/// Responder → dependent pairs sending safety requests one after another, each device on a
/// thread of its own, for as long as a fault lasts: the responder pings, the dependent checks in,
/// raises and cancels an alert. Every request's answer, and how long it took, is recorded: a
/// broker under faults must answer each one, and lose none it acknowledged.
final class SteadyRequests: @unchecked Sendable {
    struct Answer {
        let op: String
        let sentAt: ContinuousClock.Instant
        /// nil: no answer came (within `answerTimeout`, or the connection closed).
        let after: Duration?
        let errorCode: String?
    }

    let pairs: [(responder: Person, dependent: Person)]
    private let lock = NSLock()
    private var answers: [Answer] = []
    /// The pings acknowledged with `ok`, by the dependent they were for.
    private var acknowledgedPings: [String: Set<String>] = [:]
    private var stopping = false
    private let running = DispatchGroup()
    static let answerTimeout: Duration = .seconds(60)

    init(pairs count: Int, port: Int) throws {
        pairs = try (0..<count).map { index in
            let responder = try Person("Responder \(index)", port: port)
            let dependent = try Person("Dependent \(index)", port: port)
            responder.add(dependent, responder: false, dependent: true)
            return (responder, dependent)
        }
    }

    func start() {
        for (responder, dependent) in pairs {
            let dependentID = dependent.id
            run(on: responder.phone) { _ in (Op.pingSend, ["contactId": .string(dependentID)], dependentID) }
            run(on: dependent.phone) { turn in
                switch turn % 3 {
                case 0: (Op.checkIn, [:], nil)
                case 1: (Op.alertTrigger, ["message": .string("help \(turn)")], nil)
                default: (Op.alertCancel, [:], nil)
                }
            }
        }
    }

    /// Stops sending and waits for the answers still due.
    func stop() {
        lock.withLock { stopping = true }
        running.wait()
    }

    var all: [Answer] { lock.withLock { answers } }

    /// When the last request was sent that is answered `ok` (nil: none since `instant`).
    func firstOK(since instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        lock.withLock { answers.filter { $0.sentAt >= instant && $0.errorCode == nil && $0.after != nil } }
            .map(\.sentAt).min()
    }

    func acknowledged(for dependentID: String) -> Set<String> { lock.withLock { acknowledgedPings[dependentID] ?? [] } }

    /// One device's requests, back to back, until `stop`.
    private func run(on device: RawConnection,
                     _ request: @escaping @Sendable (Int) -> (String, JSONObject, String?)) {
        running.enter()
        // Each device is used by its own thread only.
        nonisolated(unsafe) let device = device
        Thread.detachNewThread { [self] in
            defer { running.leave() }
            var turn = 0
            while !lock.withLock({ stopping }) {
                let (op, fields, pingTarget) = request(turn)
                turn += 1
                let sentAt = ContinuousClock.now
                let rid = device.send(op, fields)
                let answer = answer(to: rid, on: device)
                let record = Answer(op: op, sentAt: sentAt, after: answer.map { _ in ContinuousClock.now - sentAt },
                                    errorCode: answer?.errorCode?.rawValue)
                lock.withLock {
                    answers.append(record)
                    if let pingTarget, let id = answer?.okFields?["pingId"]?.stringValue {
                        acknowledgedPings[pingTarget, default: []].insert(id)
                    }
                }
                guard answer != nil else { return }  // the connection is gone or stuck: counted
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// The answer to `rid`; the events before it are read and dropped.
    private func answer(to rid: Int64, on device: RawConnection) -> ServerMessage? {
        let deadline = ContinuousClock.now + Self.answerTimeout
        while ContinuousClock.now < deadline {
            guard let message = device.next(timeout: deadline - ContinuousClock.now) else { return nil }
            if message.isResponse, message.rid == rid { return message }
        }
        return nil
    }
}
