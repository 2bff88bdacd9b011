import LifeSignalFuzzing
import LifeSignalProtocol
import Testing

/// A document written straight to bytes is exactly its `json` tree serialized, so events written
/// either way are the same frames: over random documents, nulls, escapes and non-ASCII included.
@Suite("JSON fields")
struct JSONFieldsTests {
    @Test func bytesAreTheTreeSerialized() throws {
        var random = SplitMix64(seed: 0x15F1E1D5)
        for _ in 0..<500 {
            let contact = Self.contact(&random)
            let notification = Self.notification(&random)
            let user = Self.user(&random)
            try Self.expectSameBytes(contact)
            try Self.expectSameBytes(notification)
            try Self.expectSameBytes(user)
            #expect(try Contact(json: JSONValue.parse(Self.bytes(contact))) == contact)
            #expect(try Notification(json: JSONValue.parse(Self.bytes(notification))) == notification)
            #expect(try User(json: JSONValue.parse(Self.bytes(user))) == user)
            for data in [EventData.contact(contact), .notification(notification), .user(user),
                         ["contactId": .string(contact.id)]] {
                var written: [UInt8] = []
                data.write(into: &written)
                #expect(written == data.json.serialized())
            }
        }
    }

    /// A hello's snapshot is written straight to bytes too: the same frame as its tree's.
    @Test func aSnapshotIsItsTreeFramed() {
        var random = SplitMix64(seed: 0x5A4F)
        for count in 0..<40 {
            let contacts = (0..<count % 4).map { _ in Self.contact(&random) }
            let notifications = (0..<count % 7).map { _ in Self.notification(&random) }
            let user = Self.user(&random)
            let seq = Self.int(&random)
            let snapshot = Snapshot(seq: seq, user: user, contacts: contacts, notifications: notifications,
                                    unreadCount: count)
            #expect(Outbound.snapshot(seq: seq, user: user, contacts: contacts, notifications: notifications,
                                      unreadCount: count) == FrameEncoder.frame(snapshot.json))
        }
    }

    @Test func fieldsKeepProtocolOrder() {
        let contact = Contact(id: "u_1", name: "Ann", isResponder: true, isDependent: false, addedAt: 5)
        #expect(contact.json.objectValue?.keys == [
            "id", "name", "isResponder", "isDependent", "role", "addedAt", "incomingPingAt", "outgoingPingAt",
            "lastCheckInAt", "checkInDeadline", "isNonResponsive", "hasActiveAlert", "alert",
        ])
        var bytes: [UInt8] = []
        EventData.contact(contact).write(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"contact":{"id":"u_1","name":"Ann","isResponder":true,"#
            + #""isDependent":false,"role":"responder","addedAt":5,"incomingPingAt":null,"outgoingPingAt":null,"#
            + #""lastCheckInAt":null,"checkInDeadline":null,"isNonResponsive":false,"hasActiveAlert":false,"#
            + #""alert":null}}"#)
    }

    /// Appending to a buffer that already holds bytes keeps them.
    @Test func writingAppends() {
        var bytes = Array("prefix".utf8)
        AlertInfo(id: "a_1", startedAt: 3).write(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix{"id":"a_1","startedAt":3,"message":null}"#)
    }

    private static func bytes(_ document: some JSONFields) -> [UInt8] {
        var bytes: [UInt8] = []
        document.write(into: &bytes)
        return bytes
    }

    private static func expectSameBytes(_ document: some JSONFields) throws {
        #expect(bytes(document) == document.json.serialized())
    }

    // MARK: - Random documents

    private static let samples = ["", "Ann", "quote \" and \\ back", "tab\tnew\nline\u{1}", "Zoë 日本 🚨", "u_abc"]

    private static func string(_ random: inout SplitMix64) -> String {
        samples[Int(random.next() % UInt64(samples.count))]
    }

    private static func optionalString(_ random: inout SplitMix64) -> String? {
        random.next() % 3 == 0 ? nil : string(&random)
    }

    private static func int(_ random: inout SplitMix64) -> Int64 {
        switch random.next() % 4 {
        case 0: 0
        case 1: Int64.min
        case 2: Int64.max
        default: Int64(bitPattern: random.next())
        }
    }

    private static func optionalInt(_ random: inout SplitMix64) -> Int64? {
        random.next() % 3 == 0 ? nil : int(&random)
    }

    private static func bool(_ random: inout SplitMix64) -> Bool { random.next() % 2 == 0 }

    private static func alert(_ random: inout SplitMix64) -> AlertInfo? {
        random.next() % 2 == 0 ? nil : AlertInfo(id: string(&random), startedAt: int(&random),
                                                 message: optionalString(&random))
    }

    private static func contact(_ random: inout SplitMix64) -> Contact {
        Contact(id: string(&random), name: string(&random), isResponder: bool(&random), isDependent: bool(&random),
                addedAt: int(&random), incomingPingAt: optionalInt(&random), outgoingPingAt: optionalInt(&random),
                lastCheckInAt: optionalInt(&random), checkInDeadline: optionalInt(&random),
                isNonResponsive: bool(&random), alert: alert(&random))
    }

    private static func notification(_ random: inout SplitMix64) -> LifeSignalProtocol.Notification {
        let types = NotificationType.allCases
        let type = types[Int(random.next() % UInt64(types.count))]
        let contactData = random.next() % 2 == 0 ? nil : ContactData(
            id: string(&random), name: string(&random), role: .dependent, action: .ping)
        return Notification(
            id: string(&random), type: type, title: string(&random), message: string(&random),
            timestamp: int(&random), isRead: bool(&random), relatedContactID: optionalString(&random),
            relatedAlertID: optionalString(&random), relatedPingID: optionalString(&random),
            contactData: contactData, alertData: alert(&random))
    }

    private static func user(_ random: inout SplitMix64) -> User {
        let types = NotificationType.allCases
        let muted = types.filter { _ in random.next() % 3 == 0 }
        return User(id: string(&random), name: string(&random), phone: optionalString(&random),
                    qrCode: string(&random), checkInIntervalSec: int(&random), lastCheckInAt: optionalInt(&random),
                    checkInDeadline: optionalInt(&random), isNonResponsive: bool(&random), alert: alert(&random),
                    preferences: Preferences(push: bool(&random), mutedTypes: muted), createdAt: int(&random))
    }
}
