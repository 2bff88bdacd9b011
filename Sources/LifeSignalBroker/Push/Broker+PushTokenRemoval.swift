import LifeSignalEngine
import LifeSignalRules
import LifeSignalUV

/// An operator removes a device's push token through the running broker (`DELETE
/// /v1/users/ID/devices/DEVICE/push-token` on the operations endpoint, `lsbroker users
/// --remove-token`), never behind its back in the store: the embedded broker keeps every loaded
/// user's tokens in memory, and would push to the removed one again.
extension Broker {
    /// Answers once the store holds the change (or could not).
    public func removePushToken(userID: String, deviceID: String) async throws -> PushTokenRemoval {
        try await withCheckedThrowingContinuation { continuation in
            let done: @Sendable (Result<PushTokenRemoval, any Error>) -> Void = { continuation.resume(with: $0) }
            let accepted = loop.execute { [self] in
                onLoop { $0.removePushToken(userID: userID, deviceID: deviceID, done: done) }
            }
            if !accepted { done(.failure(LoopStopped())) }
        }
    }

    private func removePushToken(userID: String, deviceID: String,
                                 done: @escaping @Sendable (Result<PushTokenRemoval, any Error>) -> Void) {
        if let cluster {
            return cluster.removePushToken(of: userID, deviceID: deviceID, ifToken: nil, then: done)
        }
        withSession(userID) { lookup in
            switch lookup {
            case .success(let session?): session.onLoop { $0.removePushToken(deviceID: deviceID, ifToken: nil, done: done) }
            case .success(nil): done(.success(.unknownUser))
            case .failure(let error): done(.failure(error))
            }
        }
    }
}
