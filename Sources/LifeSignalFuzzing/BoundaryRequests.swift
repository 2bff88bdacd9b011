import LifeSignalProtocol

/// A request whose one string sits near a §10 bound.
public struct BoundaryRequest: Sendable {
    public let op: String
    public let field: String
    public let rule: SpecStringRule
    public let value: String
    /// Whether §10 allows `value` here; the harness checks that `Validate` agrees.
    public let allowed: Bool
    public let frame: [UInt8]
}

/// Requests with one string just under, at or just over a §10 bound, in characters or in bytes.
/// Multi-byte characters and combining marks pull the two measures apart ("a" and 199 accents is
/// one character of 399 bytes), which is where a rule counting only one of them goes wrong. The
/// seeded run mixes these in among its mutations; the seed corpus holds one at and one just over
/// each bound, so libFuzzer starts from them too.
public enum BoundaryRequests {
    enum Measure { case characters, bytes }

    /// A random target, its string 2 below to 2 above one of its bounds (now and then the lower one).
    public static func random(_ random: inout SplitMix64) -> BoundaryRequest {
        let target = random.element(of: BoundaryTarget.all)
        let measure: Measure = target.rule.maxCharacters != nil && random.chance(1, in: 2) ? .characters : .bytes
        let upper = measure == .bytes ? target.rule.maxBytes : target.rule.maxCharacters ?? target.rule.maxBytes
        let bound = random.chance(1, in: 8) ? 0 : upper
        return request(target, string(target, measure, size: max(0, bound + random.below(5) - 2), &random))
    }

    /// For each target and bound: a string at the bound and one just over it, with nothing to trim
    /// and nothing the rule refuses, so that the bound alone decides.
    public static var atEachBound: [BoundaryRequest] {
        var random = SplitMix64(seed: 0xB0B5)
        return BoundaryTarget.all.flatMap { target in
            var requests: [BoundaryRequest] = []
            if let maxCharacters = target.rule.maxCharacters {
                for size in [maxCharacters, maxCharacters + 1] {
                    requests.append(request(target, string(target, .characters, size: size, plain: true, &random)))
                }
            }
            for size in [target.rule.maxBytes, target.rule.maxBytes + 1] {
                requests.append(request(target, string(target, .bytes, size: size, plain: true, &random)))
            }
            return requests
        }
    }

    static func request(_ target: BoundaryTarget, _ value: String) -> BoundaryRequest {
        var fields = target.rest
        fields["op"] = .string(target.op)
        fields[target.field] = .string(value)
        return BoundaryRequest(
            op: target.op, field: target.field, rule: target.rule, value: value, allowed: target.rule.allows(value),
            frame: FrameEncoder.frame(.object(fields)))
    }

    /// Exactly `size` characters or bytes of the target's pieces. Unless `plain`, it may hold
    /// whitespace, and one time in eight characters the rule refuses.
    static func string(_ target: BoundaryTarget, _ measure: Measure, size: Int, plain: Bool = false,
                       _ random: inout SplitMix64) -> String
    {
        let pieces = plain ? target.piecesWithoutWhitespace : target.pieces
        let foreign = !plain && random.chance(1, in: 8) ? target.foreign : []
        var result = ""
        var measured = 0
        while measured < size {
            let piece = !foreign.isEmpty && random.chance(1, in: 16)
                ? random.element(of: foreign) : random.element(of: pieces)
            let cost = measure == .bytes ? piece.utf8.count : 1
            if measured + cost > size { break }
            result += piece
            measured += cost
        }
        // Whatever is left is less than one piece: single ASCII bytes, or in bytes where any
        // Unicode is allowed, combining marks now and then (bytes that add no character).
        var left = size - measured
        if measure == .bytes, target.rule == .name || target.rule == .message, random.chance(1, in: 2) {
            result += String(repeating: BoundaryTarget.combiningMark, count: left / 2)
            left %= 2
        }
        return result + String(repeating: target.pieces[0], count: left)
    }
}
