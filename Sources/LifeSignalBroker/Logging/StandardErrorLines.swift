#if canImport(Glibc)
import Glibc
#endif
import LifeSignalUV

/// Whole lines to stderr, one `write` each under a lock, so that lines from several threads never
/// interleave.
public enum StandardErrorLines {
    /// The descriptor the lock guards (`Locked` holds state, never `()`).
    private static let standardError = Locked(Int32(2))

    @Sendable public static func write(_ line: String) {
        var line = line
        standardError.withLock { descriptor in
            line.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}
