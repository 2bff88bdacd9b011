import LifeSignalEngine
import LifeSignalProtocol
import PostgresNIO

extension ClusterRows {
    /// A broker whose heartbeat is older than this is dead, and its devices offline.
    package static let presenceExpirySeconds = 15

    /// The devices of `userID` and which of them are online on a live broker of the cluster.
    package static func devices(of userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> (devices: [DeviceRecord], online: Set<String>)
    {
        var devices: [DeviceRecord] = []
        let rows = try await connection.query(
            "SELECT device_id, platform, push_token, last_seen_at FROM devices WHERE user_id = \(userID)",
            logger: logger)
        for try await (deviceID, platform, token, lastSeen) in rows.decode((String, String?, String?, Int64?).self) {
            devices.append(DeviceRecord(key: DeviceKey(userID: userID, deviceID: deviceID), platform: platform,
                                        pushToken: token, lastSeenAt: lastSeen))
        }
        return (devices, Set(try await presence(of: userID, on: connection, logger: logger).keys))
    }

    /// `devices.list` and `devices.changed` (§5, §12): stored devices and credentials, online
    /// meaning held by a live broker of the cluster.
    package static func deviceInfos(of userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> [DeviceInfo]
    {
        try await devicesWithPushTokens(of: userID, on: connection, logger: logger).listed
    }

    /// `deviceInfos`, and the push token each device holds (`DeviceRules.changePushToken`).
    package static func devicesWithPushTokens(of userID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> (listed: [DeviceInfo], pushTokens: [String: String])
    {
        let (devices, online) = try await self.devices(of: userID, on: connection, logger: logger)
        let credentials = try await deviceCredentials(of: userID, on: connection, logger: logger)
        return (DeviceInfo.listing(devices, credentials: credentials, online: online), DeviceRecord.pushTokens(of: devices))
    }

    package static func deviceCredentials(of userID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> [DeviceCredential]
    {
        var credentials: [DeviceCredential] = []
        let rows = try await connection.query("""
            SELECT device_id, token_hash, linked_at FROM device_credentials WHERE user_id = \(userID) ORDER BY device_id
            """, logger: logger)
        for try await (deviceID, hash, linkedAt) in rows.decode((String, ByteBuffer, Int64).self) {
            credentials.append(DeviceCredential(key: DeviceKey(userID: userID, deviceID: deviceID),
                                                tokenHash: Array(hash.readableBytesView), linkedAt: linkedAt))
        }
        return credentials
    }

    /// The devices of `userID` online on a live broker of the cluster, and that broker's id.
    package static func presence(of userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> [String: String]
    {
        var holders: [String: String] = [:]
        let present = try await connection.query("""
            SELECT p.device_id, p.broker_id FROM presence p JOIN brokers b ON b.broker_id = p.broker_id
            WHERE p.user_id = \(userID)
              AND b.heartbeat_at > now() - make_interval(secs => \(Double(presenceExpirySeconds)))
            """, logger: logger)
        for try await (deviceID, brokerID) in present.decode((String, String).self) { holders[deviceID] = brokerID }
        return holders
    }

    /// The devices of `userIDs` that have a push token (the only ones a notification may push), and
    /// which of them are online on a live broker, in one statement; by user.
    package static func pushableDevices(of userIDs: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> [String: (devices: [DeviceRecord], online: Set<String>)]
    {
        var found: [String: (devices: [DeviceRecord], online: Set<String>)] = [:]
        let rows = try await connection.run(Prepared<PushableDevices>(userIDs, Double(presenceExpirySeconds)),
                                            logger: logger)
        for try await row in rows {
            let (userID, deviceID, platform, token, lastSeen, isOnline) =
                try row.decode((String, String, String?, String?, Int64?, Bool).self)
            found[userID, default: ([], [])].devices.append(DeviceRecord(
                key: DeviceKey(userID: userID, deviceID: deviceID), platform: platform, pushToken: token,
                lastSeenAt: lastSeen))
            if isOnline { found[userID, default: ([], [])].online.insert(deviceID) }
        }
        return found
    }

    package enum PushableDevices: StatementText {
        package static let sql = """
            SELECT d.user_id, d.device_id, d.platform, d.push_token, d.last_seen_at, EXISTS (
                SELECT 1 FROM presence p JOIN brokers b ON b.broker_id = p.broker_id
                WHERE p.user_id = d.user_id AND p.device_id = d.device_id
                  AND b.heartbeat_at > now() - make_interval(secs => $2::double precision))
            FROM devices d WHERE d.user_id = ANY($1::text[]) AND d.push_token IS NOT NULL
            """
    }
}
