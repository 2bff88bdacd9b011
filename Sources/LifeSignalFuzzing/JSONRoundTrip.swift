import LifeSignalProtocol

/// parse → serialize → parse gives the same value, and serializing that gives the same bytes.
enum JSONRoundTrip {
    /// The parsed body, or nil if it is not JSON.
    static func check(_ body: [UInt8]) throws(FuzzFailure) -> JSONValue? {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch let error as JSONParseError {
            try expect((0...body.count).contains(error.offset), "parse error offset \(error.offset) outside the body")
            return nil
        } catch {
            throw FuzzFailure("JSONValue.parse threw \(error), not a JSONParseError")
        }
        let text = value.serialized()
        let again: JSONValue
        do {
            again = try JSONValue.parse(text)
        } catch {
            throw FuzzFailure("serialized JSON does not parse (\(error)): \(hex(text))")
        }
        try expect(again == value, "JSON round trip changed the value: \(hex(text))")
        try expect(again.serialized() == text, "serializing twice gave other bytes: \(hex(text))")
        try expect(value.description == String(decoding: text, as: UTF8.self), "description is not the serialization")
        return value
    }
}
