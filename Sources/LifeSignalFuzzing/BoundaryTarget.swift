import LifeSignalProtocol

/// One string field of one op that §10 bounds, with what to build its strings from.
struct BoundaryTarget: Sendable {
    let op: String
    let field: String
    let rule: SpecStringRule
    /// The request's other fields, all valid, so that only this string decides.
    let rest: JSONObject

    /// Every string a request carries (the broker's reads, BrokerFieldRules).
    static let all: [BoundaryTarget] = [
        BoundaryTarget(op: Op.register, field: "name", rule: .name, rest: [:]),
        BoundaryTarget(op: Op.register, field: "phone", rule: .phone, rest: ["name": "Alice"]),
        BoundaryTarget(op: Op.profileUpdate, field: "name", rule: .name, rest: [:]),
        BoundaryTarget(op: Op.profileUpdate, field: "phone", rule: .phone, rest: [:]),
        BoundaryTarget(op: Op.alertTrigger, field: "message", rule: .message, rest: [:]),
        BoundaryTarget(op: Op.deviceRegister, field: "token", rule: .pushToken, rest: [:]),
        BoundaryTarget(op: Op.deviceRegister, field: "platform", rule: .deviceName, rest: ["token": "fcm"]),
        BoundaryTarget(op: Op.hello, field: "device", rule: .deviceName, rest: hello),
        BoundaryTarget(op: Op.hello, field: "platform", rule: .deviceName, rest: hello),
        BoundaryTarget(op: Op.hello, field: "user", rule: .opaque, rest: hello),
        BoundaryTarget(op: Op.hello, field: "token", rule: .opaque, rest: hello),
        BoundaryTarget(op: Op.contactsAdd, field: "qrCode", rule: .opaque,
                       rest: ["isResponder": true, "isDependent": false]),
        BoundaryTarget(op: Op.qrLookup, field: "qrCode", rule: .opaque, rest: [:]),
        BoundaryTarget(op: Op.contactsSetRoles, field: "contactId", rule: .opaque,
                       rest: ["isResponder": false, "isDependent": true]),
        BoundaryTarget(op: Op.notificationsList, field: "before", rule: .opaque, rest: [:]),
        BoundaryTarget(op: Op.notificationsRead, field: "id", rule: .opaque, rest: [:]),
    ]

    private static let hello: JSONObject = ["version": 1, "user": "u_x", "token": "t", "device": "d"]

    /// Whole characters the rule allows; the first is one ASCII byte, the filler of ASCII rules.
    var pieces: [String] {
        switch rule {
        case .name, .message: Self.heavyCharacters
        case .opaque: ["u", "_", "2"] + Self.heavyCharacters
        case .phone: ["5", "0", " ", "+", "(", ")", "-"]
        case .pushToken: ["t", "A", "9", ":", "-", "_", "~", " "]
        case .deviceName: ["d", "Z", "0", ".", "_", ":", "-"]
        }
    }

    /// Those of `pieces` that trimming would not drop.
    var piecesWithoutWhitespace: [String] { pieces.filter { !$0.allSatisfy(\.isWhitespace) } }

    /// Characters the rule refuses, for a string now and then.
    var foreign: [String] {
        switch rule {
        case .name: ["\u{7}", "\u{85}", "\n"]
        case .message, .opaque: []
        case .phone: ["５", "x", "5\u{301}", "\u{661}"]
        case .pushToken: ["é", "\u{7F}", "\n", "😀"]
        case .deviceName: ["é", " ", "/", "d\u{301}"]
        }
    }

    /// 1 to 25 bytes each, most of them one character of several bytes.
    private static let heavyCharacters = [
        "a", "Z", " ", "é", "€", "😀", "🇫🇷", "👩‍👩‍👧‍👦", "e\u{301}", "o\u{308}\u{304}\u{301}", "\u{3000}",
    ]

    /// Bytes without characters: a combining mark joins the character before it.
    static let combiningMark = "\u{301}"
}
