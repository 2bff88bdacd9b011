import LifeSignalProtocol

/// The fields of `hello`'s `ok` (§3, §11), whichever executor serves the device.
enum HelloAnswer {
    static func fields(user: User, lastSeq: Int64, configuration: BrokerConfiguration, brokerID: String) -> JSONObject {
        [
            "session": .string(Credentials.newID(prefix: "s")),
            "user": user.json,
            "lastSeq": .int(lastSeq),
            "heartbeatMs": .int(configuration.heartbeatMs),
            "maxFrameBytes": .int(Int64(configuration.maxFrameBytes)),
            "serverTime": .int(WallClock.nowMs()),
            "broker": .string(brokerID),
        ]
    }
}
