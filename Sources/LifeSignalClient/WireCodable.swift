import LifeSignalProtocol

/// A document that is `Codable` through its JSON form (`json`, `init(json:)`), so that every
/// encoder an app uses keeps the same fields the broker sent, under the broker's names.
public protocol WireCodable: Codable {
    var json: JSONValue { get }
    init(json: JSONValue) throws(ProtocolError)
}

extension WireCodable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: CodableJSON(from: decoder).value)
    }

    public func encode(to encoder: any Encoder) throws {
        try CodableJSON(json).encode(to: encoder)
    }
}

extension DeviceState: WireCodable {}
