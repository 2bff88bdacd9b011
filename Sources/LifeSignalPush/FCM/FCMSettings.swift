import Foundation

/// How the broker reaches FCM (`--fcm-service-account`, `--fcm-endpoint`).
public struct FCMSettings: Sendable {
    public static let defaultEndpoint = "https://fcm.googleapis.com"

    public let serviceAccount: FCMServiceAccount
    /// Scheme and host (and port) of the FCM HTTP v1 API, without a trailing slash.
    public let endpoint: String

    /// Both the FCM endpoint and the account's `token_uri` must be `https`: the access token and the
    /// signed assertion travel on them. `allowsPlainHTTP` (`--fcm-allow-plain-http`) is for tests
    /// against a fake on loopback only.
    public init(serviceAccount: FCMServiceAccount, endpoint: String = Self.defaultEndpoint,
                allowsPlainHTTP: Bool = false) throws {
        guard let url = URL(string: endpoint), let scheme = url.scheme, scheme == "https" || scheme == "http",
              url.host != nil else {
            throw FCMServiceAccount.Invalid(description: "fcm-endpoint '\(endpoint)' is not an http(s) URL")
        }
        if !allowsPlainHTTP {
            for (name, value) in [("fcm-endpoint", endpoint), ("token_uri", serviceAccount.tokenURI)]
            where URL(string: value)?.scheme != "https" {
                throw FCMServiceAccount.Invalid(description: """
                    \(name) '\(value)' is plain http: the FCM credentials would cross the network in clear; \
                    use https (--fcm-allow-plain-http is for tests against a local fake only)
                    """)
            }
        }
        self.serviceAccount = serviceAccount
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    }

    /// `POST` here sends one message (FCM HTTP v1 `messages:send`).
    package var sendURL: String { "\(endpoint)/v1/projects/\(serviceAccount.projectID)/messages:send" }
}
