import ArgumentParser
import LifeSignalBroker
import Logging

/// `serve --log-format`: text lines, or one JSON object per line.
typealias LogFormat = LogLineFormat

extension LogLineFormat: ExpressibleByArgument, LosslessStringConvertible {
    public init?(_ description: String) { self.init(rawValue: description) }
    public var description: String { rawValue }

    /// Makes every logger of the process write in this format at `level`.
    func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label, format: self)
            handler.logLevel = level
            return handler
        }
    }
}
