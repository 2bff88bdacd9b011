import Foundation
import Glibc

/// One broker per data directory: a second one on the same store would write beside the first,
/// and their event sequence numbers would collide. The lock is flock(2) on `lifesignal.lock`,
/// which names its holder's pid; the kernel drops it when the holder exits, however it exits.
package final class DataDirectoryLock: Sendable {
    package static let fileName = "lifesignal.lock"
    private let descriptor: Int32

    /// Takes the lock of `directory` (which must exist), or throws `DataDirectoryInUse`.
    package init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateStoreFiles.fileMode)
        guard fd >= 0 else { throw StoreFileError(path: path, operation: "open", code: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.holder(fd)
            close(fd)
            if code == EWOULDBLOCK { throw DataDirectoryInUse(directory: directory, pid: holder) }
            throw StoreFileError(path: path, operation: "flock", code: code)
        }
        let pid = Array("\(getpid())\n".utf8)
        guard fchmod(fd, PrivateStoreFiles.fileMode) == 0, ftruncate(fd, 0) == 0,
              pwrite(fd, pid, pid.count, 0) == pid.count else {
            let code = errno
            close(fd)
            throw StoreFileError(path: path, operation: "write", code: code)
        }
        descriptor = fd
    }

    /// Lets the next broker in; the file stays, with the pid of its last holder.
    package func release() {
        close(descriptor)
    }

    /// The pid the holder wrote (nil while it has not yet).
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Another process holds the data directory's lock.
public struct DataDirectoryInUse: Error, CustomStringConvertible {
    public let directory: String
    public let pid: Int32?

    public var description: String {
        "the data directory \(directory) is in use by another broker (\(pid.map { "pid \($0)" } ?? "pid unknown")); "
            + "stop it, or give this one its own --data-dir"
    }
}
