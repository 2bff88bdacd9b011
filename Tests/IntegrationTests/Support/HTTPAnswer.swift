import Foundation
import LifeSignalUV
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain HTTP GET's answer, for the broker's operations endpoint and the fakes tests run.
struct HTTPAnswer {
    let status: Int
    let body: String
    let contentType: String?

    struct NoEndpoint: Error {}
    struct NoAnswer: Error { let url: String; let error: (any Error)? }

    static func get(_ url: String, timeout: TimeInterval = 10) throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = timeout
        let answer = Locked<Result<HTTPAnswer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                answer.withLock { $0 = .success(HTTPAnswer(
                    status: response.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self),
                    contentType: response.value(forHTTPHeaderField: "Content-Type"))) }
            } else {
                answer.withLock { $0 = .failure(NoAnswer(url: url, error: error)) }
            }
            done.signal()
        }.resume()
        done.wait()
        return try answer.withLock { $0! }.get()
    }
}
