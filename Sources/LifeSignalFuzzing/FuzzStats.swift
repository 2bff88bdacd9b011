/// What a fuzz run reached, so a test can tell a run that exercised the parsers from one that
/// only ever hit the first framing error.
public struct FuzzStats: Sendable, Equatable {
    public var inputs = 0
    public var frames = 0
    public var framingErrors = 0
    public var jsonValues = 0
    public var requests = 0
    /// Requests that passed every field rule of their op.
    public var validRequests = 0
    public var serverMessages = 0

    public init() {}

    public static func += (lhs: inout FuzzStats, rhs: FuzzStats) {
        lhs.inputs += rhs.inputs
        lhs.frames += rhs.frames
        lhs.framingErrors += rhs.framingErrors
        lhs.jsonValues += rhs.jsonValues
        lhs.requests += rhs.requests
        lhs.validRequests += rhs.validRequests
        lhs.serverMessages += rhs.serverMessages
    }
}
