import Foundation
import LifeSignalUV

/// Reads a pipe on its own thread and keeps what arrived, so tests can wait for a line.
final class OutputCollector: Sendable {
    private let buffer = Locked<[UInt8]>([])
    private let finished = Locked(false)

    init(_ handle: FileHandle) {
        Self.startReading(handle, into: self)
    }

    private static func startReading(_ handle: FileHandle, into collector: OutputCollector) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collector.buffer.withLock { $0.append(contentsOf: data) }
            }
            collector.finished.withLock { $0 = true }
        }
        thread.start()
    }

    var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var isFinished: Bool { finished.withLock { $0 } }

    /// Waits (bounded) until a line satisfies `match`; returns it.
    func waitForLine(timeout: Duration = .seconds(20), _ match: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = lines.first(where: match) { return line }
            if isFinished { return lines.first(where: match) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    func waitUntilFinished(timeout: Duration = .seconds(20)) {
        let deadline = ContinuousClock.now + timeout
        while !isFinished && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }
}
