import Foundation
import Glibc

/// The store holds QR codes (which let anyone add their owner as a contact) and push tokens (which
/// let anyone push to a device), so only the broker's own user may read it, whatever umask the
/// broker was started with: directories it creates are 0700, the database's files 0600.
package enum PrivateStoreFiles {
    package static let directoryMode: mode_t = 0o700
    package static let fileMode: mode_t = 0o600

    /// Call before SQLite opens `databasePath` (after `makeDirectory`). Creates the database file
    /// 0600, or narrows an existing one and its -wal, -shm and -journal to 0600. SQLite gives every
    /// such file it creates later the database file's mode.
    package static func prepare(databasePath: String) throws {
        let fd = open(databasePath, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw StoreFileError(path: databasePath, operation: "open", code: errno) }
        // open's mode applies only to a new file, and after the umask: set it either way.
        let changed = fchmod(fd, fileMode)
        let code = errno
        close(fd)
        guard changed == 0 else { throw StoreFileError(path: databasePath, operation: "chmod", code: code) }
        for suffix in ["-wal", "-shm", "-journal"] {
            let path = databasePath + suffix
            guard chmod(path, fileMode) == 0 || errno == ENOENT else {
                throw StoreFileError(path: path, operation: "chmod", code: errno)
            }
        }
    }

    /// Like `mkdir -p`, but every directory it creates is 0700. A directory that exists keeps its
    /// mode: it is the operator's (systemd's StateDirectory, say). Each level is tried once: a
    /// parent that exists and still cannot hold `path` (a dangling symlink, /proc) is an error.
    package static func makeDirectory(_ path: String) throws {
        if mkdir(path, directoryMode) == 0 { return try narrowNewDirectory(path) }
        var code = errno
        let parent = (path as NSString).deletingLastPathComponent
        if code == ENOENT, !parent.isEmpty, parent != path {
            try makeDirectory(parent)
            if mkdir(path, directoryMode) == 0 { return try narrowNewDirectory(path) }
            code = errno
        }
        guard code == EEXIST else { throw StoreFileError(path: path, operation: "mkdir", code: code) }
        // It exists, but a dangling symlink or a file is no directory to use.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StoreFileError(path: path, operation: "mkdir", code: errno, reason: "a symlink to nowhere")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw StoreFileError(path: path, operation: "mkdir", code: ENOTDIR) }
    }

    /// mkdir's mode went through the umask, which can only have narrowed it.
    private static func narrowNewDirectory(_ path: String) throws {
        guard chmod(path, directoryMode) == 0 else { throw StoreFileError(path: path, operation: "chmod", code: errno) }
    }
}

package struct StoreFileError: Error, CustomStringConvertible {
    package let path: String
    package let operation: String
    package let code: Int32
    /// Said instead of the code's own text when that would mislead.
    package var reason: String?

    package var description: String { "\(operation) \(path): \(reason ?? String(cString: strerror(code)))" }
}
