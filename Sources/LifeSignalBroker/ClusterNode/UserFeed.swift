import LifeSignalProtocol

/// One user's live events on this broker of a cluster: every committed event reaches each of
/// the user's devices here once and in seq order, whichever broker committed it (§11).
///
/// PostgreSQL gives a user's seqs in commit order (each step holds the user's head row until it
/// commits), so the log read after `delivered` is always the next events. Events committed
/// here are sent at once when they follow on; otherwise (another broker's, or ahead of one not
/// yet seen) the log is read. Loop thread only.
final class UserFeed: @unchecked Sendable {
    let userID: String
    /// The highest seq sent to this user's devices here.
    private(set) var delivered: Int64
    /// Devices of the user connected to this broker.
    var connections: [String: ClientConnection] = [:]
    /// Highest seq known to be committed, not yet delivered.
    private var wanted: Int64
    private var isReading = false
    /// Work to run once `delivered` reaches a seq: a request's `ok` waits for its own events (§6).
    private var waiters: [(seq: Int64, run: () -> Void)] = []
    /// Reads the log of this user after a seq (on the executor, then back on the loop).
    private let read: EventReader

    typealias EventReader = (_ after: Int64, _ completion: @escaping @Sendable (Result<[(seq: Int64, body: String)], any Error>) -> Void) -> Void

    init(userID: String, delivered: Int64,
         read: @escaping EventReader) {
        self.userID = userID
        self.delivered = delivered
        wanted = delivered
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
        read(delivered) { [self] result in
            isReading = false
            let before = delivered
            if case .success(let events) = result {
                for event in events where event.seq > delivered {
                    send(seq: event.seq, frame: FrameEncoder.frame(body: Array(event.body.utf8)))
                }
            }
            if delivered == before {
                // Nothing to read after all (a failed read, or pruned past retention): the waiting
                // answers go out rather than hang; the next hint or head check reads again.
                wanted = delivered
                releaseAllWaiters()
            }
            finishedSending()
        }
    }

    private func send(seq: Int64, frame: [UInt8]) {
        delivered = seq
        for connection in connections.values { connection.sendEvent(seq: seq, frame: frame) }
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
