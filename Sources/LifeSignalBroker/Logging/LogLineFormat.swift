import Logging

/// How each line of the broker's log reads (`lsbroker serve --log-format`).
public enum LogLineFormat: String, CaseIterable, Sendable {
    /// swift-log's line, `TIME LEVEL LABEL: KEY=VALUE… [SOURCE] MESSAGE`, with the time as the JSON
    /// log and lsclient write it (`2026-11-25T09:41:07.123Z`: UTC, milliseconds), not swift-log's
    /// local time to the second.
    case text
    /// One JSON object per line (JSONLogLine).
    case json

    func line(time: Int64, level: Logger.Level, label: String, message: String, source: String,
              metadata: Logger.Metadata) -> String {
        switch self {
        case .json:
            return JSONLogLine.line(time: time, level: level, label: label, message: message, source: source,
                                    metadata: metadata)
        case .text:
            let fields = metadata.keys.sorted().map { " \($0)=\(metadata[$0]!)" }.joined()
            return "\(RFC3339.utcMilliseconds(time)) \(level) \(label):\(fields) [\(source)] \(message)\n"
        }
    }
}
