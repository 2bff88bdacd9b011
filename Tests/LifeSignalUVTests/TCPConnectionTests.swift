import Testing
@testable import LifeSignalUV

@Suite("TCPConnection over loopback")
struct TCPConnectionTests {
    @Test("echo: many small writes arrive intact and in order")
    func echoManySmallWrites() async throws {
        let runner = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let clientProbe = ConnectionProbe()
        // 3,000 writes of 1...17 bytes, spread over several loop turns.
        let chunks = (0..<3000).map { pattern($0 % 17 + 1, seed: $0) }
        let expected = chunks.flatMap { $0 }
        try await connectPair(server: runner, client: runner, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe, echo: true)
            connection.startReading()
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(clientProbe)
            connection.startReading()
            for batch in stride(from: 0, to: chunks.count, by: 500) {
                let connection = LoopBound(connection)
                connection.value.loop.execute {
                    for chunk in chunks[batch..<min(batch + 500, chunks.count)] { connection.value.write(chunk) }
                }
            }
        })
        #expect(await waitUntil { clientProbe.byteCount >= expected.count })
        #expect(serverProbe.bytes.value == expected)
        #expect(clientProbe.bytes.value == expected)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("a 10 MiB write to a slow reader arrives completely and in order")
    func largeWriteToSlowReader() async throws {
        let server = try LoopRunner()
        let client = try LoopRunner()
        let size = 10 * 1024 * 1024
        let payload = pattern(size)
        let clientProbe = ConnectionProbe()
        let drained = Box(false)
        let maxBuffered = Box(0)
        try await connectPair(server: server, client: client, onAccept: { connection in
            connection.write(payload)
            maxBuffered.value = connection.bufferedBytes
            let holder = LoopBound(connection)
            // Sample how much stays queued while the reader lags.
            let timer = try? Timer(loop: server.loop)
            timer?.start(afterMs: 1, repeatMs: 1) {
                maxBuffered.mutate { $0 = max($0, holder.value.bufferedBytes) }
                if holder.value.bufferedBytes == 0 {
                    drained.value = true
                    timer?.close()
                }
            }
        }, onConnect: { connection in
            let delegate = RecordingDelegate(clientProbe)
            let pause = try? Timer(loop: client.loop)
            // Slow reader: one read, then a pause before reading again.
            delegate.onRead = { connection, _ in
                connection.stopReading()
                pause?.start(afterMs: 1) { connection.startReading() }
            }
            connection.delegate = delegate
            connection.startReading()
        })
        #expect(await waitUntil(timeout: .seconds(120)) { clientProbe.byteCount >= size })
        #expect(clientProbe.bytes.value == payload)
        #expect(maxBuffered.value > 0)
        #expect(await waitUntil { drained.value })
        #expect(await server.shutdown() == "ok")
        #expect(await client.shutdown() == "ok")
    }

    @Test("1,000 writes in one loop turn cost at most three syscalls")
    func writesAreBatchedPerIteration() async throws {
        let (runner, serverProbe, connection) = try await clientWithRecordingServer()
        let afterWrites = await runner.onLoop { () -> [Int] in
            let before = Int(connection.value.flushSyscallCount)
            for i in 0..<1000 { connection.value.write(pattern(8, seed: i)) }
            // A quiet connection's first writes go out at once; once it is busy the rest wait
            // for the one flush before the loop next blocks.
            return [Int(connection.value.flushSyscallCount) - before, connection.value.bufferedBytes]
        }
        #expect(afterWrites.map { $0[0] <= 2 && $0[1] >= 8000 - 2 * 8 } == true)
        #expect(await waitUntil { serverProbe.byteCount >= 8000 })
        let syscalls = await runner.onLoop { Int(connection.value.flushSyscallCount) }
        #expect(syscalls != nil && syscalls! >= 1 && syscalls! <= 3)
        #expect(await runner.onLoop { connection.value.bufferedBytes } == 0)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("a quiet connection's write goes out at once and keeps no buffer")
    func aQuietConnectionWritesThrough() async throws {
        let (runner, serverProbe, connection) = try await clientWithRecordingServer()
        let afterWrite = await runner.onLoop { () -> [Int] in
            let before = Int(connection.value.flushSyscallCount)
            connection.value.write(pattern(800, seed: 1))
            return [Int(connection.value.flushSyscallCount) - before, connection.value.bufferedBytes,
                    connection.value.outboundCapacity]
        }
        #expect(afterWrite == [1, 0, 0])
        #expect(await waitUntil { serverProbe.byteCount >= 800 })
        #expect(await runner.shutdown() == "ok")
    }

    @Test("closeAfterFlush delivers everything, then the peer sees EOF")
    func closeAfterFlushDeliversEverything() async throws {
        let server = try LoopRunner()
        let client = try LoopRunner()
        let size = 1024 * 1024
        let payload = pattern(size, seed: 7)
        let serverProbe = ConnectionProbe()
        let clientProbe = ConnectionProbe()
        let stillOpenAfterCall = Box(false)
        try await connectPair(server: server, client: client, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe)
            for offset in stride(from: 0, to: size, by: 1024) {
                connection.write(Array(payload[offset..<offset + 1024]))
            }
            connection.closeAfterFlush()
            stillOpenAfterCall.value = !connection.isClosed
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(clientProbe)
            connection.startReading()
        })
        #expect(await waitUntil { clientProbe.closeCount == 1 })
        #expect(clientProbe.closeErrors.value.first! == nil)  // clean EOF
        #expect(clientProbe.bytes.value == payload)
        #expect(serverProbe.closeCount == 1)
        #expect(serverProbe.closeErrors.value.first! == nil)
        #expect(stillOpenAfterCall.value)  // it waited for the queued bytes
        #expect(await server.shutdown() == "ok")
        #expect(await client.shutdown() == "ok")
    }

    @Test("connectionDidClose runs exactly once on peer close and on local close")
    func didCloseExactlyOnce() async throws {
        let runner = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let clientProbe = ConnectionProbe()
        let server = Box<LoopBound<TCPConnection>?>(nil)
        let client = Box<LoopBound<TCPConnection>?>(nil)
        try await connectPair(server: runner, client: runner, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe)
            connection.startReading()
            server.value = LoopBound(connection)
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(clientProbe)
            connection.startReading()
            client.value = LoopBound(connection)
        })
        let serverConnection = try #require(await eventually { server.value })
        let clientConnection = try #require(await eventually { client.value })
        // Local close on the client (twice); the server sees the peer close as EOF.
        _ = await runner.onLoop {
            clientConnection.value.close()
            clientConnection.value.close()
            clientConnection.value.closeAfterFlush()
        }
        #expect(await waitUntil { clientProbe.closeCount == 1 && serverProbe.closeCount == 1 })
        // Closing again after the fact changes nothing; delegates were released.
        let delegatesCleared = await runner.onLoop { () -> Bool in
            serverConnection.value.close()
            clientConnection.value.close()
            return serverConnection.value.delegate == nil && clientConnection.value.delegate == nil
                && serverConnection.value.isClosed && clientConnection.value.isClosed
        }
        #expect(delegatesCleared == true)
        _ = await runner.onLoop {}  // one more turn for any stray callback
        #expect(clientProbe.closeCount == 1)
        #expect(serverProbe.closeCount == 1)
        #expect(clientProbe.closeErrors.value.first! == nil)
        #expect(serverProbe.closeErrors.value.first! == nil)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("connecting to a closed port fails with ECONNREFUSED")
    func connectionRefused() async throws {
        let runner = try LoopRunner()
        let outcome = Box<UVError?>(nil)
        _ = await runner.onLoop {
            guard let listener = try? TCPListener(loop: runner.loop, host: "127.0.0.1", port: 0) else { return }
            let port = listener.localPort
            listener.close()
            TCPConnection.connect(loop: runner.loop, host: "127.0.0.1", port: port) { result in
                if case .failure(let error) = result { outcome.value = error }
            }
        }
        let error = try #require(await eventually { outcome.value })
        #expect(error.name == "ECONNREFUSED")
        #expect(error.operation == "uv_tcp_connect")
        #expect(await runner.shutdown() == "ok")
    }

    @Test("sourceAddress 127.0.0.2 is what the server sees as the remote address")
    func sourceAddress() async throws {
        let runner = try LoopRunner()
        let serverProbe = ConnectionProbe()
        try await connectPair(server: runner, client: runner, sourceAddress: "127.0.0.2", onAccept: { connection in
            serverProbe.remoteAddress.value = connection.remoteAddress
        }, onConnect: { _ in })
        let remote = try #require(await eventually { serverProbe.remoteAddress.value })
        #expect(remote.hasPrefix("127.0.0.2:"))
        #expect((Int(remote.dropFirst("127.0.0.2:".count)) ?? 0) > 0)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("IPv6 loopback")
    func ipv6() async throws {
        let runner = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let clientProbe = ConnectionProbe()
        try await connectPair(server: runner, client: runner, host: "::1", onAccept: { connection in
            serverProbe.remoteAddress.value = connection.remoteAddress
            connection.delegate = RecordingDelegate(serverProbe, echo: true)
            connection.startReading()
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(clientProbe)
            connection.startReading()
            connection.write([1, 2, 3])
        })
        #expect(await waitUntil { clientProbe.byteCount == 3 })
        #expect(serverProbe.remoteAddress.value?.hasPrefix("[::1]:") == true)
        #expect(await runner.shutdown() == "ok")
    }

    /// A loop with a server that records what it reads, and the client connection to it.
    private func clientWithRecordingServer() async throws
        -> (LoopRunner, ConnectionProbe, LoopBound<TCPConnection>)
    {
        let runner = try LoopRunner()
        let serverProbe = ConnectionProbe()
        let client = Box<LoopBound<TCPConnection>?>(nil)
        try await connectPair(server: runner, client: runner, onAccept: { connection in
            connection.delegate = RecordingDelegate(serverProbe)
            connection.startReading()
        }, onConnect: { connection in
            client.value = LoopBound(connection)
        })
        return (runner, serverProbe, try #require(await eventually { client.value }))
    }
}
