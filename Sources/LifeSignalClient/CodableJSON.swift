import LifeSignalProtocol

/// A `JSONValue` carried through `Codable`, so documents kept as JSON can ride any encoder an app
/// already uses. Object key order is not preserved; the documents read fields by name.
struct CodableJSON: Codable {
    var value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            value = .int(int)
        } else if let double = try? container.decode(Double.self) {
            value = .double(double)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([CodableJSON].self) {
            value = .array(array.map(\.value))
        } else {
            let object = try container.decode([String: CodableJSON].self)
            value = .object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) }))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .int(let int): try container.encode(int)
        case .double(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array.map(CodableJSON.init))
        case .object(let object):
            var dictionary: [String: CodableJSON] = [:]
            for (key, value) in object { dictionary[key] = CodableJSON(value) }
            try container.encode(dictionary)
        }
    }
}
