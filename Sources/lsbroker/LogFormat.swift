import ArgumentParser
import LifeSignalBroker
import Logging

/// How `serve` writes its log to stderr: swift-log's text lines, or one JSON object per line.
enum LogFormat: String, CaseIterable, ExpressibleByArgument, LosslessStringConvertible {
    case text, json

    init?(_ description: String) { self.init(rawValue: description) }
    var description: String { rawValue }

    /// Makes every logger of the process write in this format at `level`.
    func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = switch self {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler(label: label)
            }
            handler.logLevel = level
            return handler
        }
    }
}
