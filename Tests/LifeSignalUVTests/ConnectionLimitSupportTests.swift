import Testing
@testable import LifeSignalUV

/// What the broker's limits need from the loop: the peer's address without its port, the count
/// of sockets held, and closing a connection with a last frame while freeing its descriptor now.
@Suite("Connection limit support")
struct ConnectionLimitSupportTests {
    @Test("an address's bytes are the ones it was made of, and format as IPv4 when mapped")
    func addressBytesRoundTrip() {
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        #expect(IPAddress(bytes: v6).bytes == v6)
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 9]
        #expect(IPAddress(bytes: mapped).bytes == mapped)
        #expect(SocketAddress(ip: IPAddress(bytes: mapped), port: 7420).description == "127.0.0.9:7420")
        #expect(SocketAddress(ip: IPAddress(bytes: v6), port: 1).description == "[2001:db8:102:304:506:708:90a:b0c]:1")
    }

    @Test("an accepted connection knows its peer's IPv4 address, in its IPv6-mapped form")
    func remoteIPv4() async throws {
        let runner = try LoopRunner()
        let address = Box<IPAddress?>(nil)
        try await connectPair(server: runner, client: runner, sourceAddress: "127.0.0.9", onAccept: { connection in
            address.value = connection.remoteIP
        }, onConnect: { _ in })
        let ip = try #require(await eventually { address.value })
        #expect(ip == IPAddress(high: 0, low: 0xffff_7f00_0009))
        #expect(ip.isIPv4)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("and its peer's IPv6 address")
    func remoteIPv6() async throws {
        let runner = try LoopRunner()
        let address = Box<IPAddress?>(nil)
        try await connectPair(server: runner, client: runner, host: "::1", onAccept: { connection in
            address.value = connection.remoteIP
        }, onConnect: { _ in })
        let ip = try #require(await eventually { address.value })
        #expect(ip == IPAddress(high: 0, low: 1))
        #expect(!ip.isIPv4)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("writeNowAndClose sends its bytes and frees the socket before it returns")
    func writeNowAndClose() async throws {
        let server = try LoopRunner()
        let client = try LoopRunner()
        let probe = ConnectionProbe()
        let counts = Box<[Int]>([])
        try await connectPair(server: server, client: client, onAccept: { connection in
            let before = connection.loop.openConnectionCount
            connection.writeNowAndClose([1, 2, 3])
            counts.value = [before, connection.loop.openConnectionCount]
        }, onConnect: { connection in
            connection.delegate = RecordingDelegate(probe)
            connection.startReading()
        })
        #expect(await waitUntil { probe.closeCount == 1 })
        #expect(probe.bytes.value == [1, 2, 3])
        #expect(counts.value == [1, 0])
        #expect(await server.shutdown() == "ok")
        #expect(await client.shutdown() == "ok")
    }
}
