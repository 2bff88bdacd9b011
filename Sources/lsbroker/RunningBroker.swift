import Foundation
import LifeSignalProtocol

/// What `lsbroker users` asks of a running broker through its operations endpoint (`serve
/// --metrics-port`): which devices of a user are connected (`GET /v1/users/{id}/online`, which the
/// embedded store cannot say; only the process holding the connections can), and to remove a
/// device's push token (`DELETE /v1/users/{id}/devices/{device}/push-token`, which must go through
/// the broker that holds the user's tokens in memory).
struct RunningBroker {
    /// `http://127.0.0.1:9420`, as given to `--metrics-url`.
    let endpoint: OperationsEndpoint

    init(baseURL: String) { endpoint = OperationsEndpoint(baseURL) }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private static func component(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
    }

    /// The ids of the user's devices online now.
    func onlineDevices(of userID: String) throws -> Set<String> {
        let path = "/v1/users/\(Self.component(userID))/online"
        let body = try endpoint.get(path)
        guard let answer = (try? JSONValue.parse(Array(body.utf8)))?.objectValue,
              let devices = answer["devices"]?.arrayValue?.compactMap(\.stringValue) else {
            throw Failed(description: "\(endpoint.baseURL)\(path) did not answer {\"devices\": […]}")
        }
        return Set(devices)
    }

    /// `removed`, `no_token`, `unknown_device` or `unknown_user`, once the broker's store holds it.
    func removePushToken(of userID: String, device deviceID: String) throws -> String {
        let path = "/v1/users/\(Self.component(userID))/devices/\(Self.component(deviceID))/push-token"
        let (status, body) = try endpoint.send(.delete, path)
        guard let result = (try? JSONValue.parse(Array(body.utf8)))?.objectValue?["result"]?.stringValue,
              status == 200 || status == 404 || status == 503
        else { throw Failed(description: "\(endpoint.baseURL)\(path) answered \(status): \(body)") }
        guard status != 503 else { throw Failed(description: "the broker could not store the change (\(result)); try again") }
        return result
    }
}
