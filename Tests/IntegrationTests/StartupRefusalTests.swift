import Foundation
import Glibc
import Testing

/// A broker that cannot start as asked says why, naming what to change, and exits 1: a second
/// broker on a data directory in use, a data directory it cannot create.
@Suite("lsbroker refuses to start", .serialized, .disabled(if: BrokerProcess.onPostgres, "the data directory is not used"))
struct StartupRefusalTests {
    @Test func aSecondBrokerOnTheSameDataDirectoryIsRefusedNamingTheFirst() throws {
        let first = try BrokerProcess()
        let second = try brokerRun(["serve", "--port", "0", "--data-dir", first.dataDirectory.path])
        #expect(second.status == 1)
        #expect(second.output.contains("in use by another broker (pid \(first.pid))"), "\(second.output)")
        #expect(second.output.contains("--data-dir"))
        // The first goes on serving.
        _ = try RawConnection.authenticated(port: first.port)
    }

    @Test func theDataDirectoryIsFreeOnceItsBrokerHasStopped() throws {
        let broker = try BrokerProcess()
        broker.stop(signal: SIGKILL)
        try broker.start()
        _ = try RawConnection.authenticated(port: broker.port)
    }

    @Test func aDataDirectoryUnderADanglingSymlinkIsAClearError() throws {
        let parent = TemporaryDirectory("dangling")
        let link = parent.path + "/link"
        #expect(symlink(parent.path + "/gone/away", link) == 0)
        let run = try brokerRun(["serve", "--port", "0", "--data-dir", link + "/data"])
        #expect(run.status == 1)
        #expect(run.output.contains("mkdir \(link): a symlink to nowhere"), "\(run.output)")
    }

    @Test func aDataDirectoryUnderProcIsAClearError() throws {
        let run = try brokerRun(["serve", "--port", "0", "--data-dir", "/proc/lifesignal-test/data"])
        #expect(run.status == 1)
        #expect(run.output.contains("mkdir /proc/lifesignal-test"), "\(String(run.output.prefix(500)))")
    }
}

/// A port in use is named with its option, and found before the data directory is made.
@Suite("lsbroker on a port in use", .disabled(if: BrokerProcess.onPostgres, "the data directory is not used"))
struct PortInUseTests {
    @Test func aPortInUseIsNamedAndNothingIsCreated() throws {
        let first = try BrokerProcess()
        let data = TemporaryDirectory("port-in-use")
        let unmade = data.path + "/store"
        let run = try brokerRun(["serve", "--port", "\(first.port)", "--data-dir", unmade])
        #expect(run.status == 1)
        #expect(run.output.contains("127.0.0.1:\(first.port) (--port"), "\(run.output)")
        #expect(run.output.contains("address already in use"))
        #expect(!FileManager.default.fileExists(atPath: unmade))
    }

    @Test func statsAgainstAClosedPortFailsAtOnce() throws {
        let closed = try closedPort()
        let started = ContinuousClock.now
        let run = try brokerRun(["stats", "--metrics-url", "http://127.0.0.1:\(closed)"])
        #expect(run.status == 1)
        #expect(run.output.contains("127.0.0.1:\(closed)"), "\(run.output)")
        #expect(run.output.contains("refused"), "\(run.output)")
        // It used to wait out its 5 s timeout.
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    /// A port nothing listens on: bound and closed again.
    private func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Runs `lsbroker` to its end; one that starts serving instead (the failure these tests look
/// for) is stopped after a generous minute rather than hanging the suite.
func brokerRun(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try runCommand(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", Binaries.broker.path] + arguments)
}
