import LifeSignalBroker
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalVersion

extension UserSummary {
    /// `lsbroker users`: a block per user, the devices as an aligned table.
    var readableText: String {
        var lines = [
            "\(name) (\(id))",
            "  created        \(RFC3339.utcMilliseconds(createdAt))",
            "  seq            \(seq)",
            "  contacts       \(responders) \(responders == 1 ? "responder" : "responders"), "
                + "\(dependents) \(dependents == 1 ? "dependent" : "dependents")",
            "  notifications  \(notifications), \(unread) unread",
            "  devices        \(devices.count)",
        ]
        let rows = [["DEVICE", "PLATFORM", "PUSH TOKEN", "LAST SEEN", "ONLINE"]] + devices.map { device in
            [device.id, device.platform ?? "-", device.hasToken ? "yes" : "no",
             device.lastSeenAt.map(RFC3339.utcMilliseconds) ?? "never", device.online.readable]
        }
        if !devices.isEmpty { lines += TextColumns.aligned(rows).map { "    " + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One object; `online` is true, false or null (unknown), `broker` only in a cluster.
    var jsonLine: String {
        let object: JSONObject = [
            "id": .string(id), "name": .string(name), "createdAt": .int(createdAt), "seq": .int(seq),
            "contacts": ["responders": .int(Int64(responders)), "dependents": .int(Int64(dependents))],
            "notifications": ["total": .int(Int64(notifications)), "unread": .int(Int64(unread))],
            "devices": .array(devices.map { device in
                var fields: JSONObject = [
                    "id": .string(device.id), "platform": device.platform.map(JSONValue.string) ?? .null,
                    "hasToken": .bool(device.hasToken), "lastSeenAt": device.lastSeenAt.map(JSONValue.int) ?? .null,
                ]
                switch device.online {
                case .unknown: fields["online"] = .null
                case .offline: fields["online"] = .bool(false)
                case .online(let broker):
                    fields["online"] = .bool(true)
                    if let broker { fields["broker"] = .string(broker) }
                }
                return .object(fields)
            }),
        ]
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self)
    }
}

extension UserSummary.Online {
    var readable: String {
        switch self {
        case .unknown: "unknown"
        case .offline: "no"
        case .online(nil): "yes"
        case .online(let broker?): "yes (\(broker))"
        }
    }
}
