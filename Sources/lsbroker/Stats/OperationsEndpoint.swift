import AsyncHTTPClient
import LifeSignalUV
import NIOCore

/// A running broker's operations endpoint (`serve --metrics-port`), as the admin commands read it.
struct OperationsEndpoint {
    let baseURL: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A refused connection is an answer: nothing listens there. (The shared client retries
    /// until the request's timeout.)
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    init(_ url: String) {
        baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// GETs `path`; throws unless the broker answers 200 within `timeout`.
    func get(_ path: String, timeout: TimeAmount = .seconds(5)) throws -> String {
        let (status, body) = try send(.get, path, timeout: timeout)
        guard status == 200 else { throw Failure(description: "\(baseURL)\(path) answered \(status): \(body)") }
        return body
    }

    enum Method { case get, delete }

    /// Sends `method` to `path`: the status and the body, whatever the status.
    func send(_ method: Method, _ path: String, timeout: TimeAmount = .seconds(5)) throws -> (status: UInt, body: String) {
        let url = baseURL + path
        return try waitFor {
            var request = HTTPClientRequest(url: url)
            switch method {
            case .get: request.method = .GET
            case .delete: request.method = .DELETE
            }
            do {
                let response = try await Self.client.execute(request, timeout: timeout)
                let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
                return (response.status.code, String(buffer: body))
            } catch {
                throw Failure(description: "cannot read \(url): \(error)")
            }
        }
    }
}
