public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let timeout: Duration
    public var description: String { "no answer within \(timeout)" }
}

/// Runs `work`, or throws `DeadlineExceeded` once `timeout` has passed (and cancels it).
public func withDeadline<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw DeadlineExceeded(timeout: timeout)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
