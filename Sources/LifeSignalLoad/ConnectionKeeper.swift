import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV

/// Keeps a run's devices connected as real clients keep theirs (PROTOCOL §3): a device that has
/// sent nothing for half the heartbeat its broker announced sends a `keepalive` (the broker closes
/// a connection silent for twice the heartbeat, which a device that only receives would be), and
/// a device the broker cut reconnects with the client library's backoff and resumes from its last
/// seq. Resumes and failed attempts are counted for the report (the run counts the cuts). Loop
/// thread only.
final class ConnectionKeeper {
    private let loop: EventLoop
    private var keepaliveTimer: Timer?
    /// Each cut device's backoff, by index, until it is ready again.
    private var backoffs: [Int: Backoff] = [:]
    private var reconnectTimers: [Int: Timer] = [:]
    private(set) var resumes: UInt64 = 0
    private(set) var failedAttempts: UInt64 = 0
    /// Events a resume's catch-up skipped or repeated (PROTOCOL §6 says none).
    private(set) var resumeGaps: Int64 = 0

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Devices cut and not ready again yet.
    var awaitingResume: Int { backoffs.count }

    /// Starts checking for idle devices, a quarter of the heartbeat apart (a device is then silent
    /// for at most three quarters of it), once the first device has heard the heartbeat.
    func start(heartbeatMs: Int64, devices: @escaping () -> [LoadDevice], keepsAlive: @escaping (LoadDevice) -> Bool) {
        guard keepaliveTimer == nil, heartbeatMs > 0, let timer = try? Timer(loop: loop) else { return }
        timer.unref()
        let interval = UInt64(max(10, heartbeatMs / 4))
        timer.start(afterMs: interval, repeatMs: interval) { [loop] in
            let now = loop.cachedNowMs
            for device in devices() where keepsAlive(device) { device.keepAliveIfIdle(nowMs: now) }
        }
        keepaliveTimer = timer
    }

    /// The broker cut a ready device: it reconnects after a backoff.
    func cut(_ device: LoadDevice, reconnect: @escaping (LoadDevice) -> Void) {
        backoffs[device.index] = Backoff(policy: .default)
        schedule(device, reconnect: reconnect)
    }

    /// Whether `device` is one this keeper is reconnecting.
    func isReconnecting(_ device: LoadDevice) -> Bool { backoffs[device.index] != nil }

    /// A reconnect attempt could not connect or say hello: the next one follows, later.
    func attemptFailed(_ device: LoadDevice, reconnect: @escaping (LoadDevice) -> Void) {
        failedAttempts += 1
        schedule(device, reconnect: reconnect)
    }

    /// A cut device said hello again and applied its catch-up.
    func resumed(_ device: LoadDevice) {
        guard backoffs.removeValue(forKey: device.index) != nil else { return }
        resumes += 1
        resumeGaps += device.lastCatchUp.missed + Int64(device.lastCatchUp.repeated)
    }

    private func schedule(_ device: LoadDevice, reconnect: @escaping (LoadDevice) -> Void) {
        guard var backoff = backoffs[device.index] else { return }
        let delay = backoff.nextDelayMs()
        backoffs[device.index] = backoff
        let index = device.index
        guard let timer = reconnectTimers[index] ?? (try? Timer(loop: loop)) else { return }
        reconnectTimers[index] = timer
        timer.start(afterMs: max(1, delay)) { reconnect(device) }
    }

    func close() {
        keepaliveTimer?.close()
        keepaliveTimer = nil
        for timer in reconnectTimers.values { timer.close() }
        reconnectTimers = [:]
    }
}
