import LifeSignalProtocol

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
    /// Sessions whose state this request changed; each is held loaded until the commit ends.
    private(set) var touched: [UserSession] = []

    init(now: Int64) { self.now = now }

    mutating func touch(_ session: UserSession) {
        if !touched.contains(where: { $0 === session }) { touched.append(session) }
    }
}
