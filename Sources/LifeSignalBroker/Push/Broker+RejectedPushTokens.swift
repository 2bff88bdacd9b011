import LifeSignalEngine
import LifeSignalPush
import Logging

/// A token the push service gave up on (FCM: UNREGISTERED, or not a token at all) is removed
/// from its device as `device.unregister` would, so `devices.list` shows `hasToken: false` and
/// later notifications skip it. Only if the device still holds that token: it may have
/// registered a new one while the push was in flight.
extension Broker {
    /// The handle the gateway calls from its own threads; the work hops onto the loop.
    func pushFeedback() -> PushFeedback {
        let loop = self.loop
        return PushFeedback { [weak self] message in
            guard let broker = self else { return }  // stopped: the token goes next time
            loop.execute { broker.onLoop { $0.dropRejectedPushToken(message) } }
        }
    }

    func dropRejectedPushToken(_ push: PushMessage) {
        if let cluster {
            // Counted in the store backlog and logged through the throttle like any cluster work.
            cluster.removePushToken(of: push.userID, deviceID: push.deviceID, ifToken: push.token, then: { result in
                if case .failure(let error) = result {
                    cluster.logThrottled(.warning, "could not remove a rejected push token", Self.metadata(push, error))
                }
            })
            return
        }
        withSession(push.userID) { [logger] lookup in
            switch lookup {
            case .success(let session?):
                session.onLoop { $0.removePushToken(deviceID: push.deviceID, ifToken: push.token) }
            case .success(nil):
                break  // the user is gone, and their devices with them
            case .failure(let error):
                logger.warning("could not remove a rejected push token", metadata: Self.metadata(push, error))
            }
        }
    }

    private static func metadata(_ push: PushMessage, _ error: any Error) -> Logger.Metadata {
        ["lifesignal.user": "\(push.userID)", "lifesignal.device": "\(push.deviceID)", "lifesignal.error": "\(error)"]
    }
}
