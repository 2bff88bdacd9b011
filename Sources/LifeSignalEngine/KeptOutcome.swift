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
/// every one younger than 24 hours (§12). Ordered as the stores order them, by time and then by
/// `opId`, so that a prune here forgets exactly the outcomes `StoreChange.pruneKeptOutcomes`
/// deletes there (equal times and a wall clock set back included).
package struct KeptOperations: Sendable {
    package static let keptAtLeast = 1_000
    package static let keptForMs: Int64 = 86_400_000

    private struct Position: Comparable {
        let keptAt: Int64
        let opID: String
        static func < (a: Position, b: Position) -> Bool { (a.keptAt, a.opID) < (b.keptAt, b.opID) }
    }

    private var byID: [String: KeptOperation] = [:]
    /// Oldest first; those before `start` are pruned.
    private var order: [Position] = []
    private var start = 0

    package init(_ operations: [KeptOperation] = []) {
        for operation in operations { keep(operation) }
    }

    package var count: Int { byID.count }

    package subscript(opID: String) -> KeptOperation? { byID[opID] }

    /// A new `opId` (one kept already is answered, never kept again).
    package mutating func keep(_ operation: KeptOperation) {
        guard byID.updateValue(operation, forKey: operation.opID) == nil else { return }
        let position = Position(keptAt: operation.keptAt, opID: operation.opID)
        // Nearly always the newest: an append. Else where it sorts among those not pruned.
        if let last = order.last, position < last {
            var (low, high) = (start, order.count)
            while low < high {
                let middle = (low + high) / 2
                if order[middle] < position { low = middle + 1 } else { high = middle }
            }
            order.insert(position, at: low)
        } else {
            order.append(position)
        }
    }

    /// Forgets what is past both bounds at `now` (not among the newest 1,000, and older than 24
    /// hours): the change that prunes the store alike, if anything went.
    package mutating func prune(of userID: String, now: Int64) -> StoreChange? {
        let keptBefore = now - Self.keptForMs
        var pruned = false
        while byID.count > Self.keptAtLeast, start < order.count, order[start].keptAt < keptBefore {
            byID[order[start].opID] = nil
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
