/// A contact's role in my view, derived from the two flags (PROTOCOL.md §4).
public enum ContactRole: String, Sendable, CaseIterable {
    /// My responder and my dependent.
    case both
    /// Watches over me.
    case responder
    /// I watch over them.
    case dependent
    case none

    public init(isResponder: Bool, isDependent: Bool) {
        switch (isResponder, isDependent) {
        case (true, true): self = .both
        case (true, false): self = .responder
        case (false, true): self = .dependent
        case (false, false): self = .none
        }
    }

    public var isResponder: Bool { self == .both || self == .responder }
    public var isDependent: Bool { self == .both || self == .dependent }
}
