/// The protocol version a client states in `hello` (PROTOCOL.md §3, §12).
public enum ProtocolVersion {
    /// What this library's clients say: v1.2, so they are told of the §12 additions.
    public static let current: Int64 = v1_2
    /// Version 1 (with the v1.1 additions): still served as it was.
    public static let v1: Int64 = 1
    /// v1.2 (§12): a device that says 2 is answered with `version: 2` in `hello`'s `ok`.
    public static let v1_2: Int64 = 2
    /// The versions this broker serves.
    public static let supported: ClosedRange<Int64> = v1...v1_2
}
