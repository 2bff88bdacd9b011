import Foundation
import LifeSignalProtocol
import Testing

/// A cluster broker under load while its PostgreSQL fails as production ones do (issue 24):
/// its sessions terminated mid-batch, a crash restart, a server frozen past the deadline. Every
/// request is answered, nothing acknowledged is lost, `/readyz` says 503 while this broker cannot
/// commit and 200 again once it can, and it serves writes again with no restart. A server of its
/// own, since it is killed. `LIFESIGNAL_FAULT_REPORT=FILE` writes the figures, `LIFESIGNAL_FAULT_PAIRS=N`
/// sets the load (bench/postgres-faults.sh).
@Suite("Cluster: PostgreSQL faults under load", .serialized)
struct ClusterPostgresFaultTests {
    /// `--postgres-timeout`: short, so the frozen server outlasts it quickly.
    static let deadlineSeconds = 2.0

    @Test func everyRequestIsAnsweredAndTheBrokerHealsByItselfAfterEachFault() throws {
        let server = try ThrowawayPostgres()
        let broker = try BrokerProcess(arguments: [
            "--postgres", server.url + "?pool=4", "--broker-id", "faulty", "--metrics-port", "0",
            "--postgres-timeout", "\(Self.deadlineSeconds)", "--notification-history", "100000", "--register-rate", "0",
        ])
        // bench/postgres-faults.sh asks for more pairs (more load) than a test run needs.
        let pairs = ProcessInfo.processInfo.environment["LIFESIGNAL_FAULT_PAIRS"].flatMap { Int($0) } ?? 4
        let load = try SteadyRequests(pairs: pairs, port: broker.port)
        load.start()
        var report = FaultReport(deadlineSeconds: Self.deadlineSeconds)
        #expect(servesWrites(load, since: .now) != nil, "no write was answered ok before any fault")
        Thread.sleep(forTimeInterval: 1)  // a second of load before the first fault, for the figures

        let terminated = ContinuousClock.now
        for _ in 0..<3 {
            try server.terminateSessions()
            Thread.sleep(forTimeInterval: 0.3)
        }
        report.faultEnded("sessions terminated (3 × pg_terminate_backend)", at: ContinuousClock.now,
                          began: terminated, recoveredAt: servesWrites(load, since: .now))

        let crashed = ContinuousClock.now
        try server.crashRestart()
        let restarted = ContinuousClock.now
        report.faultEnded("pg_ctl restart -m immediate", at: restarted, began: crashed,
                          recoveredAt: servesWrites(load, since: restarted))

        let frozen = ContinuousClock.now
        try server.freeze()
        let notReady = eventually(timeout: .seconds(60)) { (try? broker.operations("/readyz").status) == 503 }
        // Past the deadline: a batch under way when the server froze was abandoned meanwhile.
        Thread.sleep(forTimeInterval: Self.deadlineSeconds * 2)
        try server.thaw()
        let thawed = ContinuousClock.now
        let readyAgain = eventually(timeout: .seconds(60)) { (try? broker.operations("/readyz").status) == 200 }
        report.faultEnded("SIGSTOP for \(Int((thawed - frozen).components.seconds)) s", at: thawed, began: frozen,
                          recoveredAt: servesWrites(load, since: thawed))
        load.stop()

        #expect(notReady, "/readyz stayed 200 while PostgreSQL was frozen")
        #expect(readyAgain, "/readyz did not come back to 200 after PostgreSQL did")
        let answers = load.all
        report.count(answers)
        let unanswered = answers.filter { $0.after == nil }
        #expect(unanswered.isEmpty, "\(unanswered.count) of \(answers.count) requests got no answer: \(unanswered.prefix(5))")
        let lost = load.pairs.flatMap { pair in
            load.acknowledged(for: pair.dependent.id).subtracting(Self.storedPings(of: pair.dependent))
        }
        report.acknowledgedLost = lost.count
        #expect(lost.isEmpty, "acknowledged pings lost: \(lost.prefix(5))")
        let metrics = try broker.operations("/metrics").body
        #expect(Self.value(of: "lifesignal_commit_failures_total", in: metrics) > 0, "\(metrics)")
        #expect(Self.value(of: "lifesignal_postgres_work_timeouts_total", in: metrics) > 0, "\(metrics)")
        #expect(broker.output?.text.contains("store write failed") == true, "a failed batch is logged")
        try report.write()
    }

    /// Waits until a write sent at or after `instant` is answered `ok`; when it was sent.
    private func servesWrites(_ load: SteadyRequests, since instant: ContinuousClock.Instant)
        -> ContinuousClock.Instant?
    {
        var first: ContinuousClock.Instant?
        _ = eventually(timeout: .seconds(60)) {
            first = load.firstOK(since: instant)
            return first != nil
        }
        #expect(first != nil, "the broker did not serve writes again")
        return first
    }

    /// The ids of the pings in every page of `person`'s history.
    private static func storedPings(of person: Person) -> Set<String> {
        var pings: Set<String> = []
        var before: String?
        while true {
            var fields: JSONObject = ["limit": .int(100)]
            if let before { fields["before"] = .string(before) }
            let page = person.ok(Op.notificationsList, fields)["notifications"]?.arrayValue ?? []
            for notification in page {
                if let ping = notification.objectValue?["relatedPingID"]?.stringValue { pings.insert(ping) }
            }
            guard page.count == 100, let last = page.last?.objectValue?["id"]?.stringValue else { return pings }
            before = last
        }
    }

    private static func value(of metric: String, in text: String) -> Double {
        text.split(separator: "\n").first { $0.hasPrefix(metric + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }
}

/// The figures of a fault run: per fault, how long it lasted and how long after it the broker
/// served writes again; over the run, the requests unanswered, the slowest answer and the
/// acknowledged writes lost.
struct FaultReport {
    let deadlineSeconds: Double
    var lines: [String] = []
    var acknowledgedLost = 0
    var requests = 0
    var duration: Duration = .zero
    var unanswered = 0
    var slowest: Duration = .zero
    var errors: [String: Int] = [:]

    mutating func faultEnded(_ fault: String, at end: ContinuousClock.Instant, began: ContinuousClock.Instant,
                             recoveredAt: ContinuousClock.Instant?) {
        let recovery = recoveredAt.map { "\(Self.seconds(max(.zero, $0 - end))) s" } ?? "never"
        lines.append("| \(fault) | \(Self.seconds(end - began)) s | \(recovery) |")
    }

    mutating func count(_ answers: [SteadyRequests.Answer]) {
        requests = answers.count
        if let first = answers.map(\.sentAt).min(), let last = answers.map(\.sentAt).max() { duration = last - first }
        unanswered = answers.filter { $0.after == nil }.count
        slowest = answers.compactMap(\.after).max() ?? .zero
        for answer in answers { if let code = answer.errorCode { errors[code, default: 0] += 1 } }
    }

    func write() throws {
        guard let path = ProcessInfo.processInfo.environment["LIFESIGNAL_FAULT_REPORT"] else { return }
        let errorList = errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let text = """
            | fault | lasted | serving writes again after it ended |
            |---|---|---|
            \(lines.joined(separator: "\n"))

            requests: \(requests) in \(Self.seconds(duration)) s · unanswered: \(unanswered) · slowest answer: \(Self.seconds(slowest)) s \
            (deadline --postgres-timeout \(deadlineSeconds) s) · acknowledged writes lost: \(acknowledgedLost)
            errors: \(errorList.isEmpty ? "none" : errorList)

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f", value)
    }
}
