/// A change to an optional field: set it, or clear it (sent as JSON `null`).
///
/// Used where "leave unchanged" (`nil` parameter) and "clear" must differ, like `phone` in
/// `profile.update`.
public enum FieldChange<Value: Sendable>: Sendable {
    case set(Value)
    case clear
}

extension FieldChange: Equatable where Value: Equatable {}
