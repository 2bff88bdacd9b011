import Foundation

/// How the broker reaches FCM (`--fcm-service-account`, `--fcm-endpoint`).
public struct FCMSettings: Sendable {
    public static let defaultEndpoint = "https://fcm.googleapis.com"

    public let serviceAccount: FCMServiceAccount
    /// Scheme and host (and port) of the FCM HTTP v1 API, without a trailing slash.
    public let endpoint: String

    public init(serviceAccount: FCMServiceAccount, endpoint: String = Self.defaultEndpoint) throws {
        guard let url = URL(string: endpoint), let scheme = url.scheme, scheme == "https" || scheme == "http",
              url.host != nil else {
            throw FCMServiceAccount.Invalid(description: "fcm-endpoint '\(endpoint)' is not an http(s) URL")
        }
        self.serviceAccount = serviceAccount
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    }

    /// `POST` here sends one message (FCM HTTP v1 `messages:send`).
    var sendURL: String { "\(endpoint)/v1/projects/\(serviceAccount.projectID)/messages:send" }
}
