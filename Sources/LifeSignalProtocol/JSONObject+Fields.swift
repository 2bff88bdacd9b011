// Typed field access. A missing required field or a field of the wrong type is `bad_request`
// (PROTOCOL.md §2) with a message naming the field; optional fields treat null like absence.
extension JSONObject {
    public func string(_ key: String) throws(ProtocolError) -> String {
        try required(key, in: "", "a string") { $0.stringValue }
    }

    public func optionalString(_ key: String) throws(ProtocolError) -> String? {
        try optional(key, in: "", "a string") { $0.stringValue }
    }

    public func bool(_ key: String) throws(ProtocolError) -> Bool {
        try required(key, in: "", "a boolean") { $0.boolValue }
    }

    public func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        try optional(key, in: "", "a boolean") { $0.boolValue }
    }

    public func int(_ key: String) throws(ProtocolError) -> Int64 {
        try required(key, in: "", "an integer") { $0.intValue }
    }

    public func optionalInt(_ key: String) throws(ProtocolError) -> Int64? {
        try optional(key, in: "", "an integer") { $0.intValue }
    }

    public func object(_ key: String) throws(ProtocolError) -> JSONObject {
        try required(key, in: "", "an object") { $0.objectValue }
    }

    public func optionalObject(_ key: String) throws(ProtocolError) -> JSONObject? {
        try optional(key, in: "", "an object") { $0.objectValue }
    }

    public func array(_ key: String) throws(ProtocolError) -> [JSONValue] {
        try required(key, in: "", "an array") { $0.arrayValue }
    }

    /// Present, even if null.
    public func has(_ key: String) -> Bool {
        self[key] != nil
    }

    // MARK: - With a context, for nested documents ("user.preferences.push")

    func string(_ key: String, in context: String) throws(ProtocolError) -> String {
        try required(key, in: context, "a string") { $0.stringValue }
    }

    func optionalString(_ key: String, in context: String) throws(ProtocolError) -> String? {
        try optional(key, in: context, "a string") { $0.stringValue }
    }

    func bool(_ key: String, in context: String) throws(ProtocolError) -> Bool {
        try required(key, in: context, "a boolean") { $0.boolValue }
    }

    func optionalBool(_ key: String, in context: String) throws(ProtocolError) -> Bool? {
        try optional(key, in: context, "a boolean") { $0.boolValue }
    }

    func int(_ key: String, in context: String) throws(ProtocolError) -> Int64 {
        try required(key, in: context, "an integer") { $0.intValue }
    }

    func optionalInt(_ key: String, in context: String) throws(ProtocolError) -> Int64? {
        try optional(key, in: context, "an integer") { $0.intValue }
    }

    func array(_ key: String, in context: String) throws(ProtocolError) -> [JSONValue] {
        try required(key, in: context, "an array") { $0.arrayValue }
    }

    /// A string field holding one of an enum's raw values.
    func enumValue<E: RawRepresentable>(_ key: String, in context: String) throws(ProtocolError) -> E
    where E.RawValue == String {
        let raw = try string(key, in: context)
        guard let value = E(rawValue: raw) else {
            throw .badRequest("field '\(Self.path(key, context))' has an unknown value '\(raw)'")
        }
        return value
    }

    func required<T>(
        _ key: String, in context: String, _ expected: String, _ extract: (JSONValue) -> T?
    ) throws(ProtocolError) -> T {
        guard let value = self[key] else { throw .badRequest("missing field '\(Self.path(key, context))'") }
        guard let typed = extract(value) else { throw Self.typeError(key, context, expected, value) }
        return typed
    }

    func optional<T>(
        _ key: String, in context: String, _ expected: String, _ extract: (JSONValue) -> T?
    ) throws(ProtocolError) -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let typed = extract(value) else { throw Self.typeError(key, context, expected, value) }
        return typed
    }

    static func path(_ key: String, _ context: String) -> String {
        context.isEmpty ? key : "\(context).\(key)"
    }

    private static func typeError(_ key: String, _ context: String, _ expected: String, _ value: JSONValue)
        -> ProtocolError
    {
        .badRequest("field '\(path(key, context))' must be \(expected), not \(value.typeName)")
    }
}
