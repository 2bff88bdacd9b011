import LifeSignalProtocol

/// What a queue needs to know of a push to schedule it fairly, read from its FCM body's `data`
/// (the store keeps only the body): its type, and who caused it.
package struct PushTraits: Sendable, Equatable {
    package let type: NotificationType?
    /// The contact the notification is about: for a ping, its sender.
    package let relatedContactID: String?

    /// Alerts, their cancellation and missed check-ins: never dropped, sent before anything else.
    package static let safetyTypes: Set<NotificationType> = [.alert, .alertCancelled, .nonResponsive]

    package var isSafety: Bool { type.map(Self.safetyTypes.contains) ?? false }
    package var isPing: Bool { type == .ping }

    package init(type: NotificationType?, relatedContactID: String?) {
        self.type = type
        self.relatedContactID = relatedContactID
    }

    /// A body that is not an FCM message (never made by the broker) is an ordinary push.
    package init(_ message: PushMessage) {
        let data = (try? JSONValue.parse(message.body))?.objectValue?["message"]?.objectValue?["data"]?.objectValue
        self.init(type: data?["type"]?.stringValue.flatMap(NotificationType.init(rawValue:)),
                  relatedContactID: data?["relatedContactID"]?.stringValue)
    }
}
