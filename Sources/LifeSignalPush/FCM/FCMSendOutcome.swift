import Foundation

/// What one answer of FCM's `messages:send` means for the message and its token
/// (FCM HTTP v1 error codes; `google.rpc.Status` bodies with `FcmError` details).
package enum FCMSendOutcome: Equatable {
    case sent
    /// FCM no longer knows the token (app uninstalled, token expired): remove it from its device.
    case unregistered
    /// The token is not an FCM token at all: remove it from its device too.
    case invalidToken
    /// The access token was refused: get a new one and try again.
    case unauthorized
    /// Over quota (429): try again not before `retryAfter`, or a minute when not given.
    case rateLimited(retryAfter: Duration?)
    /// Overloaded or unavailable (5xx): try again later, not before `retryAfter` if given.
    case retry(retryAfter: Duration?)
    /// Anything else (a bad request, a sender mismatch): trying again would not help.
    case failed(status: Int, reason: String)

    package init(status: Int, body: Data, retryAfterHeader: String?) {
        switch status {
        case 200..<300:
            self = .sent
            return
        case 401:
            self = .unauthorized
            return
        case 429:
            self = .rateLimited(retryAfter: FCMBackoff.retryAfter(header: retryAfterHeader))
            return
        case 500..<600:
            self = .retry(retryAfter: FCMBackoff.retryAfter(header: retryAfterHeader))
            return
        default:
            break
        }
        let error = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error
        let errorCodes = Set(error?.details?.compactMap(\.errorCode) ?? [])
        let reason = errorCodes.sorted().first ?? error?.status ?? "HTTP \(status)"
        // Only FCM's own code condemns a token: a bare 404 may be a wrong project or endpoint,
        // and taking it for "unregistered" would strip every device of its token.
        if errorCodes.contains("UNREGISTERED") {
            self = .unregistered
        } else if status == 400, errorCodes.contains("INVALID_ARGUMENT") || error?.status == "INVALID_ARGUMENT",
                  error?.isAboutTheToken == true {
            self = .invalidToken
        } else {
            self = .failed(status: status, reason: reason)
        }
    }

    /// `{"error": {"code", "message", "status", "details": [{"@type", "errorCode" | "fieldViolations"}]}}`.
    private struct ErrorBody: Decodable {
        struct Status: Decodable {
            let message: String?
            let status: String?
            let details: [Detail]?

            /// INVALID_ARGUMENT covers any bad field; only one naming the token condemns the token.
            var isAboutTheToken: Bool {
                let fields = details?.flatMap { $0.fieldViolations ?? [] }.compactMap(\.field) ?? []
                if fields.contains("message.token") { return true }
                return message?.localizedCaseInsensitiveContains("registration token") == true
            }
        }

        struct Detail: Decodable {
            let errorCode: String?
            let fieldViolations: [FieldViolation]?
        }

        struct FieldViolation: Decodable {
            let field: String?
        }

        let error: Status
    }
}
