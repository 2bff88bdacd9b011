import AsyncHTTPClient
import LifeSignalUV
import Logging

/// The gateway that sends each committed push to FCM's HTTP v1 API (`--fcm-service-account`).
///
/// `deliver` only queues (`FCMSendQueue`, fair per recipient: `FairPushQueue`); sends run on their
/// own tasks over one shared `HTTPClient` (HTTP/2 when the endpoint offers it). `shutdown()` must be
/// called before the gateway goes (BrokerServer does, once the loop has stopped): it ends the sends
/// in flight and the client, which may not be released while running.
public final class FCMPushGateway: PushGateway {
    private let client: HTTPClient
    private let queue: FCMSendQueue
    /// The broker's handle, set when it starts; tokens rejected before then are only logged.
    private let feedback = Locked<PushFeedback?>(nil)

    public convenience init(settings: FCMSettings, logger: Logger, backoff: FCMBackoff = FCMBackoff()) {
        var limits = FairPushQueue.Limits()
        limits.backoff = backoff
        self.init(settings: settings, logger: logger, limits: limits)
    }

    package init(settings: FCMSettings, logger: Logger, limits: FairPushQueue.Limits,
         tryTimeout: Duration = FCMSender.defaultTryTimeout) {
        var configuration = HTTPClient.Configuration()
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let metrics = PushMetrics()
        let feedback = self.feedback
        let tokens = FCMAccessTokens(account: settings.serviceAccount, client: client, logger: logger)
        let sender = FCMSender(
            settings: settings, client: client, tokens: tokens, metrics: metrics, logger: logger,
            tryTimeout: tryTimeout, tokenRejected: { message in feedback.withLock { $0 }?.tokenRejected(message) })
        self.client = client
        queue = FCMSendQueue(limits: limits, metrics: metrics, logger: logger,
                             send: { await sender.tryOnce($0) },
                             report: { sender.report($0, $1, $2, attempts: $3) })
        logger.info("sending pushes through FCM", metadata: [
            "lifesignal.fcm.project": "\(settings.serviceAccount.projectID)",
            "lifesignal.fcm.endpoint": "\(settings.endpoint)",
        ])
    }

    public func deliver(_ messages: [PushMessage]) {
        for message in messages { queue.enqueue(message) }
    }

    public func start(feedback: PushFeedback) {
        self.feedback.withLock { $0 = feedback }
    }

    public func shutdown() async {
        await queue.close()
        try? await client.shutdown()
    }
}
