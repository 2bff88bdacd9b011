import LifeSignalProtocol

/// N devices online and idle: after hello each sends only a keepalive per interval (the
/// `heartbeatMs` the broker announced, unless given), spread evenly over the interval with the
/// open-loop schedule. Measures what an online device costs the broker at rest: its RSS (VmRSS
/// with `--broker-pid`) before the first device connected and once every device is online and
/// the warm-up has let it settle, and the difference per device; and the same for its anonymous
/// memory (RssAnon), which leaves out the code and mapped files the set-up faulted in once. The
/// keepalives' round trips are the run's latency.
package final class IdleScenario: LoadScenario {
    /// nil: the broker's announced heartbeat.
    package let keepaliveIntervalMs: Int64?

    private var intervalMs: Int64 = 0
    private var schedule: OpenLoopSchedule?

    package init(keepaliveIntervalMs: Int64?) {
        self.keepaliveIntervalMs = keepaliveIntervalMs
    }

    package var name: String { "idle" }
    package var sendsOwnKeepalives: Bool { true }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "keepaliveIntervalMs", label: "keepalive interval per device (ms)",
                              value: Int(intervalMs))]
    }

    package func start(_ device: LoadDevice, in run: LoadRun) {
        guard device.index == 0 else { return }
        // Every device heard the same heartbeat; 30 s is the protocol's default.
        intervalMs = keepaliveIntervalMs ?? device.heartbeatMs ?? 30_000
        let count = run.devices.count
        let schedule = OpenLoopSchedule(rate: Double(count) * 1_000 / Double(intervalMs), tickMs: 10)
        self.schedule = schedule
        // Device k's keepalives are due at k × interval / N, then every interval.
        schedule.start(in: run) { [unowned run] index, _ in
            let device = run.devices[Int(index % UInt64(count))]
            device.send(Op.keepalive, kind: LoadRequestKind.keepalive, wantsFields: false)
        }
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {}

    package func results(in run: LoadRun) -> [LoadReport.Figure] {
        let missing = "not measured (no --broker-pid)"
        let before = run.brokerResidentBeforeSetupKiB.map(Double.init)
        let online = run.brokerResidentAtWindowStartKiB.map(Double.init)
        let delta = before.flatMap { before in online.map { $0 - before } }
        let anonymousDelta = run.brokerAnonymousBeforeSetupKiB.flatMap { before in
            run.brokerAnonymousAtWindowStartKiB.map { Double($0 - before) }
        }
        let deviceCount = Double(max(1, run.devices.count))
        return [
            .kibibytes("brokerRssBeforeSetupKiB", "lsbroker RSS before set-up", before, missing: missing),
            .kibibytes("brokerRssOnlineKiB", "lsbroker RSS with every device online (after the warm-up)", online,
                       missing: missing),
            .kibibytes("brokerRssDeltaKiB", "lsbroker RSS growth", delta, missing: missing),
            .kibibytes("brokerRssPerDeviceKiB", "lsbroker RSS growth per online device",
                       delta.map { $0 / deviceCount }, missing: missing),
            .bytes("brokerAnonymousPerDeviceBytes", "lsbroker anonymous memory growth per online device",
                   anonymousDelta.map { $0 * 1024 / deviceCount }, missing: missing),
        ]
    }
}
