import Foundation
import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

@Suite struct DeviceStateTests {
    @Test func snapshotReplacesEverything() {
        var state = Fixtures.state(seq: 3)
        state.unreadCount = 99
        let snapshot = Fixtures.snapshot(seq: 10)
        state = DeviceState(snapshot: snapshot)
        #expect(state.lastSeq == 10)
        #expect(state.user == Fixtures.alice)
        #expect(state.contacts == ["u_bob": Fixtures.bob, "u_carol": Fixtures.carol])
        #expect(state.notifications.map(\.id) == ["n2", "n1"])
        #expect(state.unreadCount == 1)
        #expect(state.sortedContacts.map(\.name) == ["Bob", "Carol"])
    }

    @Test func userUpdated() throws {
        var state = Fixtures.state()
        var renamed = Fixtures.alice
        renamed.name = "Alicia"
        try state.apply(seq: 11, name: EventName.userUpdated, data: ["user": renamed.json])
        #expect(state.user.name == "Alicia")
        #expect(state.lastSeq == 11)
    }

    @Test func contactUpdatedAddsOrReplaces() throws {
        var state = Fixtures.state()
        var bob = Fixtures.bob
        bob.isDependent = true
        try state.apply(seq: 11, name: EventName.contactUpdated, data: ["contact": bob.json])
        let dave = Contact(id: "u_dave", name: "Dave", isResponder: false, isDependent: false, addedAt: 9)
        try state.apply(seq: 12, name: EventName.contactUpdated, data: ["contact": dave.json])
        #expect(state.contacts["u_bob"]?.role == .both)
        #expect(state.contacts["u_dave"] == dave)
        #expect(state.contacts.count == 3)
    }

    @Test func contactRemoved() throws {
        var state = Fixtures.state()
        try state.apply(seq: 11, name: EventName.contactRemoved, data: ["contactId": "u_bob"])
        #expect(state.contacts.keys.sorted() == ["u_carol"])
    }

    @Test func notificationAddedGoesFirstAndCountsUnread() throws {
        var state = Fixtures.state()
        try state.apply(
            seq: 11, name: EventName.notificationAdded, data: ["notification": Fixtures.notification("n3").json])
        #expect(state.notifications.map(\.id) == ["n3", "n2", "n1"])
        #expect(state.unreadCount == 2)
    }

    @Test func notificationUpdatedAdjustsUnread() throws {
        var state = Fixtures.state()
        try state.apply(
            seq: 11, name: EventName.notificationUpdated,
            data: ["notification": Fixtures.notification("n2", read: true).json])
        #expect(state.notifications.allSatisfy { $0.isRead })
        #expect(state.unreadCount == 0)
    }

    @Test func notificationUpdatedOutsideTheWindowStillCounts() throws {
        var state = Fixtures.state()
        try state.apply(
            seq: 11, name: EventName.notificationUpdated,
            data: ["notification": Fixtures.notification("old", read: true).json])
        #expect(state.unreadCount == 0)
        #expect(state.notifications.count == 2)
    }

    @Test func notificationDeleted() throws {
        var state = Fixtures.state()
        try state.apply(seq: 11, name: EventName.notificationDeleted, data: ["id": "n2"])
        #expect(state.notifications.map(\.id) == ["n1"])
        #expect(state.unreadCount == 0)
        try state.apply(seq: 12, name: EventName.notificationDeleted, data: ["id": "n1"])
        #expect(state.notifications.isEmpty)
        #expect(state.unreadCount == 0)
    }

    @Test func readAllMarksEverythingRead() throws {
        var state = Fixtures.state()
        try state.apply(seq: 11, name: EventName.notificationsReadAll, data: ["count": 1])
        #expect(state.notifications.allSatisfy { $0.isRead })
        #expect(state.unreadCount == 0)
    }

    @Test func unknownEventOnlyAdvancesSeq() throws {
        var state = Fixtures.state()
        var expected = state
        try state.apply(seq: 11, name: "something.new", data: ["x": 1])
        expected.lastSeq = 11
        #expect(state == expected)
    }

    @Test func malformedEventChangesNothing() {
        var state = Fixtures.state()
        let before = state
        #expect(throws: LifeSignalClientError.self) {
            try state.apply(seq: 11, name: EventName.contactUpdated, data: ["contact": ["id": "u_x"]])
        }
        #expect(state == before)
    }

    @Test(arguments: [Int64(12), 10, 9, 0])
    func seqMustBeNextOne(seq: Int64) {
        var state = Fixtures.state(seq: 10)
        let before = state
        #expect(throws: LifeSignalClientError.sequenceGap(expected: 11, received: seq)) {
            try state.apply(seq: seq, name: EventName.contactRemoved, data: ["contactId": "u_bob"])
        }
        #expect(state == before)
    }

    @Test func jsonRoundTrip() throws {
        var state = Fixtures.state(seq: 42)
        var user = state.user
        user.phone = "+15550100"
        user.alert = AlertInfo(id: "a1", startedAt: 7, message: "help")
        user.preferences = Preferences(push: false, mutedTypes: [.ping, .checkIn])
        state.user = user
        let decoded = try DeviceState(serialized: state.serialized())
        #expect(decoded == state)
    }

    @Test func damagedJSONIsRejected() {
        #expect(throws: ProtocolError.self) { try DeviceState(serialized: Array("{\"format\":1}".utf8)) }
        #expect(throws: ProtocolError.self) { try DeviceState(serialized: Array("not json".utf8)) }
        #expect(throws: ProtocolError.self) { try DeviceState(serialized: Array("{\"format\":2}".utf8)) }
    }
}

@Suite struct DeviceStateCodableTests {
    @Test func codableRoundTrip() throws {
        var state = Fixtures.state(seq: 42)
        state.user.phone = "+15550100"
        state.user.preferences = Preferences(push: false, mutedTypes: [.alert])
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(DeviceState.self, from: data) == state)
    }
}

@Suite struct DeviceStateWindowTests {
    @Test func keepsTheNewestHundredLikeASnapshotButCountsEveryUnread() throws {
        let user = User(id: "u_a", name: "A", phone: nil, qrCode: "Q", checkInIntervalSec: 86_400, lastCheckInAt: nil,
                        checkInDeadline: nil, isNonResponsive: false, alert: nil,
                        preferences: Preferences(push: true, mutedTypes: []), createdAt: 0)
        var state = DeviceState(snapshot: Snapshot(seq: 0, user: user, contacts: [], notifications: [], unreadCount: 0))
        for index in 1...150 {
            let note = LifeSignalProtocol.Notification(id: "n_\(index)", type: .ping, title: "Ping",
                                                       message: "m", timestamp: Int64(index))
            try state.apply(seq: Int64(index), name: EventName.notificationAdded, data: ["notification": note.json])
        }
        #expect(state.notifications.count == DeviceState.notificationLimit)
        #expect(state.notifications.first?.id == "n_150")
        #expect(state.notifications.last?.id == "n_51")
        #expect(state.unreadCount == 150)
    }
}
