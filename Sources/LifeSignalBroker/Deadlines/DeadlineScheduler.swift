import HeapModule
import LifeSignalEngine
import LifeSignalUV

/// Fires check-in deadlines on time (PROTOCOL §8) with one libuv timer over a min-heap.
///
/// Scheduling or moving a deadline is O(log n): the new entry goes into the heap and the
/// user's live deadline is recorded; an entry that no longer matches it is skipped when it
/// surfaces. An idle second costs nothing: the timer is armed for the earliest deadline only
/// (at most `maximumSleepMs` ahead, so a changed wall clock is noticed). Loop thread only.
final class DeadlineScheduler {
    struct Entry: Comparable {
        let deadline: Int64
        let userID: String
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.userID) < (rhs.deadline, rhs.userID)
        }
    }

    static let maximumSleepMs: Int64 = 60_000

    private var heap = Heap<Entry>()
    /// Each scheduled user's live deadline; heap entries that differ are stale.
    private var live: [String: Int64] = [:]
    private let timer: Timer
    private var armedFor: Int64?
    private let now: () -> Int64
    private let onDue: (String, Int64) -> Void

    init(loop: EventLoop, now: @escaping () -> Int64 = WallClock.nowMs, onDue: @escaping (String, Int64) -> Void) throws {
        timer = try Timer(loop: loop)
        timer.unref()
        self.now = now
        self.onDue = onDue
    }

    var count: Int { live.count }
    /// Whether the store's pending deadlines were scheduled (`scheduleAll`): until then a missed
    /// check-in of a user who is not loaded would go unseen.
    private(set) var hasLoadedStored = false

    /// Sets or (with nil) clears a user's deadline.
    func schedule(_ userID: String, at deadline: Int64?) {
        guard live[userID] != deadline else { return }
        live[userID] = deadline
        if let deadline { heap.insert(Entry(deadline: deadline, userID: userID)) }
        compactIfMostlyStale()
        rearm()
    }

    /// Schedules many at once (start-up): one heap build instead of n inserts. A user scheduled
    /// since the store was read keeps that newer deadline.
    func scheduleAll(_ deadlines: [(userID: String, deadline: Int64)]) {
        hasLoadedStored = true
        for item in deadlines where live[item.userID] == nil { live[item.userID] = item.deadline }
        heap = Heap(live.map { Entry(deadline: $0.value, userID: $0.key) })
        rearm()
    }

    func close() { timer.close() }

    private func rearm() {
        guard let earliest = heap.min?.deadline else {
            timer.stop()
            armedFor = nil
            return
        }
        let wake = min(earliest, now() + Self.maximumSleepMs)
        guard armedFor != wake else { return }
        armedFor = wake
        timer.start(afterMs: UInt64(max(0, wake - now()))) { [unowned self] in
            armedFor = nil
            fireDue()
        }
    }

    private func fireDue() {
        let current = now()
        while let earliest = heap.min, earliest.deadline <= current {
            heap.removeMin()
            guard live[earliest.userID] == earliest.deadline else { continue }
            live[earliest.userID] = nil
            onDue(earliest.userID, earliest.deadline)
        }
        rearm()
    }

    /// Moved deadlines leave stale entries behind; rebuild once they outnumber the live ones.
    private func compactIfMostlyStale() {
        guard heap.count > 2 * live.count + 1_024 else { return }
        heap = Heap(live.map { Entry(deadline: $0.value, userID: $0.key) })
    }
}
