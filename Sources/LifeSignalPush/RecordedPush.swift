/// A push as the store recorded it (`lsbroker pushes`): `position` orders them and lets a
/// follower ask for what is newer, on either store.
public struct RecordedPush: Sendable {
    public var position: Int64
    public var push: PushMessage

    public init(position: Int64, push: PushMessage) {
        self.position = position
        self.push = push
    }
}
