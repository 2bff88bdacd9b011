import Foundation

/// The store's own threads (the writer, the checkpointer): each is one long-running loop.
package enum StoreThread {
    /// A nonisolated static, so the thread's closure is not main-actor isolated (ARCHITECTURE.md,
    /// "Actors on the loop").
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
