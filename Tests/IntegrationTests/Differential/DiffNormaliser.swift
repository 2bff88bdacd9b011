import LifeSignalProtocol

/// Makes two runs' transcripts comparable: ids (users, notifications, pings, alerts, sessions, QR
/// codes, tokens) become ordinals in the order the transcript first shows them, times become
/// "<t>" (present) or stay null, the broker's id and the rids go, and error messages go (only the
/// code is the protocol's). Every frame becomes one line of canonical JSON (keys sorted; the
/// lists whose order the protocol leaves open sorted too).
struct DiffNormaliser {
    static let idKeys: Set<String> = [
        "id", "user", "contactId", "relatedContactID", "relatedAlertID", "relatedPingID", "pingId", "alertId",
        "session", "qrCode", "token",
    ]
    static let timeKeys: Set<String> = [
        "serverTime", "createdAt", "lastCheckInAt", "checkInDeadline", "startedAt", "timestamp", "addedAt",
        "incomingPingAt", "outgoingPingAt", "lastSeenAt", "expiresAt",
    ]
    /// Not compared at all: what differs between any two runs or brokers by design.
    static let droppedKeys: Set<String> = ["rid", "broker"]
    /// Arrays whose order PROTOCOL.md does not fix (notifications' order it does fix).
    static let unorderedKeys: Set<String> = ["contacts", "devices", "mutedTypes"]

    private var ordinals: [String: Int] = [:]

    /// One array of lines per step: its title, then "label: frame" per entry.
    mutating func normalise(_ transcript: [DiffRecord]) -> [[String]] {
        transcript.map { record in
            [record.title] + record.entries.map { "\($0.label): \(canonical(.object(normalise($0.frame))))" }
        }
    }

    private mutating func normalise(_ object: JSONObject) -> JSONObject {
        var result = JSONObject()
        let isError = object["op"]?.stringValue == Op.error
        for (key, value) in object {
            if Self.droppedKeys.contains(key) || (isError && key == "message") { continue }
            result[key] = normalise(value, key: key)
        }
        return result
    }

    private mutating func normalise(_ value: JSONValue, key: String) -> JSONValue {
        switch value {
        case .string(let text) where Self.idKeys.contains(key):
            return .string("#\(ordinal(of: text))")
        case .int where Self.timeKeys.contains(key):
            return .string("<t>")
        case .object(let object):
            return .object(normalise(object))
        case .array(let elements):
            return .array(elements.map { normalise($0, key: key) })
        default:
            return value
        }
    }

    private mutating func ordinal(of id: String) -> Int {
        if let known = ordinals[id] { return known }
        ordinals[id] = ordinals.count
        return ordinals.count - 1
    }

    /// Canonical text: keys sorted, unordered lists sorted by their elements' text.
    private func canonical(_ value: JSONValue, key: String = "") -> String {
        switch value {
        case .object(let object):
            let fields = object.map { (key: $0.key, text: canonical($0.value, key: $0.key)) }
                .sorted { $0.key < $1.key }
                .map { "\"\($0.key)\":\($0.text)" }
            return "{" + fields.joined(separator: ",") + "}"
        case .array(let elements):
            var texts = elements.map { canonical($0) }
            if Self.unorderedKeys.contains(key) { texts.sort() }
            return "[" + texts.joined(separator: ",") + "]"
        default:
            return String(decoding: value.serialized(), as: UTF8.self)
        }
    }
}

/// Where two normalised transcripts first differ, as a report naming the seed.
enum DiffComparison {
    static func firstDifference(seed: UInt64, history: Int, embedded: [[String]], cluster: [[String]]) -> String? {
        for index in 0..<max(embedded.count, cluster.count) {
            let left = index < embedded.count ? embedded[index] : ["(no step)"]
            let right = index < cluster.count ? cluster[index] : ["(no step)"]
            guard left != right else { continue }
            let firstLine = (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
            let a = firstLine < left.count ? Array(left[firstLine]) : []
            let b = firstLine < right.count ? Array(right[firstLine]) : []
            let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            func around(_ text: [Character]) -> String { String(text[max(0, at - 150)..<min(text.count, at + 250)]) }
            return """
                seed \(seed) (notification history \(history)): record \(index) differs (\(left[0])), first at line \(firstLine), character \(at)
                embedded there: …\(around(a))…
                cluster there:  …\(around(b))…
                embedded:
                  \(left.joined(separator: "\n  "))
                cluster:
                  \(right.joined(separator: "\n  "))
                """
        }
        return nil
    }
}
