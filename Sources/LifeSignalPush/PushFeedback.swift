/// What a gateway can ask of the broker about the devices it pushes to. The broker gives it
/// one when it starts (`PushGateway.start(feedback:)`); each call may come from any thread.
public struct PushFeedback: Sendable {
    /// The push service has given up on `message.token` (unregistered or invalid): the broker
    /// removes it from `message.deviceID`, unless that device has registered another one since.
    public let tokenRejected: @Sendable (PushMessage) -> Void

    public init(tokenRejected: @escaping @Sendable (PushMessage) -> Void) {
        self.tokenRejected = tokenRejected
    }
}
