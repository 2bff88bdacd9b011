import Foundation
import LifeSignalProtocol

/// Asks a running embedded broker which devices of a user are connected: its operations endpoint
/// (`serve --metrics-port`) answers `GET /v1/users/{id}/online` with `{"user":"u_…","devices":["phone",…]}`.
/// The embedded store cannot say; only the process holding the connections can.
struct OnlineDevicesClient {
    /// `http://127.0.0.1:9420`, as given to `--metrics-url`.
    let endpoint: OperationsEndpoint

    init(baseURL: String) { endpoint = OperationsEndpoint(baseURL) }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// The ids of the user's devices online now.
    func onlineDevices(of userID: String) throws -> Set<String> {
        let id = userID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? userID
        let path = "/v1/users/\(id)/online"
        let body = try endpoint.get(path)
        guard let answer = (try? JSONValue.parse(Array(body.utf8)))?.objectValue,
              let devices = answer["devices"]?.arrayValue?.compactMap(\.stringValue) else {
            throw Failed(description: "\(endpoint.baseURL)\(path) did not answer {\"devices\": […]}")
        }
        return Set(devices)
    }
}
