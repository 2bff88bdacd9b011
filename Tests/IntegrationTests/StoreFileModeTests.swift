import Foundation
import Glibc
import LifeSignalProtocol
import Testing

/// The data directory holds QR codes and push tokens. Whatever umask the broker starts with, the
/// directories it creates are 0700 and every file of its store is 0600, the WAL and its index
/// included; a store an older broker left readable is narrowed when the broker starts.
@Suite("Store file modes")
struct StoreFileModeTests {
    @Test func underAPermissiveUmaskTheStoreIsPrivate() throws {
        let parent = TemporaryDirectory("modes")
        // The broker creates the data directory and its parent.
        let data = TemporaryDirectory(inside: parent, named: "state/lifesignal")
        try FileManager.default.removeItem(at: parent.url.appendingPathComponent("state"))
        let broker = try BrokerProcess(dataDirectory: data, fileCreationMask: 0)
        // Writes, so that the WAL and its index exist and hold a QR code and a push token.
        let alice = try Person("Alice", port: broker.port)
        _ = alice.ok(Op.deviceRegister, ["token": "push-token-of-alice"])

        let modes = try Self.modes(inside: data.path)
        #expect(Set(modes.keys).isSuperset(of: ["lifesignal.sqlite", "lifesignal.sqlite-wal", "lifesignal.sqlite-shm"]))
        for (name, mode) in modes { #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8))") }
        #expect(try Self.mode(of: data.path) == 0o700)
        #expect(try Self.mode(of: parent.path + "/state") == 0o700)
    }

    @Test func aReadableStoreIsNarrowedAtStart() throws {
        let broker = try BrokerProcess(fileCreationMask: 0)
        _ = try Person("Alice", port: broker.port)
        broker.stop(signal: SIGKILL)  // leaves the WAL and its index behind
        let directory = broker.dataDirectory.path
        for name in try Self.modes(inside: directory).keys { chmod(directory + "/" + name, 0o644) }

        try broker.start()
        _ = try Person("Bob", port: broker.port)
        let modes = try Self.modes(inside: directory)
        #expect(modes.count >= 3)
        for (name, mode) in modes { #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8))") }
    }

    /// Each entry of `directory` and its permission bits.
    static func modes(inside directory: String) throws -> [String: Int] {
        var modes: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            modes[name] = try mode(of: directory + "/" + name)
        }
        return modes
    }

    static func mode(of path: String) throws -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int(info.st_mode & 0o777)
    }
}
