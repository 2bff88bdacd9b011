import CLibUV
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EventLoop {
    /// Starts a new thread (named for debuggers) running `run()`; returns once the loop is running.
    /// A failing `run()` on that thread is reported on stderr.
    public static func startOnNewThread(name: String) throws -> EventLoop {
        let loop = try EventLoop()
        let started = StartSignal()
        // The first job proves run() has claimed the thread and entered uv_run.
        loop.execute { started.signal() }
        try spawnThread(name: name) {
            do {
                try loop.run()
            } catch {
                let message = "EventLoop \(name): \(error)\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
            }
        }
        started.wait()
        return loop
    }

    /// pthread_create from a nonisolated context (a closure made in top-level code would be @MainActor).
    private static func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let context = Unmanaged.passRetained(ThreadContext(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { arg in
            let raw: UnsafeMutableRawPointer? = arg
            let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
            ls_set_thread_name(context.name)
            context.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadContext>.fromOpaque(context).release()
            throw UVError(code: -result, operation: "pthread_create")
        }
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }
}

private final class ThreadContext: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// One-shot wait used only while starting a loop thread.
private final class StartSignal: Sendable {
    private let done = Atomic<Bool>(false)

    func signal() { done.store(true, ordering: .releasing) }

    func wait() {
        // Start-up takes microseconds; a short sleep loop avoids pulling in Dispatch.
        while !done.load(ordering: .acquiring) { usleep(100) }
    }
}
