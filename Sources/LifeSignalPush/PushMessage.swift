/// One push: a notification for one offline device's token (PROTOCOL §7).
public struct PushMessage: Sendable, Equatable {
    public var userID: String
    public var deviceID: String
    public var token: String
    public var notificationID: String
    /// The FCM HTTP v1 body: `{"message": {"token", "notification": {title, body}, "data": {…}}}`.
    public var body: [UInt8]
    public var createdAt: Int64

    public init(userID: String, deviceID: String, token: String, notificationID: String, body: [UInt8],
                createdAt: Int64) {
        self.userID = userID
        self.deviceID = deviceID
        self.token = token
        self.notificationID = notificationID
        self.body = body
        self.createdAt = createdAt
    }
}
