import LifeSignalEngine
import LifeSignalUV
import Logging

/// The broker's log: whole lines to stderr (or to `write`), as text or as JSON (LogLineFormat).
/// Metadata merges as swift-log's own handler does (LogMetadata).
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let format: LogLineFormat
    private let handlerMetadata: Logger.Metadata
    private let write: @Sendable (String) -> Void

    /// `write` takes each line, newline included; by default it goes to stderr.
    public init(label: String, format: LogLineFormat, metadata: Logger.Metadata = [:],
                metadataProvider: Logger.MetadataProvider? = nil,
                write: @escaping @Sendable (String) -> Void = StandardErrorLines.write) {
        self.label = label
        self.format = format
        handlerMetadata = metadata
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = LogMetadata.merged(handler: handlerMetadata, logger: metadata, provider: metadataProvider,
                                        call: event.metadata)
        write(format.line(time: WallClock.nowMs(), level: event.level, label: label,
                          message: event.message.description, source: event.source, metadata: merged))
    }
}
