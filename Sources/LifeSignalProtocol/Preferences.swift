/// `User.preferences` (PROTOCOL.md §4, §7): whether to push, and which notification types not to push.
public struct Preferences: Sendable, Hashable, JSONFields {
    public var push: Bool
    public var mutedTypes: [NotificationType]

    /// Defaults: push on, nothing muted.
    public init(push: Bool = true, mutedTypes: [NotificationType] = []) {
        self.push = push
        self.mutedTypes = mutedTypes
    }

    /// Whether a notification of this type should be pushed to offline devices.
    public func allowsPush(of type: NotificationType) -> Bool {
        push && !mutedTypes.contains(type)
    }

    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("push", push)
        writer.field("mutedTypes", strings: mutedTypes.map(\.rawValue))
    }

    public init(json: JSONValue) throws(ProtocolError) {
        try self.init(json: json, context: "preferences")
    }

    init(json: JSONValue, context: String) throws(ProtocolError) {
        let object = try json.documentObject(context)
        push = try object.bool("push", in: context)
        mutedTypes = try Self.mutedTypes(object.array("mutedTypes", in: context), context)
    }

    /// These preferences with the fields present in `json` replaced: `profile.update`'s `preferences`
    /// may carry only the fields it changes. Duplicate muted types are dropped.
    public func merging(_ json: JSONValue) throws(ProtocolError) -> Preferences {
        let context = "preferences"
        let object = try json.documentObject(context)
        var result = self
        if let push = try object.optional("push", in: context, "a boolean", { $0.boolValue }) {
            result.push = push
        }
        if let muted = try object.optional("mutedTypes", in: context, "an array", { $0.arrayValue }) {
            result.mutedTypes = try Self.mutedTypes(muted, context)
        }
        return result
    }

    private static func mutedTypes(_ values: [JSONValue], _ context: String) throws(ProtocolError)
        -> [NotificationType]
    {
        var types: [NotificationType] = []
        for value in values {
            guard let raw = value.stringValue, let type = NotificationType(rawValue: raw) else {
                throw .badRequest("field '\(context).mutedTypes' holds an unknown notification type: \(value)")
            }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }
}
