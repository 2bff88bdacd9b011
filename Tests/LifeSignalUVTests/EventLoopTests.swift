import Foundation
import Testing
@testable import LifeSignalUV

/// An actor whose executor is the loop.
actor LoopActor {
    let loop: EventLoop
    private(set) var hits = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init(loop: EventLoop) { self.loop = loop }

    func hit() -> Bool {
        hits += 1
        return loop.isInLoopThread
    }
}

@Suite("EventLoop")
struct EventLoopTests {
    @Test("execute from 4 threads keeps per-thread order and runs on the loop thread")
    func executeFromFourThreads() async throws {
        let runner = try LoopRunner()
        let perThread = 2000
        let seen = Box<[[Int]]>(Array(repeating: [], count: 4))
        let offLoop = Box(0)
        let loop = runner.loop
        for thread in 0..<4 {
            Thread.detachNewThread {
                for i in 0..<perThread {
                    loop.execute {
                        if !loop.isInLoopThread { offLoop.mutate { $0 += 1 } }
                        seen.mutate { $0[thread].append(i) }
                    }
                }
            }
        }
        #expect(await waitUntil { seen.mutate { $0.map(\.count).reduce(0, +) } == 4 * perThread })
        for list in seen.value {
            #expect(list == Array(0..<perThread))
        }
        #expect(offLoop.value == 0)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("an actor on the loop executor runs on the loop thread; assumeIsolated works in a timer callback")
    func actorOnLoopExecutor() async throws {
        let runner = try LoopRunner()
        let actor = LoopActor(loop: runner.loop)
        let onLoop = await Task { await actor.hit() }.value
        #expect(onLoop)
        let fromTimer = Box<Bool?>(nil)
        runner.loop.execute {
            guard let timer = try? Timer(loop: runner.loop) else { return }
            timer.start(afterMs: 1) {
                // A libuv callback: no task, no current executor; checkIsolated vouches for the thread.
                fromTimer.value = actor.assumeIsolated { $0.hit() }
                timer.close()
            }
        }
        #expect(await eventually { fromTimer.value } == true)
        #expect(await actor.hits == 2)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("timers fire, repeat, and stop")
    func timers() async throws {
        let runner = try LoopRunner()
        let fired = Box(0)
        let firedWhenLaterTimerRan = Box<Int?>(nil)
        runner.loop.execute {
            guard let repeating = try? Timer(loop: runner.loop), let later = try? Timer(loop: runner.loop) else { return }
            repeating.start(afterMs: 1, repeatMs: 1) {
                fired.mutate { $0 += 1 }
                if fired.value == 3 {
                    repeating.stop()
                    // Runs well after the next repeat would have.
                    later.start(afterMs: 20) {
                        firedWhenLaterTimerRan.value = fired.value
                        later.close()
                        repeating.close()
                    }
                }
            }
        }
        #expect(await eventually { firedWhenLaterTimerRan.value } == 3)
        #expect(fired.value == 3)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("a signal watcher calls back on the loop thread")
    func signalWatcher() async throws {
        let runner = try LoopRunner()
        let received = Box(false)
        let installed = await runner.onLoop { () -> Bool in
            // Stays open: shutdown must close it.
            (try? SignalWatcher(loop: runner.loop, signal: SIGUSR2) {
                received.value = runner.loop.isInLoopThread
            }) != nil
        }
        #expect(installed == true)
        kill(getpid(), SIGUSR2)  // process-directed: delivered to a thread that does not block it
        #expect(await waitUntil { received.value })
        #expect(await runner.shutdown() == "ok")
    }

    @Test("shutdownGracefully with open listener, connections and timers: hooks run, goodbyes arrive, run() returns")
    func gracefulShutdown() async throws {
        let server = try LoopRunner()
        let client = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let clientProbe = ConnectionProbe()
        let released = WeakBox()
        let timerReleased = WeakBox()
        let accepted = Box(false)
        try await connectPair(server: server, client: client, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe)
            connection.startReading()
            released.set(connection)
            let holder = LoopBound(connection)
            // The broker's goodbye: written by a hook, delivered before the close.
            server.loop.addShutdownHook { holder.value.write(Array("bye".utf8)) }
            accepted.value = true
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(clientProbe)
            connection.startReading()
        })
        #expect(await waitUntil { accepted.value })
        _ = await server.onLoop {
            // A repeating timer that keeps the loop busy, and one that is merely open.
            guard let ticking = try? Timer(loop: server.loop), let idle = try? Timer(loop: server.loop) else { return }
            ticking.start(afterMs: 1, repeatMs: 1) {}
            timerReleased.set(idle)
        }
        #expect(await server.shutdown() == "ok")
        #expect(serverProbe.closeCount == 1)
        #expect(await waitUntil { clientProbe.closeCount == 1 })
        #expect(clientProbe.bytes.value == Array("bye".utf8))
        #expect(released.isNil)
        #expect(timerReleased.isNil)
        #expect(await client.shutdown() == "ok")
    }

    @Test("the flush timeout closes connections whose peer never reads")
    func shutdownFlushTimeout() async throws {
        let server = try LoopRunner()
        let client = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let accepted = Box(false)
        try await connectPair(server: server, client: client, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe)
            accepted.value = true
            // Far more than the socket buffers hold; the client never reads.
            connection.write([UInt8](repeating: 1, count: 32 * 1024 * 1024))
        }, onConnect: { _ in })
        #expect(await waitUntil { accepted.value })
        #expect(await server.shutdown(flushTimeoutMs: 50) == "ok")
        #expect(serverProbe.closeCount == 1)
        #expect(serverProbe.closeErrors.value.first! == nil)  // a local close
        #expect(await client.shutdown() == "ok")
    }

    @Test("startOnNewThread runs the loop; shutdown ends the thread")
    func startOnNewThread() async throws {
        let released = WeakBox()
        do {
            let loop = try EventLoop.startOnNewThread(name: "uv-test-loop")
            released.set(loop)
            let ran = Box<Bool?>(nil)
            loop.execute { ran.value = loop.isInLoopThread }
            #expect(await eventually { ran.value } == true)
            #expect(!loop.isInLoopThread)
            #expect(loop.monotonicNowMs() > 0)
            loop.shutdownGracefully()
        }
        // The thread releases the loop once run() has returned.
        #expect(await waitUntil { released.isNil })
    }

    @Test("an unused EventLoop deinitialises cleanly")
    func unusedLoop() throws {
        let released = WeakBox()
        do {
            let loop = try EventLoop()
            released.set(loop)
        }
        #expect(released.isNil)
    }
}
