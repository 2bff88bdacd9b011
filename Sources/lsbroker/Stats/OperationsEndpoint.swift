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
        let url = baseURL + path
        return try waitFor {
            let response: HTTPClientResponse
            let body: ByteBuffer
            do {
                response = try await Self.client.execute(HTTPClientRequest(url: url), timeout: timeout)
                body = try await response.body.collect(upTo: 64 * 1024 * 1024)
            } catch {
                throw Failure(description: "cannot read \(url): \(error)")
            }
            guard response.status == .ok else {
                throw Failure(description: "\(url) answered \(response.status.code): \(String(buffer: body))")
            }
            return String(buffer: body)
        }
    }
}
