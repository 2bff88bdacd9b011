/// Field rules of PROTOCOL.md §3, §4, §5 and §10. Each returns the value to store (trimmed where the
/// rule trims) or throws `bad_request` naming the field and the rule.
///
/// Every string is bounded in UTF-8 bytes as well as in what a user sees (§10, v1.1). A Character
/// may hold any number of combining marks, so a bound on Characters alone let one "character" of
/// 20 KB through as a name, and the broker copies a name into every contact's events.
public enum Validate {
    public static let maxNameLength = 100
    /// `notifications.list`'s largest and default page, and the notifications a snapshot carries
    /// (§3, §5): one figure for every store.
    public static let notificationPage = 100
    public static let maxNameBytes = 400
    public static let maxMessageLength = 500
    public static let maxMessageBytes = 2_000
    /// Device ids and platforms are ASCII: characters and bytes alike.
    public static let maxDeviceIDLength = 64
    public static let maxPlatformLength = 64
    /// Printable ASCII: characters and bytes alike.
    public static let maxPushTokenLength = 4096
    public static let maxCheckInIntervalSec: Int64 = 2_592_000
    /// Bytes: every id the broker makes is ASCII.
    public static let maxIDLength = 64
    /// `[0-9 +()-]`: characters and bytes alike.
    public static let maxPhoneLength = 32

    /// Trimmed; 1–100 characters and at most 400 bytes; no control characters.
    public static func name(_ s: String, field: String = "name") throws(ProtocolError) -> String {
        let trimmed = trimmingWhitespace(s)
        // Bytes first: utf8.count is O(1), and it bounds the Character count that follows.
        guard trimmed.utf8.count <= maxNameBytes else {
            throw .badRequest("field '\(field)' must be at most \(maxNameBytes) bytes of UTF-8")
        }
        guard (1...maxNameLength).contains(trimmed.count) else {
            throw .badRequest("field '\(field)' must be 1–\(maxNameLength) characters after trimming")
        }
        guard !containsControlCharacter(trimmed) else {
            throw .badRequest("field '\(field)' must not contain control characters")
        }
        return trimmed
    }

    /// At most 500 characters and 2,000 bytes; may be empty and may span lines.
    public static func message(_ s: String) throws(ProtocolError) -> String {
        guard s.utf8.count <= maxMessageBytes else {
            throw .badRequest("field 'message' must be at most \(maxMessageBytes) bytes of UTF-8")
        }
        guard s.count <= maxMessageLength else {
            throw .badRequest("field 'message' must be at most \(maxMessageLength) characters")
        }
        return s
    }

    /// 1–64 characters of `[A-Za-z0-9._:-]`.
    public static func deviceID(_ s: String) throws(ProtocolError) -> String {
        try deviceName(s, field: "device", maxLength: maxDeviceIDLength)
    }

    /// 1–64 characters of `[A-Za-z0-9._:-]`, like a device id.
    public static func platform(_ s: String) throws(ProtocolError) -> String {
        try deviceName(s, field: "platform", maxLength: maxPlatformLength)
    }

    /// 1–4,096 bytes of printable ASCII (U+0020–U+007E).
    public static func pushToken(_ s: String) throws(ProtocolError) -> String {
        let utf8 = s.utf8
        guard (1...maxPushTokenLength).contains(utf8.count), utf8.allSatisfy(isPrintableASCII) else {
            throw .badRequest("field 'token' must be 1–\(maxPushTokenLength) bytes of printable ASCII")
        }
        return s
    }

    /// `minimum` (the broker's `minCheckInIntervalSec`) … 2,592,000 seconds.
    public static func checkInInterval(_ v: Int64, minimum: Int64) throws(ProtocolError) -> Int64 {
        guard v >= minimum, v <= maxCheckInIntervalSec else {
            throw .badRequest("field 'checkInIntervalSec' must be \(minimum)–\(maxCheckInIntervalSec) seconds")
        }
        return v
    }

    /// An opaque string the broker made (an id, a credential token, a QR code): 1–64 bytes.
    public static func id(_ s: String, field: String) throws(ProtocolError) -> String {
        guard (1...maxIDLength).contains(s.utf8.count) else {
            throw .badRequest("field '\(field)' must be 1–\(maxIDLength) bytes")
        }
        return s
    }

    /// Trimmed; at most 32 characters of `[0-9 +()-]`. Empty is allowed (the caller decides whether
    /// it clears the phone).
    public static func phone(_ s: String) throws(ProtocolError) -> String {
        let trimmed = trimmingWhitespace(s)
        let utf8 = trimmed.utf8
        guard utf8.count <= maxPhoneLength, utf8.allSatisfy(isPhoneByte) else {
            throw .badRequest("field 'phone' must be at most \(maxPhoneLength) characters of [0-9 +()-] after trimming")
        }
        return trimmed
    }

    // MARK: - Helpers

    /// Unicode whitespace, newlines included, removed from both ends.
    static func trimmingWhitespace(_ s: String) -> String {
        guard let first = s.firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = s.lastIndex(where: { !$0.isWhitespace }) ?? first
        return String(s[first...last])
    }

    /// Unicode general category Cc: U+0000–U+001F and U+007F–U+009F.
    static func containsControlCharacter(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Device ids and `opId`s (§12): 1–`maxLength` characters of `[A-Za-z0-9._:-]`.
    static func deviceName(_ s: String, field: String, maxLength: Int) throws(ProtocolError) -> String {
        let utf8 = s.utf8
        guard (1...maxLength).contains(utf8.count), utf8.allSatisfy(isDeviceNameByte) else {
            throw .badRequest("field '\(field)' must be 1–\(maxLength) characters of [A-Za-z0-9._:-]")
        }
        return s
    }

    private static func isDeviceNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func isPhoneByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }
}
