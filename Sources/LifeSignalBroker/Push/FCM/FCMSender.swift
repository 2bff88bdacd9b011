import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore

/// Sends one message to FCM, trying again on what may pass (429, 5xx, a refused access token, a
/// network error) with `FCMBackoff`, and reporting a token FCM has given up on so that the broker
/// removes it from its device. Never logs a push token, an access token or the assertion.
struct FCMSender: Sendable {
    let settings: FCMSettings
    let client: HTTPClient
    let tokens: FCMAccessTokens
    let backoff: FCMBackoff
    let metrics: PushMetrics
    let logger: Logger
    /// Asks the broker to remove a rejected token (set when the broker starts).
    let tokenRejected: @Sendable (PushMessage) -> Void

    /// How one try ended, before deciding whether to try again.
    private enum Attempt {
        case answered(FCMSendOutcome, accessToken: String)
        case noAccessToken(FCMAccessTokens.Failure)
        case unreachable(any Error)
    }

    func send(_ message: PushMessage) async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            let result = await tryOnce(message)
            var retryAfter: Duration?
            switch result {
            case .answered(.sent, _):
                metrics.count(.sent)
                return
            case .answered(.unregistered, _):
                reject(message, counted: .unregistered)
                return
            case .answered(.invalidToken, _):
                reject(message, counted: .invalid)
                return
            case .answered(.failed(let status, let reason), _):
                metrics.count(.failed)
                logger.warning("FCM refused a push; giving up", metadata: metadata(message, [
                    "lifesignal.fcm.status": "\(status)", "lifesignal.fcm.reason": "\(reason)",
                ]))
                return
            case .answered(.unauthorized, let accessToken):
                await tokens.invalidate(accessToken)
            case .answered(.retry(let after), _):
                retryAfter = after
            case .noAccessToken, .unreachable:
                break
            }
            guard backoff.allowsRetry(after: attempt) else {
                giveUp(message, after: result, attempts: attempt)
                return
            }
            metrics.count(.retried)
            let delay = backoff.delay(afterAttempt: attempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1))
            try? await Task.sleep(for: delay)
        }
    }

    /// FCM has given up on the token: the broker removes it from its device.
    private func reject(_ message: PushMessage, counted result: PushMetrics.Result) {
        metrics.count(result)
        logger.info("FCM rejected a device's push token; removing it", metadata: metadata(message, [
            "lifesignal.fcm.reason": "\(result.rawValue)",
        ]))
        tokenRejected(message)
    }

    private func tryOnce(_ message: PushMessage) async -> Attempt {
        let accessToken: String
        do {
            accessToken = try await tokens.token()
        } catch {
            return .noAccessToken(error as? FCMAccessTokens.Failure ?? .init(description: "\(error)"))
        }
        var request = HTTPClientRequest(url: settings.sendURL)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        request.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        request.body = .bytes(ByteBuffer(bytes: message.body))
        let started = ContinuousClock.now
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            metrics.sendDuration.recordInterval(since: started)
            return .answered(FCMSendOutcome(status: Int(response.status.code), body: Data(body.readableBytesView),
                                            retryAfterHeader: response.headers.first(name: "Retry-After")),
                             accessToken: accessToken)
        } catch {
            metrics.sendDuration.recordInterval(since: started)
            return .unreachable(error)
        }
    }

    private func giveUp(_ message: PushMessage, after result: Attempt, attempts: Int) {
        let reason: String
        switch result {
        case .noAccessToken(let failure):
            metrics.count(.authFailed)
            logger.warning("no FCM access token; giving up a push", metadata: metadata(message, [
                "lifesignal.fcm.attempts": "\(attempts)", "lifesignal.error": "\(failure)",
            ]))
            return
        case .answered(.unauthorized, _):
            metrics.count(.authFailed)
            logger.warning("FCM refused the access token; giving up a push", metadata: metadata(message, [
                "lifesignal.fcm.attempts": "\(attempts)",
            ]))
            return
        case .answered(let outcome, _): reason = "\(outcome)"
        case .unreachable(let error): reason = "\(error)"
        }
        metrics.count(.failed)
        logger.warning("FCM push failed; giving up", metadata: metadata(message, [
            "lifesignal.fcm.attempts": "\(attempts)", "lifesignal.error": "\(reason)",
        ]))
    }

    /// Ids only: the token is an address to a person's phone.
    private func metadata(_ message: PushMessage, _ extra: Logger.Metadata) -> Logger.Metadata {
        extra.merging([
            "lifesignal.user": "\(message.userID)", "lifesignal.device": "\(message.deviceID)",
            "lifesignal.notification": "\(message.notificationID)",
        ]) { $1 }
    }
}

extension Metrics.Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
