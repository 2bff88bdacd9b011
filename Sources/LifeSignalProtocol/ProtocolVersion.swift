/// The protocol version a client states in `hello` (PROTOCOL.md §3).
public enum ProtocolVersion {
    public static let current: Int64 = 1
}
