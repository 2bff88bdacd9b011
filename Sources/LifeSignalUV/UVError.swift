import CLibUV

/// A failed libuv call: the negative libuv code and the function that returned it.
public struct UVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Negative libuv error code (for example `UV_EADDRINUSE`).
    public let code: Int32
    /// The libuv function that failed, e.g. "uv_tcp_bind".
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// Symbolic name, e.g. "EADDRINUSE".
    public var name: String { String(cString: uv_err_name(code)) }

    /// "uv_tcp_bind: address already in use (EADDRINUSE)"
    public var description: String { "\(operation): \(String(cString: uv_strerror(code))) (\(name))" }

    public var isEndOfFile: Bool { code == UV_EOF.rawValue }

    /// EMFILE or ENFILE: the process or the system has no file descriptor to spare.
    public var isOutOfDescriptors: Bool { code == UV_EMFILE.rawValue || code == UV_ENFILE.rawValue }
}

/// The one place libuv return codes become errors (like NIO's `syscall`): negative is failure,
/// anything else is returned. The operation is a StaticString so success costs no allocation.
@discardableResult
@inline(__always)
func uvCheck(_ result: Int32, _ operation: StaticString) throws(UVError) -> Int32 {
    if result < 0 { throw UVError(code: result, operation: operation.description) }
    return result
}
