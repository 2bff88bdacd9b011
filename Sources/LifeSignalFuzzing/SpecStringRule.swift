/// PROTOCOL.md §10's string rules, written from the spec apart from `Validate` so that each checks
/// the other: the harness expects `Validate` to accept a string exactly when its rule here allows
/// it. The numbers are the spec's, not `Validate`'s constants, on purpose.
public enum SpecStringRule: String, CaseIterable, Sendable {
    /// Trimmed, 1–100 characters and at most 400 bytes, no control characters.
    case name
    /// At most 500 characters and 2,000 bytes.
    case message
    /// Trimmed, at most 32 characters of `[0-9 +()-]`.
    case phone
    /// 1–4,096 bytes of printable ASCII.
    case pushToken
    /// `device` and `platform`: 1–64 characters of `[A-Za-z0-9._:-]`.
    case deviceName
    /// What the broker made and the client hands back (ids, the credential token, QR codes): 1–64 bytes.
    case opaque

    public func allows(_ raw: String) -> Bool {
        switch self {
        case .name:
            let name = Self.trimmed(raw)
            return (1...100).contains(name.count) && name.utf8.count <= 400
                && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        case .message:
            return raw.count <= 500 && raw.utf8.count <= 2_000
        case .phone:
            let phone = Self.trimmed(raw)
            return phone.count <= 32 && phone.allSatisfy(Self.phoneCharacters.contains)
        case .pushToken:
            return (1...4_096).contains(raw.utf8.count)
                && raw.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        case .deviceName:
            return (1...64).contains(raw.count) && raw.allSatisfy(Self.deviceNameCharacters.contains)
        case .opaque:
            return (1...64).contains(raw.utf8.count)
        }
    }

    /// The bounds: in characters where the spec gives one apart from bytes, and in bytes (for an
    /// ASCII-only rule the same number).
    public var maxCharacters: Int? {
        switch self {
        case .name: 100
        case .message: 500
        case .phone, .pushToken, .deviceName, .opaque: nil
        }
    }

    public var maxBytes: Int {
        switch self {
        case .name: 400
        case .message: 2_000
        case .phone: 32
        case .pushToken: 4_096
        case .deviceName, .opaque: 64
        }
    }

    private static let phoneCharacters = Set("0123456789 +()-")
    private static let deviceNameCharacters =
        Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-")

    /// Unicode whitespace (newlines included) off both ends.
    private static func trimmed(_ s: String) -> Substring {
        let head = s.drop(while: \.isWhitespace)
        return head.dropLast(head.reversed().prefix(while: \.isWhitespace).count)
    }
}
