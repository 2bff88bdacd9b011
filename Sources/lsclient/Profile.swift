import LifeSignalClient
import LifeSignalProtocol

/// A saved account: `profiles/NAME.json` (mode 0600).
struct Profile: Sendable, Equatable {
    var userID: String
    var token: String
    /// The device id used when `--device` is not given.
    var device: String
    /// The broker it was registered with, used when neither `--broker` nor LSCLIENT_BROKER is set.
    var broker: String?
    /// Registered over TLS: later commands use it too, with the CA file if one was given.
    var tls = false
    var caFile: String?

    var json: JSONValue {
        var object: JSONObject = [
            "userID": .string(userID), "token": .string(token), "device": .string(device),
        ]
        if let broker { object["broker"] = .string(broker) }
        if tls { object["tls"] = .bool(true) }
        if let caFile { object["caFile"] = .string(caFile) }
        return .object(object)
    }

    init(userID: String, token: String, device: String, broker: String?, tls: ClientTLS? = nil) {
        self.userID = userID
        self.token = token
        self.device = device
        self.broker = broker
        self.tls = tls != nil
        if case .certificateAuthorities(let files)? = tls?.trust { caFile = files.first }
    }

    init(json: JSONValue) throws(ProtocolError) {
        guard case .object(let object) = json else { throw .badRequest("a profile must be a JSON object") }
        userID = try object.string("userID")
        token = try object.string("token")
        device = try object.string("device")
        broker = try object.optionalString("broker")
        tls = try object.optionalBool("tls") ?? false
        caFile = try object.optionalString("caFile")
    }

    /// A fresh default device id, `cli-` and six random characters.
    static func newDeviceID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "cli-" + String((0..<6).map { _ in alphabet.randomElement()! })
    }
}
