import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// Documents and frames shared by the tests.
enum Fixtures {
    static let alice = User(id: "u_alice", name: "Alice", qrCode: "QRALICE", createdAt: 1_000)
    static let bob = Contact(id: "u_bob", name: "Bob", isResponder: true, isDependent: false, addedAt: 2_000)
    static let carol = Contact(id: "u_carol", name: "Carol", isResponder: false, isDependent: true, addedAt: 3_000)

    static func notification(_ id: String, read: Bool = false, at timestamp: Int64 = 5_000)
        -> LifeSignalProtocol.Notification
    {
        LifeSignalProtocol.Notification(
            id: id, type: .ping, title: "Ping", message: "Bob pinged you.", timestamp: timestamp, isRead: read,
            relatedContactID: "u_bob")
    }

    static func snapshot(seq: Int64 = 10) -> Snapshot {
        Snapshot(
            seq: seq, user: alice, contacts: [bob, carol],
            notifications: [notification("n2"), notification("n1", read: true, at: 4_000)], unreadCount: 1)
    }

    static func state(seq: Int64 = 10) -> DeviceState {
        DeviceState(snapshot: snapshot(seq: seq))
    }

    static let configuration = ClientConfiguration(
        userID: "u_alice", token: "secret", deviceID: "phone", platform: "ios")

    static func helloFields(lastSeq: Int64) -> JSONObject {
        [
            "session": "s1", "user": alice.json, "lastSeq": .int(lastSeq), "heartbeatMs": 30_000,
            "maxFrameBytes": 65_536, "serverTime": 1_763_800_000_000,
        ]
    }

    /// The JSON object inside a frame.
    static func body(of frame: [UInt8]) throws -> JSONObject {
        let length = Int(frame[0]) << 24 | Int(frame[1]) << 16 | Int(frame[2]) << 8 | Int(frame[3])
        #expect(length == frame.count - 4)
        return try #require(JSONValue.parse(Array(frame[4...])).objectValue)
    }
}
