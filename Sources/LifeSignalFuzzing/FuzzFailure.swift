/// An invariant the fuzz harness found broken. Not a protocol error: a bug in the code under test.
public struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Throws a `FuzzFailure` when `condition` is false.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(message()) }
}

/// Bytes as hex, for messages and reproducers.
func hex(_ bytes: some Collection<UInt8>, limit: Int = 256) -> String {
    let shown = bytes.prefix(limit).map { byte in
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }
    return shown.joined() + (bytes.count > limit ? "… (\(bytes.count) bytes)" : "")
}
