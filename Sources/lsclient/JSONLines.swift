import LifeSignalClient
import LifeSignalProtocol

/// The `--json` line of each thing lsclient prints: every object has a `type`.
enum JSONLines {
    static func event(seq: Int64, name: String, data: JSONValue) -> JSONValue {
        ["type": "event", "seq": .int(seq), "event": .string(name), "data": data]
    }

    static func snapshot(_ snapshot: Snapshot) -> JSONValue {
        typed("snapshot", snapshot.json.objectValue ?? [:], dropping: "op")
    }

    static func connected(_ hello: HelloResult) -> JSONValue {
        typed("connected", hello.json.objectValue ?? [:])
    }

    static func disconnected(error: LifeSignalClientError?, willReconnect: Bool) -> JSONValue {
        ["type": "disconnected", "error": error.map(Self.error) ?? .null, "willReconnect": .bool(willReconnect)]
    }

    static func reconnecting(attempt: Int, delayMs: UInt64, error: LifeSignalClientError) -> JSONValue {
        ["type": "reconnecting", "attempt": .int(Int64(attempt)), "delayMs": .int(Int64(delayMs)),
         "error": Self.error(error)]
    }

    /// The fields of an `ok`, or whatever a command reports as its result.
    static func result(_ fields: JSONObject) -> JSONValue {
        typed("result", fields)
    }

    static func state(_ state: DeviceState) -> JSONValue {
        var fields = state.json.objectValue ?? [:]
        fields["digest"] = .string(state.digest)
        return typed("state", fields)
    }

    static func error(_ error: LifeSignalClientError) -> JSONValue {
        ["code": .string(error.code), "message": .string(error.message)]
    }

    /// The `--json` line for any client event.
    static func line(for event: ClientEvent) -> JSONValue {
        switch event {
        case .event(let seq, let name, let data): return self.event(seq: seq, name: name, data: data)
        case .snapshot(let snapshot): return self.snapshot(snapshot)
        case .connected(let hello): return connected(hello)
        case .disconnected(let error, let willReconnect): return disconnected(error: error, willReconnect: willReconnect)
        case .reconnecting(let attempt, let delayMs, let error):
            return reconnecting(attempt: attempt, delayMs: delayMs, error: error)
        }
    }

    private static func typed(_ type: String, _ fields: JSONObject, dropping dropped: String? = nil) -> JSONValue {
        var object: JSONObject = ["type": .string(type)]
        for (key, value) in fields where key != "type" && key != dropped { object[key] = value }
        return .object(object)
    }
}
