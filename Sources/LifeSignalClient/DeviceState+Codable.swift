import LifeSignalProtocol

// Codable through the JSON form (`DeviceState.json`), so both encodings hold the same fields.
extension DeviceState: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: CodableJSON(from: decoder).value)
    }

    public func encode(to encoder: any Encoder) throws {
        try CodableJSON(json).encode(to: encoder)
    }
}
