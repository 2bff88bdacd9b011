/// Receives a connection's events on the loop thread.
public protocol TCPConnectionDelegate: AnyObject {
    /// `bytes` is valid only during the call (it is the loop's shared read buffer).
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer)
    /// Called exactly once, after the handle has been closed for any reason (EOF, error, local close).
    /// error is nil for a local close or a clean EOF.
    func connectionDidClose(_ connection: TCPConnection, error: UVError?)
}
