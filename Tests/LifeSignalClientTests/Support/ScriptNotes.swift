import LifeSignalProtocol
import LifeSignalUV

/// What broker scripts saw, for the test to check after the fact (`#expect` belongs on the test's
/// own task), plus a stream of notes the test can wait for instead of sleeping.
final class ScriptNotes: Sendable {
    private let requests = Locked<[JSONObject]>([])
    let notes: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation

    init() {
        (notes, sink) = AsyncStream.makeStream(of: String.self)
    }

    func record(_ request: JSONObject) {
        requests.withLock { $0.append(request) }
        if let op = request["op"]?.stringValue { sink.yield(op) }
    }

    var recorded: [JSONObject] { requests.withLock { $0 } }

    func recorded(op: String) -> [JSONObject] {
        recorded.filter { $0["op"]?.stringValue == op }
    }
}
