#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that hold credentials: directories 0700, files 0600, replaced atomically (write a temporary
/// file, fsync, rename) so a crash never leaves half a profile.
enum SecureFile {
    static func makeDirectory(_ path: String) throws(CLIError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                // Tighten only what we create: parents like ~/.config belong to the user.
                if chmod(prefix, 0o700) != 0 { throw .local("cannot chmod \(prefix): \(errorText())") }
            } else if errno != EEXIST {
                throw .local("cannot create directory \(prefix): \(errorText())")
            }
        }
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws(CLIError) {
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .local("cannot write \(temporary): \(errorText())") }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                failure = errorText()
                break
            }
            written += result
        }
        // The umask may have narrowed the mode further, never widened it; make it exactly 0600.
        if failure == nil, fchmod(fd, 0o600) != 0 { failure = errorText() }
        if failure == nil, fsync(fd) != 0 { failure = errorText() }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw .local("cannot write \(path): \(failure)")
        }
    }

    /// nil if the file does not exist.
    static func readFile(_ path: String) throws(CLIError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .local("cannot read \(path): \(errorText())")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .local("cannot read \(path): \(errorText())")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
