import Testing
@testable import LifeSignalUV

@Suite("TCPListener")
struct TCPListenerTests {
    @Test("binding a busy port throws EADDRINUSE from uv_tcp_bind")
    func addressInUse() async throws {
        let runner = try LoopRunner()
        let error = await runner.onLoop { () -> UVError? in
            do {
                let first = try TCPListener(loop: runner.loop, host: "127.0.0.1", port: 0)
                try first.start { _ in }
                _ = try TCPListener(loop: runner.loop, host: "127.0.0.1", port: first.localPort)
                return nil
            } catch let error as UVError {
                return error
            } catch {
                return nil
            }
        }
        let bindError = try #require(error ?? nil)
        #expect(bindError.name == "EADDRINUSE")
        #expect(bindError.operation == "uv_tcp_bind")
        #expect(bindError.description == "uv_tcp_bind: address already in use (EADDRINUSE)")
        #expect(!bindError.isEndOfFile)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("reusePort lets two listeners share a port")
    func reusePort() async throws {
        let runner = try LoopRunner()
        let ports = await runner.onLoop { () -> [Int] in
            guard let first = try? TCPListener(loop: runner.loop, host: "127.0.0.1", port: 0, reusePort: true),
                  let second = try? TCPListener(loop: runner.loop, host: "127.0.0.1", port: first.localPort, reusePort: true)
            else { return [] }
            try? first.start { _ in }
            try? second.start { _ in }
            return [first.localPort, second.localPort]
        }
        let both = try #require(ports)
        #expect(both.count == 2)
        #expect(both.first != 0 && both.first == both.last)
        #expect(await runner.shutdown() == "ok")
    }

    @Test("hosts must be IP literals")
    func badHost() async throws {
        let runner = try LoopRunner()
        let failed = await runner.onLoop { (try? TCPListener(loop: runner.loop, host: "not-an-ip", port: 0)) == nil }
        #expect(failed == true)
        #expect(await runner.shutdown() == "ok")
    }
}
