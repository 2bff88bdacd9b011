/// Where committed pushes go (PROTOCOL §7): the seam for a real FCM sender.
///
/// The broker calls `deliver` off the loop, on its own serial push queue, once per committed
/// batch and in commit order. It may block (a network round trip) or throw: that delays only
/// later pushes, never routing or other users. Each message is already durable in the store's
/// `pushes` table, so a sender that gives up can catch up from there. A sender with queues of
/// its own (`FCMPushGateway`) returns at once instead.
public protocol PushGateway: Sendable {
    func deliver(_ messages: [PushMessage]) throws
    /// Called once when the broker starts, with the way to tell it about tokens that no longer work.
    func start(feedback: PushFeedback)
    /// Called once when the broker has stopped: ends what is in flight and releases connections.
    func shutdown() async
}

extension PushGateway {
    public func start(feedback: PushFeedback) {}
    public func shutdown() async {}
}
