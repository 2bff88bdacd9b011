import Foundation

/// A file replaced whole (the outbox, the state cache): the bytes are written beside it, flushed
/// to disk and renamed over it, so a crash leaves the old file or the new one, never a torn one.
/// Readable by the owner only.
enum AtomicFileWrite {
    static func replace(_ path: String, with contents: Data) throws {
        let temporary = temporaryPath(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: contents,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Removes the file, and what a save cut short left beside it; nothing there is no error.
    static func remove(_ path: String) throws {
        for file in [temporaryPath(for: path), path] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
        }
    }

    private static func temporaryPath(for path: String) -> String { path + ".new" }
}
