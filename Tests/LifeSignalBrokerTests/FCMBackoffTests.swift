import Foundation
@testable import LifeSignalBroker
@testable import LifeSignalPush
import Testing

/// When a send is tried again, and what each FCM answer means: plain functions, no sockets.
@Suite struct FCMBackoffTests {
    let backoff = FCMBackoff()

    @Test func theWaitDoublesWithJitterBetweenHalfAndAll() {
        // unit 0 is the least jitter allows (half), unit 1 the most (all).
        #expect(backoff.delay(afterAttempt: 1, retryAfter: nil, unit: 0) == .milliseconds(250))
        #expect(backoff.delay(afterAttempt: 1, retryAfter: nil, unit: 1) == .milliseconds(500))
        #expect(backoff.delay(afterAttempt: 2, retryAfter: nil, unit: 1) == .seconds(1))
        #expect(backoff.delay(afterAttempt: 4, retryAfter: nil, unit: 0.5) == .seconds(3))
        // Capped at maxDelay, however many tries.
        #expect(backoff.delay(afterAttempt: 40, retryAfter: nil, unit: 1) == .seconds(30))
        for attempt in 1...8 {
            let low = backoff.delay(afterAttempt: attempt, retryAfter: nil, unit: 0)
            let high = backoff.delay(afterAttempt: attempt, retryAfter: nil, unit: 0.999)
            #expect(low <= high && high <= backoff.maxDelay)
        }
    }

    @Test func retryAfterIsAFloorHoweverLong() {
        #expect(backoff.delay(afterAttempt: 1, retryAfter: .seconds(7), unit: 0.5) == .seconds(7))
        // A short Retry-After does not cut the backoff.
        #expect(backoff.delay(afterAttempt: 4, retryAfter: .seconds(1), unit: 1) == .seconds(4))
        // FCM's word, even past a minute.
        #expect(backoff.delay(afterAttempt: 1, retryAfter: .seconds(3600), unit: 0) == .seconds(3600))
        #expect(backoff.delay(afterAttempt: 1, retryAfter: .seconds(61), rateLimited: true, unit: 0) == .seconds(61))
    }

    @Test func aTooManyRequestsWithoutRetryAfterWaitsAMinuteAndDoubles() {
        #expect(backoff.delay(afterAttempt: 1, retryAfter: nil, rateLimited: true, unit: 0) == .seconds(60))
        #expect(backoff.delay(afterAttempt: 1, retryAfter: nil, rateLimited: true, unit: 1) == .seconds(75))
        #expect(backoff.delay(afterAttempt: 2, retryAfter: nil, rateLimited: true, unit: 0) == .seconds(120))
        #expect(backoff.delay(afterAttempt: 30, retryAfter: nil, rateLimited: true, unit: 0) == backoff.maxRateLimitedDelay)
    }

    @Test func retryAfterIsReadInSeconds() {
        #expect(FCMBackoff.retryAfter(header: "30") == .seconds(30))
        #expect(FCMBackoff.retryAfter(header: " 0 ") == .seconds(0))
        #expect(FCMBackoff.retryAfter(header: "Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(FCMBackoff.retryAfter(header: "-5") == nil)
        #expect(FCMBackoff.retryAfter(header: nil) == nil)
    }

    @Test func triesAreBounded() {
        #expect(backoff.allowsRetry(after: 1))
        #expect(backoff.allowsRetry(after: backoff.maxAttempts - 1))
        #expect(!backoff.allowsRetry(after: backoff.maxAttempts))
        #expect(backoff.allowsRetry(after: 1_000, isSafety: true))
    }

    private func outcome(_ status: Int, _ body: String = "", retryAfter: String? = nil) -> FCMSendOutcome {
        FCMSendOutcome(status: status, body: Data(body.utf8), retryAfterHeader: retryAfter)
    }

    @Test func eachAnswerOfFCMMeansOneThing() {
        #expect(outcome(200, #"{"name": "projects/p/messages/1"}"#) == .sent)
        #expect(outcome(503, retryAfter: "10") == .retry(retryAfter: .seconds(10)))
        #expect(outcome(500) == .retry(retryAfter: nil))
        #expect(outcome(429, #"{"error": {"status": "RESOURCE_EXHAUSTED"}}"#, retryAfter: "2") == .rateLimited(retryAfter: .seconds(2)))
        #expect(outcome(429) == .rateLimited(retryAfter: nil))
        #expect(outcome(401) == .unauthorized)
        #expect(outcome(404, #"{"error": {"code": 404, "status": "NOT_FOUND", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}"#)
            == .unregistered)
        // INVALID_ARGUMENT condemns the token only when it is about the token.
        #expect(outcome(400, #"{"error": {"code": 400, "message": "The registration token is not a valid FCM registration token", "status": "INVALID_ARGUMENT", "details": [{"errorCode": "INVALID_ARGUMENT"}]}}"#)
            == .invalidToken)
        #expect(outcome(400, #"{"error": {"code": 400, "status": "INVALID_ARGUMENT", "details": [{"errorCode": "INVALID_ARGUMENT"}, {"fieldViolations": [{"field": "message.token"}]}]}}"#)
            == .invalidToken)
        #expect(outcome(400, #"{"error": {"code": 400, "message": "Invalid JSON payload received.", "status": "INVALID_ARGUMENT", "details": [{"fieldViolations": [{"field": "message.data"}]}]}}"#)
            == .failed(status: 400, reason: "INVALID_ARGUMENT"))
        #expect(outcome(403, #"{"error": {"code": 403, "status": "PERMISSION_DENIED", "details": [{"errorCode": "SENDER_ID_MISMATCH"}]}}"#)
            == .failed(status: 403, reason: "SENDER_ID_MISMATCH"))
        #expect(outcome(418, "teapot") == .failed(status: 418, reason: "HTTP 418"))
    }
}
