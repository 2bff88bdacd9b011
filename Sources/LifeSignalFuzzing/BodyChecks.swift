import LifeSignalProtocol

/// Checks on one frame body: the JSON round trip, then the body read as a request and as a broker frame.
enum BodyChecks {
    static func check(_ body: [UInt8], _ stats: inout FuzzStats) throws(FuzzFailure) {
        let value = try JSONRoundTrip.check(body)
        if value != nil { stats.jsonValues += 1 }
        try RequestChecks.check(body, parsed: value, &stats)
        try ServerMessageChecks.check(body, parsed: value, &stats)
    }
}
