import LifeSignalProtocol
import LifeSignalPush

/// Who is pushed for a stored notification, and with what (PROTOCOL §7). Pure, so that the
/// rules are testable without a broker.
package enum PushSelection {
    /// One message per device of `userID` that has a token and is not online, unless the
    /// preferences say not to push this type. Ordered by device; a token is pushed at most once.
    package static func messages(
        for notification: Notification, userID: String, devices: some Sequence<DeviceRecord>,
        isOnline: (String) -> Bool, preferences: Preferences
    ) -> [PushMessage] {
        guard preferences.allowsPush(of: notification.type) else { return [] }
        var seenTokens: Set<String> = []
        return devices.sorted { $0.key.deviceID < $1.key.deviceID }.compactMap { device in
            guard let token = device.pushToken, !isOnline(device.key.deviceID),
                  seenTokens.insert(token).inserted else { return nil }
            return PushMessage(userID: userID, deviceID: device.key.deviceID, token: token,
                               notificationID: notification.id, body: fcmBody(token: token, notification).serialized(),
                               createdAt: notification.timestamp)
        }
    }

    /// The FCM HTTP v1 body: `{"message": {"token", "notification": {title, body}, "data": {…}, …}}`.
    /// FCM data values must be strings, so absent ids are left out rather than sent as null. An
    /// alert's own words are in the visible body too, not only in `data`; pings from one sender
    /// collapse into the newest on the device; safety pushes ask for immediate delivery.
    package static func fcmBody(token: String, _ notification: Notification) -> JSONValue {
        var data: JSONObject = [
            "notificationId": .string(notification.id),
            "type": .string(notification.type.rawValue),
        ]
        data["relatedContactID"] = notification.relatedContactID.map(JSONValue.string)
        data["relatedAlertID"] = notification.relatedAlertID.map(JSONValue.string)
        data["relatedPingID"] = notification.relatedPingID.map(JSONValue.string)
        var body = notification.message
        if notification.type == .alert, let words = notification.alertData?.message, !words.isEmpty {
            data["alertMessage"] = .string(words)
            body += "\n" + words
        }
        var message: JSONObject = [
            "token": .string(token),
            "notification": ["title": .string(notification.title), "body": .string(body)],
            "data": .object(data),
        ]
        if notification.type == .ping, let sender = notification.relatedContactID {
            let collapseKey = JSONValue.string("ping-\(sender)")
            message["android"] = ["collapse_key": collapseKey]
            message["apns"] = ["headers": ["apns-collapse-id": collapseKey]]
        } else if PushTraits.safetyTypes.contains(notification.type) {
            message["android"] = ["priority": "HIGH"]
            message["apns"] = ["headers": ["apns-priority": "10"]]
        }
        return ["message": .object(message)]
    }
}
