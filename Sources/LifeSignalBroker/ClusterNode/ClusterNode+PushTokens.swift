import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules

extension ClusterNode {
    /// A push token removed by the broker, not the device (`DeviceRules.removePushToken`): the
    /// rule over the user's devices read under their lock, its `devices.changed` published as any
    /// step's.
    func removePushToken(of userID: String, deviceID: String, ifToken token: String?,
                         then: @escaping @Sendable (Result<PushTokenRemoval, any Error>) -> Void) {
        run({ executor in
            try await executor.perform(as: userID, now: WallClock.nowMs(), reading: { connection, logger in
                try await ClusterRows.devicesWithPushTokens(of: userID, on: connection, logger: logger)
            }) { (step, devices) throws(ProtocolError) in
                DeviceRules.removePushToken(of: deviceID, of: userID, ifToken: token, devices: devices.listed,
                                            pushTokens: devices.pushTokens, in: &step)
            }
        }, then: { [self] result in
            if case .success(let commit) = result {
                publish(commit.events, pushes: commit.pushes, notifications: commit.notifications)
            }
            then(result.map(\.result))
        })
    }
}
