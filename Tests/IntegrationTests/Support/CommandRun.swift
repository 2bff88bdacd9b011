import Foundation

/// Runs a short command to its end with stdout and stderr together: its exit status and output.
/// For tools a test drives (psql, deploy/local-cluster), not for servers it keeps running.
func runCommand(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The repository's root, for its scripts.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
