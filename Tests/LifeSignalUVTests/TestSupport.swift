import Foundation
@testable import LifeSignalUV

/// A value shared between the loop thread and the test.
final class Box<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    init(_ value: Value) { storage = Locked(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    func mutate<R: Sendable>(_ body: (inout Value) -> R) -> R {
        storage.withLock { body(&$0) }
    }
}

/// A weak reference the test can poll to see an object was released.
final class WeakBox: @unchecked Sendable {
    private struct Weak {
        weak var object: AnyObject?
    }

    private let reference = Locked(Weak())

    func set(_ object: AnyObject) { reference.withLock { $0.object = object } }
    var isNil: Bool { reference.withLock { $0.object == nil } }
}

/// Polls `probe` until it returns a value; gives up after `timeout` (so a broken test fails, never hangs).
func eventually<T>(timeout: Duration = .seconds(30), _ probe: () -> T?) async -> T? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = probe() { return value }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return probe()
}

/// Polls until `condition` holds; false if it never did within the timeout.
func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    await eventually(timeout: timeout) { condition() ? true : nil } ?? false
}

/// An EventLoop running on its own thread, recording how `run()` ended.
final class LoopRunner: Sendable {
    let loop: EventLoop
    /// "ok" once run() returned normally, or the error it threw.
    let outcome = Box<String?>(nil)

    init() throws {
        let loop = try EventLoop()
        let outcome = self.outcome
        self.loop = loop
        Thread.detachNewThread {
            do {
                try loop.run()
                outcome.value = "ok"
            } catch {
                outcome.value = "\(error)"
            }
        }
    }

    /// Runs `body` on the loop thread and returns its result.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        let result = Box<T?>(nil)
        loop.execute { result.value = body() }
        return await eventually { result.value }
    }

    /// Graceful shutdown; returns "ok" when run() returned without throwing.
    func shutdown(flushTimeoutMs: UInt64 = 2000) async -> String? {
        loop.shutdownGracefully(flushTimeoutMs: flushTimeoutMs)
        return await eventually { outcome.value }
    }
}

/// What one connection saw, readable from the test.
struct ConnectionProbe: Sendable {
    let bytes = Box<[UInt8]>([])
    let closeErrors = Box<[UVError?]>([])
    let remoteAddress = Box<String?>(nil)

    var byteCount: Int { bytes.mutate { $0.count } }
    var closeCount: Int { closeErrors.mutate { $0.count } }
}

/// Records into a probe; optionally echoes, optionally runs extra code per read.
final class RecordingDelegate: TCPConnectionDelegate {
    let probe: ConnectionProbe
    let echo: Bool
    var onRead: ((TCPConnection, UnsafeRawBufferPointer) -> Void)?

    init(_ probe: ConnectionProbe, echo: Bool = false) {
        self.probe = probe
        self.echo = echo
    }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        probe.bytes.mutate { $0.append(contentsOf: bytes) }
        if echo { connection.write(bytes) }
        onRead?(connection, bytes)
    }

    func connectionDidClose(_ connection: TCPConnection, error: UVError?) {
        probe.closeErrors.mutate { $0.append(error) }
    }
}

/// Loop-confined state a @Sendable closure may carry to the loop thread.
final class LoopBound<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Deterministic test payload.
func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) % 251) }
}

/// Starts a listener on `server` (port 0) and connects from `client`. `onAccept` runs on the server
/// loop for the accepted connection, `onConnect` on the client loop. Returns the listener's port.
@discardableResult
func connectPair(
    server: LoopRunner, client: LoopRunner, host: String = "127.0.0.1", sourceAddress: String? = nil,
    onAccept: @escaping @Sendable (TCPConnection) -> Void,
    onConnect: @escaping @Sendable (TCPConnection) -> Void
) async throws -> Int {
    let port = await server.onLoop { () -> Int in
        guard let listener = try? TCPListener(loop: server.loop, host: host, port: 0) else { return -1 }
        // The open handle keeps the listener alive; shutdown closes it.
        try? listener.start(onAccept)
        return listener.localPort
    }
    guard let port, port > 0 else { throw SetupError(message: "listener did not start") }
    let failure = Box<UVError?>(nil)
    client.loop.execute {
        TCPConnection.connect(loop: client.loop, host: host, port: port, sourceAddress: sourceAddress) { result in
            switch result {
            case .success(let connection): onConnect(connection)
            case .failure(let error): failure.value = error
            }
        }
    }
    return port
}

struct SetupError: Error {
    let message: String
}
