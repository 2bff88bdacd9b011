import LifeSignalProtocol
import LifeSignalUV
import Logging
import LifeSignalEngine

/// `--log-format json`: one JSON object per line, for collectors that read fields rather than text
/// (swift-log has no JSON handler). Fields: `time` (RFC 3339, UTC, milliseconds), `level`, `label`,
/// `message`, `source`, then every metadata key, nested metadata as JSON objects and arrays, and
/// numbers logged as `.stringConvertible` as JSON numbers.
enum JSONLogLine {
    /// Fields the handler writes itself; a metadata key of the same name is written as `metadata.KEY`.
    static let reservedFields: Set<String> = ["time", "level", "label", "message", "source"]

    /// One line: the fixed fields first, then metadata keys in sorted order (lines diff well).
    static func line(time: Int64, level: Logger.Level, label: String, message: String, source: String,
                     metadata: Logger.Metadata) -> String {
        var object: JSONObject = [
            "time": .string(RFC3339.utcMilliseconds(time)), "level": .string(level.rawValue),
            "label": .string(label), "message": .string(message), "source": .string(source),
        ]
        for key in metadata.keys.sorted() {
            let field = reservedFields.contains(key) ? "metadata.\(key)" : key
            object[field] = json(metadata[key]!)
        }
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self) + "\n"
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): number(convertible) ?? .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let nested):
            .object(JSONObject(nested.keys.sorted().map { ($0, json(nested[$0]!)) }))
        }
    }
}

extension JSONLogLine {
    /// Counts, ports and durations logged as `.stringConvertible(n)` are JSON numbers; text stays text.
    static func number(_ value: any CustomStringConvertible & Sendable) -> JSONValue? {
        switch value {
        case let flag as Bool: .bool(flag)
        case let integer as any BinaryInteger: .int(Int64(truncatingIfNeeded: integer))
        case let real as Double: real.isFinite ? .double(real) : nil
        default: nil
        }
    }
}
