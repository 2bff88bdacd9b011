import AsyncHTTPClient
import Foundation
import LifeSignalBroker
import LifeSignalProtocol

/// Asks a running embedded broker which devices of a user are connected: its HTTP server on
/// `--metrics-port` answers `GET /v1/users/{id}/online` with `{"user":"u_…","devices":["phone",…]}`.
/// The embedded store cannot say; only the process holding the connections can.
struct OnlineDevicesClient {
    /// `http://127.0.0.1:9090`, as given to `--metrics-url`.
    let baseURL: String

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// The ids of the user's devices online now.
    func onlineDevices(of userID: String) throws -> Set<String> {
        let id = userID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? userID
        let url = baseURL.trimmingCharacters(in: ["/"]) + "/v1/users/\(id)/online"
        let body = try waitFor { () async throws -> [UInt8] in
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            guard response.status.code == 200 else {
                throw Failed(description: "\(url) answered \(response.status.code)")
            }
            return Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        }
        guard let answer = (try? JSONValue.parse(body))?.objectValue,
              let devices = answer["devices"]?.arrayValue?.compactMap(\.stringValue) else {
            throw Failed(description: "\(url) did not answer {\"devices\": […]}")
        }
        return Set(devices)
    }
}
