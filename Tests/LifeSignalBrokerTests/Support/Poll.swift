/// Polls `condition` until it holds; false if it never did within 30 s (a guard against a hang,
/// not a timing assertion: a starved test may take that long).
func poll(every interval: Duration = .milliseconds(20), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}
