import LifeSignalClient
import LifeSignalProtocol

/// All a load device keeps of its user's stream: whose it is and the last seq it saw, so that a
/// reconnect resumes from there. The client library's `ConnectionSession` keeps it current; the
/// documents themselves are not kept (thousands of devices share one loop). A gap or a repeat
/// is the device's to count (`LoadDevice.CatchUp`), not a reason to drop the connection.
struct StreamPosition: SessionState {
    let userID: String
    private(set) var lastSeq: Int64

    init(snapshot: Snapshot) {
        userID = snapshot.user.id
        lastSeq = snapshot.seq
    }

    mutating func apply(seq: Int64, name: String, data: JSONValue) {
        lastSeq = max(lastSeq, seq)  // a repeated event does not move it back
    }
}
