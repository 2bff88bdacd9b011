import Foundation
import LifeSignalUV

/// A thread of its own for the in-process fake servers (`FakeFCM`): the tests block the few
/// threads of Swift's cooperative pool (2 on this machine) while they wait for a broker, and a
/// server running there could not answer the very request a test waits for. Tasks that prefer
/// this executor, their child tasks and the default actors they call all run here instead.
final class FakeServerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = FakeServerExecutor()

    private let jobs = Locked<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                available.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "fake-servers"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }
}
