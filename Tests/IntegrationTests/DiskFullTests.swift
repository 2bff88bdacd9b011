import Foundation
import Glibc
import LifeSignalProtocol
import Testing

/// The embedded store on a disk that fills up, a small tmpfs the test mounts (root only): the
/// broker says it is not ready while it cannot commit, still lets a user in to read what is
/// stored, and is ready again once there is room, with no restart.
@Suite("A full disk", .serialized,
       .disabled(if: BrokerProcess.onPostgres, "the data directory is not used"),
       .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root"))
struct DiskFullTests {
    @Test func aFullDiskIsNotReadyYetLetsAUserInAndIsReadyOnceThereIsRoom() throws {
        let disk = try SmallDisk(megabytes: 24)
        defer { disk.unmount() }
        let broker = try BrokerProcess(
            arguments: ["--metrics-port", "0", "--notification-history", "1", "--log-level", "debug"],
            dataDirectory: TemporaryDirectory(inside: disk.directory, named: "data"))
        defer { broker.stop() }
        // Alice has two notifications and a history of one: loading her deletes one, a write.
        let credential: Credential
        let bob = try Person("Bob", port: broker.port)
        do {
            let alice = try Person("Alice", port: broker.port)
            credential = alice.credential
            alice.add(bob, responder: true, dependent: false)
            _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
            _ = bob.ok(Op.pingClear, ["contactId": .string(alice.id)])
            _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        }
        #expect(eventually { Self.unloaded(credential.userID, broker) })
        #expect(try broker.operations("/readyz").status == 200)

        let filler = try disk.fill()
        #expect(eventually { (try? broker.operations("/readyz"))?.status == 503 })
        #expect(try broker.operations("/readyz").body.contains("store: unreachable"))
        // Reading needs no room: Alice opens the app and sees what is stored.
        let phone = try RawConnection(port: broker.port)
        #expect(phone.hello(credential, device: "phone")?.okFields != nil)

        try FileManager.default.removeItem(atPath: filler)
        #expect(eventually { (try? broker.operations("/readyz"))?.status == 200 })
        #expect(bob.request(Op.pingClear, ["contactId": .string(credential.userID)])?.okFields != nil)
    }

    private static func unloaded(_ userID: String, _ broker: BrokerProcess) -> Bool {
        broker.loggedText.split(separator: "\n").contains { $0.contains("user unloaded") && $0.contains(userID) }
    }
}

/// A tmpfs of a few MiB mounted for one test.
struct SmallDisk {
    let directory: TemporaryDirectory

    static let canMount: Bool = {
        guard let disk = try? SmallDisk(megabytes: 1) else { return false }
        disk.unmount()
        return true
    }()

    init(megabytes: Int) throws {
        directory = TemporaryDirectory("small-disk")
        let run = try runCommand(URL(fileURLWithPath: "/bin/mount"),
                                 ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
        guard run.status == 0 else { throw POSIXError(.EPERM) }
    }

    /// Writes a file until the disk is full; returns its path.
    func fill() throws -> String {
        let path = directory.path + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while write(fd, chunk, chunk.count) > 0 {}
        return path
    }

    func unmount() {
        _ = try? runCommand(URL(fileURLWithPath: "/bin/umount"), ["-l", directory.path])
    }
}
