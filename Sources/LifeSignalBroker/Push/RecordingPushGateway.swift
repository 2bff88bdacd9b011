import Logging

/// The default gateway: the store has already recorded each message with its notification,
/// which is where `lsbroker pushes` reads them, so this only logs them.
public struct RecordingPushGateway: PushGateway {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func deliver(_ messages: [PushMessage]) {
        for message in messages {
            logger.debug("push recorded", metadata: [
                "lifesignal.user": "\(message.userID)", "lifesignal.device": "\(message.deviceID)",
                "lifesignal.notification": "\(message.notificationID)",
            ])
        }
    }
}
