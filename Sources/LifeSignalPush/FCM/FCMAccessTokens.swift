import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// The OAuth2 access token FCM sends are authorised with: fetched from the service account's
/// `token_uri` with a signed assertion, kept until shortly before it expires, and fetched once for
/// all the sends that need it at the same moment.
package actor FCMAccessTokens {
    /// Why no token could be had; says what the endpoint answered, never a token or the assertion.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private struct Token {
        let value: String
        let refreshAt: ContinuousClock.Instant
    }

    /// Renewed this long before `expires_in` runs out, so that a send never carries one that expires
    /// on the way.
    package static let refreshMargin: Duration = .seconds(60)
    /// After a failed fetch, sends wait this long before asking again rather than hammering the endpoint.
    package static let failureCooldown: Duration = .seconds(1)

    private let account: FCMServiceAccount
    private let client: HTTPClient
    private let logger: Logger
    private var current: Token?
    private var fetching: Task<Token, any Error>?
    private var lastFailure: (error: Failure, at: ContinuousClock.Instant)?

    package init(account: FCMServiceAccount, client: HTTPClient, logger: Logger) {
        self.account = account
        self.client = client
        self.logger = logger
    }

    package func token() async throws -> String {
        if let current, ContinuousClock.now < current.refreshAt { return current.value }
        if let lastFailure, ContinuousClock.now < lastFailure.at + Self.failureCooldown { throw lastFailure.error }
        let task: Task<Token, any Error>
        if let fetching {
            task = fetching
        } else {
            let (account, client) = (self.account, self.client)
            task = Task { try await Self.fetch(account: account, client: client) }
            fetching = task
        }
        do {
            let token = try await task.value
            finish(task, with: token)
            return token.value
        } catch {
            let failure = error as? Failure ?? Failure(description: "token endpoint unreachable: \(error)")
            finish(task, failedWith: failure)
            throw failure
        }
    }

    /// FCM refused `value` (401): the next send fetches a new one.
    package func invalidate(_ value: String) {
        if current?.value == value { current = nil }
    }

    private func finish(_ task: Task<Token, any Error>, with token: Token) {
        guard fetching == task else { return }
        fetching = nil
        current = token
        lastFailure = nil
    }

    private func finish(_ task: Task<Token, any Error>, failedWith failure: Failure) {
        guard fetching == task else { return }
        fetching = nil
        lastFailure = (failure, ContinuousClock.now)
        // Once per failed fetch (at most one a second), however many sends were waiting for it.
        logger.warning("no FCM access token", metadata: [
            "lifesignal.fcm.client": "\(account.clientEmail)", "lifesignal.error": "\(failure)",
        ])
    }

    /// The JWT-bearer grant (RFC 7523 §2.1) as a form POST.
    private static func fetch(account: FCMServiceAccount, client: HTTPClient) async throws -> Token {
        let assertion = try FCMAssertion.signed(for: account, issuedAt: Int64(Date().timeIntervalSince1970))
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormBody.encode([
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
        ])))
        let started = ContinuousClock.now
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = Data(try await response.body.collect(upTo: 64 * 1024).readableBytesView)
        guard response.status.code == 200 else {
            // `error` is an OAuth code such as invalid_grant: safe to log, unlike the description's echo.
            let code = (try? JSONDecoder().decode(ErrorAnswer.self, from: body))?.error
            let status = response.status.code
            throw Failure(description: "token endpoint answered \(status)\(code.map { " (\($0))" } ?? "")")
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), !answer.access_token.isEmpty else {
            throw Failure(description: "token endpoint answered 200 without an access token")
        }
        let lifetime = Duration.seconds(max(answer.expires_in ?? 3600, 1))
        let margin = min(Self.refreshMargin, lifetime / 2)
        return Token(value: answer.access_token, refreshAt: started + lifetime - margin)
    }

    private struct Answer: Decodable {
        let access_token: String
        let expires_in: Int64?
    }

    private struct ErrorAnswer: Decodable {
        let error: String?
    }
}
