import LifeSignalProtocol

/// What a connection's catch-up and events keep current (`ConnectionSession`): a snapshot
/// replaces it, each event moves it one seq on. The client keeps the whole `DeviceState`; the
/// load generator only where its devices are in their streams.
public protocol SessionState {
    /// The user whose stream this is.
    var userID: String { get }
    /// The seq of the last snapshot or event applied.
    var lastSeq: Int64 { get }
    init(snapshot: Snapshot)
    mutating func apply(seq: Int64, name: String, data: JSONValue) throws(LifeSignalClientError)
}

extension DeviceState: SessionState {
    public var userID: String { user.id }
}
