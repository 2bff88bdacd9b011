import LifeSignalEngine
import LifeSignalProtocol
@testable import LifeSignalPush
import Testing

/// PROTOCOL §7: which devices a notification is pushed to, and the FCM body they get.
@Suite struct PushSelectionTests {
    let ping = Notification(
        id: "n_1", type: .ping, title: "Ping", message: "Bob pinged you.", timestamp: 1_700_000_000_000,
        relatedContactID: "u_bob", relatedPingID: "p_1")

    private func device(_ id: String, token: String?) -> DeviceRecord {
        DeviceRecord(key: DeviceKey(userID: "u_alice", deviceID: id), platform: nil, pushToken: token, lastSeenAt: nil)
    }

    private func select(
        _ notification: Notification? = nil, devices: [DeviceRecord], online: Set<String> = [],
        preferences: Preferences = Preferences()
    ) -> [PushMessage] {
        PushSelection.messages(for: notification ?? ping, userID: "u_alice", devices: devices,
                               isOnline: { online.contains($0) }, preferences: preferences)
    }

    @Test func onlyOfflineDevicesWithATokenArePushed() {
        let devices = [device("phone", token: "t-phone"), device("tablet", token: "t-tablet"),
                       device("watch", token: nil)]
        let pushes = select(devices: devices, online: ["phone"])
        #expect(pushes.map(\.deviceID) == ["tablet"])
        #expect(pushes.first?.token == "t-tablet")
        #expect(pushes.first?.userID == "u_alice")
        #expect(pushes.first?.notificationID == "n_1")
        #expect(pushes.first?.createdAt == 1_700_000_000_000)
    }

    @Test func pushOffOrAMutedTypeSendsNothing() {
        let devices = [device("phone", token: "t-phone")]
        #expect(select(devices: devices, preferences: Preferences(push: false)).isEmpty)
        #expect(select(devices: devices, preferences: Preferences(mutedTypes: [.ping])).isEmpty)
        let alert = Notification(id: "n_2", type: .alert, title: "Emergency Alert", message: "Bob triggered an emergency alert.",
                                 timestamp: 1, relatedContactID: "u_bob", relatedAlertID: "a_1")
        #expect(select(alert, devices: devices, preferences: Preferences(mutedTypes: [.ping])).count == 1)
    }

    @Test func aTokenIsPushedOncePerNotification() {
        let pushes = select(devices: [device("a", token: "same"), device("b", token: "same")])
        #expect(pushes.count == 1)
    }

    @Test func theBodyIsTheFCMHTTPv1Message() {
        let body = PushSelection.fcmBody(token: "t-phone", ping).serialized()
        #expect(String(decoding: body, as: UTF8.self) == """
            {"message":{"token":"t-phone","notification":{"title":"Ping","body":"Bob pinged you."},\
            "data":{"notificationId":"n_1","type":"ping","relatedContactID":"u_bob","relatedPingID":"p_1"},\
            "android":{"collapse_key":"ping-u_bob"},"apns":{"headers":{"apns-collapse-id":"ping-u_bob"}}}}
            """)
        #expect(select(devices: [device("phone", token: "t-phone")]).first?.body == body)
    }

    @Test func anAlertsWordsAreInTheVisibleBodyAndItAsksForImmediateDelivery() {
        let alert = Notification(id: "n_2", type: .alert, title: "Emergency Alert", message: "Bob triggered an emergency alert.",
                                 timestamp: 1, relatedContactID: "u_bob", relatedAlertID: "a_1",
                                 alertData: AlertInfo(id: "a_1", startedAt: 1, message: "I fell in the kitchen"))
        let message = PushSelection.fcmBody(token: "t", alert).objectValue?["message"]?.objectValue
        #expect(message?["notification"] == ["title": "Emergency Alert",
                                             "body": "Bob triggered an emergency alert.\nI fell in the kitchen"])
        #expect(message?["data"]?.objectValue?["alertMessage"] == "I fell in the kitchen")
        #expect(message?["android"] == ["priority": "HIGH"])
        #expect(message?["apns"] == ["headers": ["apns-priority": "10"]])
    }

    @Test func absentRelatedIDsAreLeftOutOfTheData() throws {
        let added = Notification(id: "n_3", type: .added, title: "Contact Added", message: "Bob added you.",
                                 timestamp: 1, relatedContactID: "u_bob")
        let data = PushSelection.fcmBody(token: "t", added).objectValue?["message"]?.objectValue?["data"]?.objectValue
        #expect(data?.keys == ["notificationId", "type", "relatedContactID"])
    }
}
