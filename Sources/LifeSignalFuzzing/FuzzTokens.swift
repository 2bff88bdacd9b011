/// Fragments the mutator splices in: JSON syntax, escapes, edge numbers, protocol names. The same
/// ideas as bench/fuzz.dict, which gives them to libFuzzer.
enum FuzzTokens {
    static let all: [[UInt8]] = (text + names).map { Array($0.utf8) } + bytes

    private static let text = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "{}", "[]", "\"\"", "null", "true", "false", " ", "\t", "\r\n",
        "\\u", "\\u0000", "\\u001f", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\udbff\\udfff", "\\\"", "\\/",
        "0", "-0", "1", "-1", "0.5", "1e5", "1E-5", "-0.0e+0", "1e308", "1e309", "-1e309", "4.9e-324", "2e-400",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1.7976931348623157e308", "123456789012345678901234567890",
        "é", "😀", "\u{301}", "\u{200D}", "\u{FEFF}", "\u{2028}", "\u{7F}", "\u{85}", "\u{A0}", "\u{3000}",
        "🇫🇷", "👩‍👩‍👧‍👦",
    ]

    /// Field names and values of the protocol, quoted as they appear in a body.
    private static let names = [
        "op", "rid", "name", "phone", "version", "user", "token", "device", "platform", "resume",
        "checkInIntervalSec", "preferences", "push", "mutedTypes", "qrCode", "isResponder", "isDependent",
        "contactId", "message", "limit", "before", "id", "seq", "event", "data", "code", "snapshot", "contacts",
        "notifications", "unreadCount", "ok", "error",
        "register", "hello", "keepalive", "bye", "profile.update", "qr.rotate", "qr.lookup", "device.register",
        "device.unregister", "devices.list", "contacts.add", "contacts.remove", "contacts.setRoles",
        "contacts.list", "ping.send", "ping.respond", "ping.clear", "checkin", "alert.trigger", "alert.cancel",
        "notifications.list", "notifications.read", "notifications.readAll", "notifications.delete",
    ].map { "\"\($0)\"" }

    /// Bytes that are not valid UTF-8, alone or in context.
    private static let bytes: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC2], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF5], [0xFF], [0xEF, 0xBB, 0xBF], [0x00], [0x1F],
    ]

    /// Length prefixes around the §1 limits.
    static let lengths: [UInt32] = [0, 1, 2, 3, 4, 0x7F, 0xFF, 0x100, 0xFFFF, 65_535, 65_536, 65_537, 0x7FFF_FFFF,
                                    0x8000_0000, 0xFFFF_FFFF]
}
