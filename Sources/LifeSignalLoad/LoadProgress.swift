#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live line on stderr, once a second. On a terminal it rewrites itself in place; piped
/// (a bench script, a test) it prints one line per second, which logs read better.
package struct LoadProgress {
    private let inPlace = isatty(2) != 0
    private var lineOpen = false

    package mutating func show(_ text: String) {
        if inPlace {
            emit("\r\u{1B}[K" + text)
            lineOpen = true
        } else {
            emit(text + "\n")
        }
    }

    /// Ends an in-place line so what follows starts on its own line.
    package mutating func finish() {
        if lineOpen { emit("\n") }
        lineOpen = false
    }

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
