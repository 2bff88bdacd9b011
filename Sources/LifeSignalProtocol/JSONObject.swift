/// A JSON object: ordered key/value pairs with unique keys.
///
/// Insertion order is kept so output is predictable (field order as in PROTOCOL.md §4). Lookups are
/// linear: protocol objects have a handful of keys, where a scan beats hashing.
/// Equality ignores order, as JSON does.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    public typealias Element = (key: String, value: JSONValue)

    private(set) var pairs: [Element]

    public init() {
        pairs = []
    }

    /// Later duplicates replace earlier ones, in the earlier one's position.
    public init(_ pairs: [(String, JSONValue)]) {
        self.pairs = []
        self.pairs.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// Keys must already be unique (the parser checks); skips the per-key scan.
    init(uniquePairs: [Element]) {
        pairs = uniquePairs
    }

    /// Setting a value replaces the key's value in place or appends it; setting `nil` removes the key
    /// (use `.null` to store a JSON null).
    public subscript(key: String) -> JSONValue? {
        get {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
        set {
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    pairs[index].value = newValue
                } else {
                    pairs.remove(at: index)
                }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }

    public var keys: [String] { pairs.map(\.key) }
    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> {
        pairs.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.pairs.count == rhs.pairs.count else { return false }
        // Fast path: same order, which is the usual case.
        var sameOrder = true
        for (left, right) in zip(lhs.pairs, rhs.pairs) {
            if left.key != right.key {
                sameOrder = false
                break
            }
            if left.value != right.value { return false }
        }
        if sameOrder { return true }
        // Keys are unique, so equal counts plus every left pair found on the right means equal.
        for pair in lhs.pairs where rhs[pair.key] != pair.value { return false }
        return true
    }
}
