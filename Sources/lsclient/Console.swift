import LifeSignalProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Line output straight to the file descriptors: one write per line, nothing buffered, so a test
/// reading stdout through a pipe sees each line as soon as it is printed.
enum Console {
    static func out(_ line: String) {
        writeLine(line, to: 1)
    }

    static func err(_ line: String) {
        writeLine(line, to: 2)
    }

    /// One compact JSON object per line.
    static func json(_ value: JSONValue) {
        writeJSON(value, to: 1)
    }

    /// A JSON line on stderr: an error, with --json.
    static func jsonError(_ value: JSONValue) {
        writeJSON(value, to: 2)
    }

    private static func writeJSON(_ value: JSONValue, to fd: Int32) {
        var bytes = value.serialized()
        bytes.append(UInt8(ascii: "\n"))
        writeAll(bytes, to: fd)
    }

    private static func writeLine(_ line: String, to fd: Int32) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        writeAll(bytes, to: fd)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // the reader went away; nothing useful left to do with output
                }
                offset += written
            }
        }
    }
}
