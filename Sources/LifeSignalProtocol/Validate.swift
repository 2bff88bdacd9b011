/// Field rules of PROTOCOL.md §3, §4, §5 and §10. Each returns the value to store (trimmed where the
/// rule trims) or throws `bad_request` naming the field and the rule.
///
/// Lengths count Characters (what a user sees as one character), except device ids, which are ASCII.
public enum Validate {
    public static let maxNameLength = 100
    public static let maxMessageLength = 500
    public static let maxDeviceIDLength = 64
    public static let maxPushTokenLength = 4096
    public static let maxCheckInIntervalSec: Int64 = 2_592_000
    public static let maxIDLength = 64
    public static let maxPhoneLength = 32

    /// Trimmed; 1–100 characters; no control characters.
    public static func name(_ s: String, field: String = "name") throws(ProtocolError) -> String {
        let trimmed = trimmingWhitespace(s)
        guard (1...maxNameLength).contains(trimmed.count) else {
            throw .badRequest("field '\(field)' must be 1–\(maxNameLength) characters after trimming")
        }
        guard !containsControlCharacter(trimmed) else {
            throw .badRequest("field '\(field)' must not contain control characters")
        }
        return trimmed
    }

    /// At most 500 characters; may be empty and may span lines.
    public static func message(_ s: String) throws(ProtocolError) -> String {
        guard s.count <= maxMessageLength else {
            throw .badRequest("field 'message' must be at most \(maxMessageLength) characters")
        }
        return s
    }

    /// 1–64 characters of `[A-Za-z0-9._:-]`.
    public static func deviceID(_ s: String) throws(ProtocolError) -> String {
        let utf8 = s.utf8
        guard (1...maxDeviceIDLength).contains(utf8.count), utf8.allSatisfy(isDeviceIDByte) else {
            throw .badRequest("field 'device' must be 1–\(maxDeviceIDLength) characters of [A-Za-z0-9._:-]")
        }
        return s
    }

    /// 1–4096 characters.
    public static func pushToken(_ s: String) throws(ProtocolError) -> String {
        // utf8.count is O(1) and never below the Character count, so counting Characters is rarely needed.
        guard !s.isEmpty, s.utf8.count <= maxPushTokenLength || s.count <= maxPushTokenLength else {
            throw .badRequest("field 'token' must be 1–\(maxPushTokenLength) characters")
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

    /// An opaque broker-made id: 1–64 characters.
    public static func id(_ s: String, field: String) throws(ProtocolError) -> String {
        // utf8.count is O(1) and never below the Character count, so counting Characters is rarely needed.
        guard !s.isEmpty, s.utf8.count <= maxIDLength || s.count <= maxIDLength else {
            throw .badRequest("field '\(field)' must be 1–\(maxIDLength) characters")
        }
        return s
    }

    /// Trimmed; at most 32 characters; no control characters. Empty is allowed (the caller decides
    /// whether it clears the phone).
    public static func phone(_ s: String) throws(ProtocolError) -> String {
        let trimmed = trimmingWhitespace(s)
        guard trimmed.count <= maxPhoneLength else {
            throw .badRequest("field 'phone' must be at most \(maxPhoneLength) characters after trimming")
        }
        guard !containsControlCharacter(trimmed) else {
            throw .badRequest("field 'phone' must not contain control characters")
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

    private static func isDeviceIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
