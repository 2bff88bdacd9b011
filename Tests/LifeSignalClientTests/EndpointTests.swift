import LifeSignalClient
import Testing

/// `host:port` lists for the brokers of a cluster (PROTOCOL §11).
@Suite struct EndpointTests {
    @Test func oneOrSeveralAddresses() throws {
        #expect(try Endpoint.list(parsing: "127.0.0.1:7420") == [Endpoint(host: "127.0.0.1", port: 7420)])
        #expect(try Endpoint.list(parsing: "a.example:1, [::1]:2 ,:3") == [
            Endpoint(host: "a.example", port: 1), Endpoint(host: "::1", port: 2), Endpoint(host: "127.0.0.1", port: 3),
        ])
        #expect(Endpoint(host: "::1", port: 2).description == "[::1]:2")
    }

    @Test(arguments: ["", "host", "host:", "host:0", "host:65536", "host:x", "[::1]", "[::1]2", "a:1,", ",a:1", "a:1,,b:2",
                      "my host:1"])
    func malformedListsAreRefused(_ text: String) {
        #expect(throws: EndpointError.self) { try Endpoint.list(parsing: text) }
    }
}
