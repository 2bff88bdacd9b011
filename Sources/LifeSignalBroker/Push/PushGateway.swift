/// Where committed pushes go (PROTOCOL §7): the seam for a real FCM sender.
///
/// The broker calls `deliver` off the loop, on its own serial push queue, once per committed
/// batch and in commit order. It may block (a network round trip) or throw: that delays only
/// later pushes, never routing or other users. Each message is already durable in the store's
/// `pushes` table, so a sender that gives up can catch up from there.
public protocol PushGateway: Sendable {
    func deliver(_ messages: [PushMessage]) throws
}
