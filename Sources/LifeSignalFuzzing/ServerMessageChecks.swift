import LifeSignalProtocol

/// `ServerMessage.parse`, what a client does with each broker frame: documented errors only, and a
/// snapshot's documents (User, Contact, Notification) survive their own JSON.
enum ServerMessageChecks {
    static func check(_ body: [UInt8], parsed: JSONValue?, _ stats: inout FuzzStats) throws(FuzzFailure) {
        let message: ServerMessage
        do {
            message = try ServerMessage.parse(body)
        } catch {
            let expected: Set<ProtocolError.Code> =
                parsed?.objectValue == nil ? [.badJSON] : [.badRequest, .unknownOp]
            try expect(expected.contains(error.code), "ServerMessage.parse threw \(error)")
            return
        }
        stats.serverMessages += 1
        try expect(parsed?.objectValue != nil, "ServerMessage.parse accepted a non-object")
        if case .snapshot(let snapshot) = message {
            let again: Snapshot
            do {
                again = try Snapshot(json: snapshot.json)
            } catch {
                throw FuzzFailure("a snapshot's own JSON is refused: \(error)")
            }
            try expect(again == snapshot, "a snapshot's own JSON reads back as another snapshot")
        }
    }
}
