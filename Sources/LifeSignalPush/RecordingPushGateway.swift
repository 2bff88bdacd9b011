import Logging

/// The default gateway: the store has already recorded each message with its notification,
/// which is where `lsbroker pushes` reads them, so this only counts and logs them.
public struct RecordingPushGateway: PushGateway {
    package let logger: Logger
    package let metrics: PushMetrics

    public init(logger: Logger) { self.init(logger: logger, metrics: PushMetrics()) }

    package init(logger: Logger, metrics: PushMetrics) {
        self.logger = logger
        self.metrics = metrics
    }

    public func deliver(_ messages: [PushMessage]) {
        metrics.count(.recorded, messages.count)
        for message in messages {
            logger.debug("push recorded", metadata: [
                "lifesignal.user": "\(message.userID)", "lifesignal.device": "\(message.deviceID)",
                "lifesignal.notification": "\(message.notificationID)",
            ])
        }
    }
}
