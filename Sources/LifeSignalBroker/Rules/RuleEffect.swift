import LifeSignalProtocol

/// One thing a rule decided, in the order it decided it. An executor stores every `store` change
/// in the request's transaction, gives each `event` the user's next seq, and stores, announces
/// and pushes each `notification`.
public enum RuleEffect: Sendable {
    case store(StoreChange)
    case event(userID: String, name: String, data: EventData)
    case notification(userID: String, Notification)
}
