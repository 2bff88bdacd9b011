import LifeSignalPostgres
import LifeSignalProtocol
import Logging

/// One user's live events on this broker of a cluster.
typealias UserFeed = DeviceFeed<ClientConnection>

/// One user's live events on this broker of a cluster: every committed event reaches each of
/// the user's devices here once and in seq order, whichever broker committed it (§11).
///
/// PostgreSQL gives a user's seqs in commit order (each step holds the user's head row until it
/// commits), so the log read after `delivered` is the next events, unless retention pruned them
/// meanwhile (the feed fell more than `eventRetention` behind). Those cannot be sent, and a gap
/// may never be: a device they are missing on is cut, and its `resume` gets a snapshot (§3, §6),
/// as a device too far behind is cut (§9). Events committed here are sent at once when they
/// follow on; otherwise (another broker's, or ahead of one not yet seen) the log is read.
/// Loop thread only.
final class DeviceFeed<Connection: FeedConnection>: @unchecked Sendable {
    let userID: String
    /// The highest seq sent to this user's devices here.
    private(set) var delivered: Int64
    /// Devices of the user connected to this broker.
    var connections: [String: Connection] = [:]
    /// Highest seq known to be committed, not yet delivered.
    private var wanted: Int64
    private var isReading = false
    /// Work to run once `delivered` reaches a seq: a request's `ok` waits for its own events (§6).
    private var waiters: [(seq: Int64, run: () -> Void)] = []
    /// Reads the log of this user after a seq (on the executor, then back on the loop).
    private let read: EventReader
    private let logger: Logger?

    typealias EventReader = (_ after: Int64, _ completion: @escaping @Sendable (Result<[(seq: Int64, body: String)], any Error>) -> Void) -> Void

    init(userID: String, delivered: Int64, logger: Logger? = nil,
         read: @escaping EventReader) {
        self.userID = userID
        self.delivered = delivered
        wanted = delivered
        self.logger = logger
        self.read = read
    }

    /// Nothing here needs the feed any more.
    var isIdle: Bool { connections.isEmpty && !isReading && waiters.isEmpty }

    /// Events of this user just committed by this broker, in seq order: sent at once when they
    /// follow on, even while a read is under way (it sends only what is past `delivered`).
    func offer(_ events: [CommittedEvent]) {
        guard let last = events.last?.seq, last > delivered else { return }
        guard let first = events.first?.seq, first <= delivered + 1 else { return want(last) }
        for event in events where event.seq == delivered + 1 { send(seq: event.seq, frame: event.frame) }
        finishedSending()
    }

    /// The log has reached `seq` (a hint, a head check, a commit out of order): read up to it.
    func want(_ seq: Int64) {
        guard seq > delivered else { return }
        wanted = max(wanted, seq)
        readOn()
    }

    /// Runs `work` once every event up to `seq` has been sent here (at once if they have been).
    func afterDelivering(_ seq: Int64, _ work: @escaping () -> Void) {
        guard seq > delivered else { return work() }
        waiters.append((seq, work))
        want(seq)
    }

    private func readOn() {
        guard !isReading, wanted > delivered else { return }
        isReading = true
        let wantedBefore = wanted
        read(delivered) { [self] result in
            isReading = false
            let before = delivered
            if case .success(let events) = result {
                // Offers may have sent some of them meanwhile.
                let unsent = events.drop { $0.seq <= delivered }
                if let first = unsent.first?.seq, first > delivered + 1 { cutDevices(missingBefore: first) }
                for event in unsent {
                    send(seq: event.seq, frame: FrameEncoder.frame(body: Array(event.body.utf8)))
                }
            }
            // A read that found nothing while more was committed may have started before those
            // commits: finishedSending reads again, and the answers wait for their events (§6).
            let readAgain = (try? result.get()) != nil && wanted > wantedBefore
            if delivered == before, !readAgain {
                // Nothing to read after all, or a failed read: the waiting answers go out rather
                // than hang; the next hint or head check reads again.
                wanted = delivered
                releaseAllWaiters()
            }
            finishedSending()
        }
    }

    /// Retention pruned the events from `delivered + 1` to before `first`: a device here that
    /// has not got them by its catch-up would see a gap, so it is cut and resumes, and its
    /// `resume`, older than what is kept, is answered with a snapshot (§3). The devices whose
    /// catch-up reached past the gap stay and get what follows.
    private func cutDevices(missingBefore first: Int64) {
        for (deviceID, connection) in connections where max(connection.baselineSeq, delivered) + 1 < first {
            logger?.info("device behind the kept events: closed, it resumes with a snapshot", metadata: [
                "lifesignal.user": "\(userID)", "lifesignal.device": "\(deviceID)",
                "lifesignal.delivered": .stringConvertible(max(connection.baselineSeq, delivered)), "lifesignal.oldest": .stringConvertible(first),
            ])
            // Detached as any closed connection is, which keeps its presence right.
            connection.close()
        }
    }

    private func send(seq: Int64, frame: [UInt8]) {
        delivered = seq
        let revoked = DeviceRevocation.revokedDevice(inEventFrame: frame)
        for connection in connections.values { connection.sendEvent(seq: seq, frame: frame, revoking: revoked) }
    }

    private func finishedSending() {
        if !waiters.isEmpty {
            let ready = waiters.filter { $0.seq <= delivered }
            waiters.removeAll { $0.seq <= delivered }
            for waiter in ready { waiter.run() }
        }
        readOn()
    }

    private func releaseAllWaiters() {
        let all = waiters
        waiters = []
        for waiter in all { waiter.run() }
    }
}
