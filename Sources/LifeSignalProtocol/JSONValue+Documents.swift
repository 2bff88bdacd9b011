// Shared decoding step of every document's `init(json:)`.
extension JSONValue {
    /// The object a document is decoded from, or `bad_request` naming the document.
    func documentObject(_ context: String) throws(ProtocolError) -> JSONObject {
        guard case .object(let object) = self else {
            throw .badRequest("'\(context)' must be an object, not \(typeName)")
        }
        return object
    }
}
