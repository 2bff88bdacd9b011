import LifeSignalEngine
import LifeSignalProtocol

/// The fields of `hello`'s `ok` (§3, §11), whichever executor serves the device.
enum HelloAnswer {
    /// `version`: the hello's; a v1.2 device is told the version it is served (§12).
    static func fields(user: User, lastSeq: Int64, version: Int64, configuration: BrokerConfiguration,
                       brokerID: String) -> JSONObject {
        Reply.hello(HelloResult(
            session: Credentials.newID(prefix: "s"), user: user, lastSeq: lastSeq, heartbeatMs: configuration.heartbeatMs,
            maxFrameBytes: configuration.maxFrameBytes, serverTime: WallClock.nowMs(), broker: brokerID,
            version: version >= ProtocolVersion.v1_2 ? version : nil)).fields
    }
}
