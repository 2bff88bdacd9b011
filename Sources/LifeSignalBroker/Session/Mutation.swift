import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush

/// What one request changes, collected while its rules run and committed as one store write:
/// the durable changes for every user it touched, and the events to release after the commit.
struct Mutation {
    struct Delivery: Sendable {
        let session: UserSession
        let seq: Int64
        let frame: [UInt8]
    }

    let now: Int64
    var changes: [StoreChange] = []
    var deliveries: [Delivery] = []
    /// Pushes stored with this request, handed to the push gateway once they have committed.
    var pushes: [PushMessage] = []
    /// Sessions whose state this request changed; each is held loaded until the commit ends.
    private(set) var touched: [UserSession] = []

    init(now: Int64) { self.now = now }

    /// Adds `session` to those this request changed; true the first time. Only the session itself
    /// calls it (`UserSession.join`), which counts the commit it now waits for in the same entry.
    mutating func touch(_ session: UserSession) -> Bool {
        guard !touched.contains(where: { $0 === session }) else { return false }
        touched.append(session)
        return true
    }
}
