import Dispatch

/// Runs async work from a synchronous caller that may block (start-up and shutdown, not the loop).
public func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

public func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    try! waitFor { () async throws -> T in await work() }
}
