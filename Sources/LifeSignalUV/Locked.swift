#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, for state shared between threads (the loop's job queue, the
/// store writer's queue, test probes).
///
/// Not `Synchronization.Mutex`: on Linux its contended path is a priority-inheritance futex that
/// ThreadSanitizer cannot see, so two threads taking it in turn are reported as a race (four
/// threads appending under `withLock` are enough). `pthread_mutex_lock` is intercepted by
/// ThreadSanitizer, so the sanitized test runs need no suppressions and every report is real.
///
/// Lock the state itself, never an empty `()` beside it: accessing a value without storage has no
/// memory effect, so the compiler may move its access checks out of the locked region, and
/// ThreadSanitizer then reports two threads taking the lock in turn as a race.
public final class Locked<Value: ~Copyable> {
    // Allocated, since a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: consuming Value) {
        assert(MemoryLayout<Value>.size > 0, "lock the state itself, not an empty value beside it")
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock. `body` must not take this lock again.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// The lock is what makes sharing safe, for values that may cross threads at all.
extension Locked: @unchecked Sendable where Value: Sendable & ~Copyable {}
