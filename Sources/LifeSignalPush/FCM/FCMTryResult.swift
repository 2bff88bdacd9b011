/// How one try to send a message to FCM ended.
package enum FCMTryResult: Sendable, Equatable {
    case answered(FCMSendOutcome)
    /// The token endpoint refused or could not be reached: nothing was sent.
    case noAccessToken(String)
    /// No answer: the network failed, or the try ran out of its time.
    case unreachable(String)

    /// Whether the message may be sent by trying again, and not before when.
    package var retry: (after: Duration?, rateLimited: Bool)? {
        switch self {
        case .answered(.rateLimited(let after)): (after, true)
        case .answered(.retry(let after)): (after, false)
        case .answered(.unauthorized), .noAccessToken, .unreachable: (nil, false)
        case .answered(.sent), .answered(.unregistered), .answered(.invalidToken), .answered(.failed): nil
        }
    }
}
