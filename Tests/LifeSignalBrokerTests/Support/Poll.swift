/// Polls `condition` until it holds, with no deadline of its own: the tasks that make it hold share
/// the cooperative pool with synchronous integration tests that can hold every thread of it for
/// minutes under the sanitizers, and a deadline would expire before they were given a thread. The
/// calling suite's time limit ends a run that never sees the event
/// (false once the wait is cancelled).
func poll(every interval: Duration = .milliseconds(20), _ condition: () async -> Bool) async -> Bool {
    while !(await condition()) {
        do { try await Task.sleep(for: interval) } catch { return false }
    }
    return true
}
