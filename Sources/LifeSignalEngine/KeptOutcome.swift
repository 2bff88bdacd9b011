import LifeSignalProtocol

/// PROTOCOL §12: what a request with an `opId` came to, kept with its effects so that the same
/// `opId` sent again is answered from it and acts no more.
public struct KeptOutcome: Sendable, Equatable {
    /// The answer without its rid.
    public enum Answer: Sendable, Equatable {
        case ok(JSONObject)
        case refused(ProtocolError)
    }

    public var opID: String
    public var op: String
    public var answer: Answer
    public var keptAt: Int64

    public init(opID: String, op: String, answer: Answer, keptAt: Int64) {
        self.opID = opID
        self.op = op
        self.answer = answer
        self.keptAt = keptAt
    }

    /// How a store holds the answer: `{"ok":{…}}` or `{"error":{"code":…,"message":…}}`.
    public var storedAnswer: [UInt8] {
        switch answer {
        case .ok(let fields): JSONValue.object(["ok": .object(fields)]).serialized()
        case .refused(let error):
            JSONValue.object(["error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)])])
                .serialized()
        }
    }

    /// The answer a store held; nil for bytes no broker wrote.
    public static func answer(stored bytes: [UInt8]) -> Answer? {
        guard let object = (try? JSONValue.parse(bytes))?.objectValue else { return nil }
        if let fields = object["ok"]?.objectValue { return .ok(fields) }
        guard let error = object["error"]?.objectValue, let code = error["code"]?.stringValue,
              let message = error["message"]?.stringValue
        else { return nil }
        return .refused(ProtocolError(ProtocolError.Code(rawValue: code), message))
    }
}

extension KeptOutcome {
    /// What the embedded broker remembers of it in memory; the answer stays in the store.
    public var operation: KeptOperation { KeptOperation(opID: opID, op: op, keptAt: keptAt) }
}

/// A kept outcome without its answer: enough to decide what a request with that `opId` gets.
public struct KeptOperation: Sendable, Equatable {
    public var opID: String
    public var op: String
    public var keptAt: Int64

    public init(opID: String, op: String, keptAt: Int64) {
        self.opID = opID
        self.op = op
        self.keptAt = keptAt
    }
}

/// What to do with a request that carries an `opId`, given what is kept under it.
package enum OperationDecision: Sendable, Equatable {
    /// Nothing is kept: run it, and keep what it comes to.
    case run
    /// Answer what was kept, under the new rid; nothing runs, no event, notification or push.
    case answerKept
    /// The `opId` was used for another op.
    case refuse(ProtocolError)

    package static func of(op: String, opID: String, kept: KeptOperation?) -> OperationDecision {
        guard let kept else { return .run }
        guard kept.op == op else {
            return .refuse(ProtocolError(.badRequest, "opId '\(opID)' was used for \(kept.op)"))
        }
        return .answerKept
    }
}

/// A user's kept operations, as the embedded broker holds them in memory: the newest 1,000, and
/// every one younger than 24 hours (§12), the oldest pruned first, as the stores prune them
/// (`StoreChange.pruneKeptOutcomes`).
package struct KeptOperations: Sendable {
    package static let keptAtLeast = 1_000
    package static let keptForMs: Int64 = 86_400_000

    private var byID: [String: KeptOperation] = [:]
    /// Oldest first; `start` is the first not yet pruned.
    private var order: [String] = []
    private var start = 0

    /// `operations` oldest first, as the stores list them.
    package init(_ operations: [KeptOperation] = []) {
        for operation in operations { keep(operation) }
    }

    package var count: Int { byID.count }

    package subscript(opID: String) -> KeptOperation? { byID[opID] }

    package mutating func keep(_ operation: KeptOperation) {
        if byID.updateValue(operation, forKey: operation.opID) == nil { order.append(operation.opID) }
    }

    /// Forgets what is past both bounds at `now`: the change that prunes the store alike, if
    /// anything went.
    package mutating func prune(of userID: String, now: Int64) -> StoreChange? {
        let keptBefore = now - Self.keptForMs
        var pruned = false
        while byID.count > Self.keptAtLeast, start < order.count, let oldest = byID[order[start]],
              oldest.keptAt < keptBefore {
            byID[order[start]] = nil
            start += 1
            pruned = true
        }
        if start > 1_024 && start * 2 > order.count {
            order.removeFirst(start)
            start = 0
        }
        return pruned ? .pruneKeptOutcomes(userID: userID, keepNewest: Self.keptAtLeast, keptBefore: keptBefore) : nil
    }
}
