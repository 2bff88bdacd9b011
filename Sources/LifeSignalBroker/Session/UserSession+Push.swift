import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// Stores a push of `notification` for each of this user's offline devices with a token,
    /// in the notification's own transaction (§7).
    func queuePushes(of notification: Notification, into mutation: inout Mutation) {
        let messages = PushSelection.messages(
            for: notification, userID: userID, devices: devices.values,
            isOnline: { online[$0] != nil }, preferences: user.preferences)
        for message in messages { mutation.record(message) }
    }
}
