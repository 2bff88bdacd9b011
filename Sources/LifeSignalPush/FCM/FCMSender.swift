import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore

/// Tries to send one message to FCM, within `tryTimeout`, and reports how it ended: counted, logged,
/// and a token FCM has given up on handed to the broker to remove from its device. Whether and
/// when to try again is `FairPushQueue`'s. Never logs a push token, an access token or the assertion.
package struct FCMSender: Sendable {
    /// One try's bound: a slow FCM costs a send slot this long at most, then the try counts as failed.
    package static let defaultTryTimeout: Duration = .seconds(10)

    package let settings: FCMSettings
    package let client: HTTPClient
    package let tokens: FCMAccessTokens
    package let metrics: PushMetrics
    package let logger: Logger
    package var tryTimeout = Self.defaultTryTimeout
    /// Asks the broker to remove a rejected token (set when the broker starts).
    package let tokenRejected: @Sendable (PushMessage) -> Void

    package func tryOnce(_ message: PushMessage) async -> FCMTryResult {
        let accessToken: String
        do {
            accessToken = try await tokens.token()
        } catch {
            return .noAccessToken("\(error)")
        }
        var request = HTTPClientRequest(url: settings.sendURL)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        request.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        request.body = .bytes(ByteBuffer(bytes: message.body))
        let started = ContinuousClock.now
        let timeout = TimeAmount.nanoseconds(Int64(tryTimeout / .nanoseconds(1)))
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            metrics.sendDuration.recordInterval(since: started)
            let outcome = FCMSendOutcome(status: Int(response.status.code), body: Data(body.readableBytesView),
                                         retryAfterHeader: response.headers.first(name: "Retry-After"))
            if outcome == .unauthorized { await tokens.invalidate(accessToken) }
            return .answered(outcome)
        } catch {
            metrics.sendDuration.recordInterval(since: started)
            return .unreachable("\(error)")
        }
    }

    /// Counts and logs how a try ended, and what the queue decided.
    package func report(_ message: PushMessage, _ result: FCMTryResult, _ decision: FairPushQueue.Decision, attempts: Int) {
        switch (result, decision) {
        case (.answered(.sent), _):
            metrics.count(.sent)
        case (.answered(.unregistered), _):
            reject(message, counted: .unregistered)
        case (.answered(.invalidToken), _):
            reject(message, counted: .invalid)
        case (.answered(.failed(let status, let reason)), _):
            metrics.count(.failed)
            logger.warning("FCM refused a push; giving up", metadata: metadata(message, [
                "lifesignal.fcm.status": .stringConvertible(status), "lifesignal.fcm.reason": "\(reason)",
            ]))
        case (_, .retry):
            metrics.count(.retried)
        case (_, .done):
            break  // closed meanwhile
        case (.noAccessToken(let failure), .gaveUp):
            metrics.count(.authFailed)
            logger.warning("no FCM access token; giving up a push", metadata: metadata(message, [
                "lifesignal.fcm.attempts": .stringConvertible(attempts), "lifesignal.error": "\(failure)",
            ]))
        case (.answered(.unauthorized), .gaveUp):
            metrics.count(.authFailed)
            logger.warning("FCM refused the access token; giving up a push", metadata: metadata(message, [
                "lifesignal.fcm.attempts": .stringConvertible(attempts),
            ]))
        case (.answered(let outcome), .gaveUp):
            giveUp(message, reason: "\(outcome)", attempts: attempts)
        case (.unreachable(let error), .gaveUp):
            giveUp(message, reason: error, attempts: attempts)
        }
    }

    private func giveUp(_ message: PushMessage, reason: String, attempts: Int) {
        metrics.count(.failed)
        logger.warning("FCM push failed; giving up", metadata: metadata(message, [
            "lifesignal.fcm.attempts": .stringConvertible(attempts), "lifesignal.error": "\(reason)",
        ]))
    }

    /// FCM has given up on the token: the broker removes it from its device.
    private func reject(_ message: PushMessage, counted result: PushMetrics.Result) {
        metrics.count(result)
        logger.info("FCM rejected a device's push token; removing it", metadata: metadata(message, [
            "lifesignal.fcm.reason": "\(result.rawValue)",
        ]))
        tokenRejected(message)
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
    package func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
