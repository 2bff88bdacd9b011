import LifeSignalProtocol

// The persisted form: the snapshot's shape plus a format version, so a saved state reads back
// through the same document parsers the wire uses.
extension DeviceState {
    static let formatVersion: Int64 = 1

    public var json: JSONValue {
        [
            "format": .int(Self.formatVersion),
            "lastSeq": .int(lastSeq),
            "user": user.json,
            "contacts": .array(sortedContacts.map(\.json)),
            "notifications": .array(notifications.map(\.json)),
            "unreadCount": .int(Int64(unreadCount)),
        ]
    }

    public init(json: JSONValue) throws(ProtocolError) {
        guard case .object(let object) = json else { throw .badRequest("device state must be an object") }
        let format = try object.int("format")
        guard format == Self.formatVersion else { throw .badRequest("unknown device state format \(format)") }
        var snapshot = object
        snapshot["seq"] = .int(try object.int("lastSeq"))
        self.init(snapshot: try Snapshot(json: .object(snapshot)))
    }

    /// Compact JSON bytes, e.g. to write to a file.
    public func serialized() -> [UInt8] {
        json.serialized()
    }

    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .badJSON("device state is not valid JSON: \(error)")
        }
        try self.init(json: value)
    }
}
