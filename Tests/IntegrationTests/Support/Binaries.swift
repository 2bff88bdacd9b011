import Foundation

/// Finds the built `lsbroker` and `lsclient` next to the test bundle (or in `LIFESIGNAL_BIN_DIR`).
enum Binaries {
    static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["LIFESIGNAL_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // …/debug/LifeSignalPackageTests.xctest (a file on Linux, a bundle elsewhere)
        while candidate.path != "/" {
            candidate.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("lsbroker").path) {
                return candidate
            }
        }
        fatalError("lsbroker not found near \(CommandLine.arguments[0]); set LIFESIGNAL_BIN_DIR")
    }()

    static var broker: URL { directory.appendingPathComponent("lsbroker") }
    static var client: URL { directory.appendingPathComponent("lsclient") }
}

/// A directory removed when the test is done with it.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "lifesignal") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A directory of that name inside `parent`, removed with it.
    init(inside parent: TemporaryDirectory, named name: String) {
        url = parent.url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
