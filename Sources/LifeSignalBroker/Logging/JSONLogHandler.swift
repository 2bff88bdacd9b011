#if canImport(Glibc)
import Glibc
#endif
import LifeSignalProtocol
import LifeSignalUV
import Logging
import LifeSignalEngine

/// `--log-format json`: one JSON object per line, for collectors that read fields rather than text
/// (swift-log has no JSON handler). Fields: `time` (RFC 3339, UTC, milliseconds), `level`, `label`,
/// `message`, `source`, then every metadata key, nested metadata as JSON objects and arrays.
///
/// Metadata merges as swift-log's own handler does, later winning: the handler's own (given at
/// init) < the logger's (`logger[metadataKey:]`) < the metadata provider's < the call's.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let handlerMetadata: Logger.Metadata
    private let write: @Sendable (String) -> Void

    /// `write` takes each line, newline included; by default it goes to stderr.
    public init(label: String, metadata: Logger.Metadata = [:], metadataProvider: Logger.MetadataProvider? = nil,
                write: @escaping @Sendable (String) -> Void = StandardErrorLines.write) {
        self.label = label
        handlerMetadata = metadata
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = handlerMetadata
        merged.merge(metadata) { _, logger in logger }
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provider in provider } }
        if let explicit = event.metadata { merged.merge(explicit) { _, call in call } }
        write(Self.line(time: WallClock.nowMs(), level: event.level, label: label, message: event.message.description,
                        source: event.source, metadata: merged))
    }

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
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let nested):
            .object(JSONObject(nested.keys.sorted().map { ($0, json(nested[$0]!)) }))
        }
    }
}

/// Whole lines to stderr, one `write` each under a lock, so that lines from several threads never
/// interleave.
public enum StandardErrorLines {
    /// The descriptor the lock guards (`Locked` holds state, never `()`).
    private static let standardError = Locked(Int32(2))

    @Sendable public static func write(_ line: String) {
        var line = line
        standardError.withLock { descriptor in
            line.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}
