/// Why a frame body is not a request, with the rid to answer with when one could be read.
public struct RequestParseError: Error, Sendable, Equatable {
    public let error: ProtocolError
    public let rid: Int64?

    public init(error: ProtocolError, rid: Int64?) {
        self.error = error
        self.rid = rid
    }
}
