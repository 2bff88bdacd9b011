/// Strict recursive-descent JSON parser over UTF-8 bytes (RFC 8259).
///
/// It reads the caller's bytes in place and copies only string contents into the result.
struct JSONParser {
    /// Protocol documents nest four or five levels; the bound keeps recursion far from the stack's end.
    /// Parsing, comparing, serializing and freeing a value each recurse once per level: in a debug
    /// build 256 levels took over 512 KiB of stack (macOS's default for secondary threads) and
    /// crashed; 64 fit in it with room to spare (NestingTests).
    static let maxDepth = 64
    /// Objects up to this many keys check duplicates by scanning; bigger ones use a set.
    private static let linearDuplicateCheckLimit = 16

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    /// Unescaped string contents; reused so that escapes cost one buffer per parse, not per string.
    private var scratch: [UInt8] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case Byte.openBrace: return .object(try parseObject())
        case Byte.openBracket: return .array(try parseArray())
        case Byte.quote: return .string(try parseString())
        case Byte.t:
            try expectLiteral("true")
            return .bool(true)
        case Byte.f:
            try expectLiteral("false")
            return .bool(false)
        case Byte.n:
            try expectLiteral("null")
            return .null
        case Byte.minus, Byte.zero...Byte.nine:
            return try parseNumber()
        default:
            throw failure("unexpected character")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try enterContainer()
        index += 1  // {
        skipWhitespace()
        var pairs: [JSONObject.Element] = []
        var seen: Set<String>?
        if try peek() == Byte.closeBrace {
            index += 1
            depth -= 1
            return JSONObject(uniquePairs: pairs)
        }
        // Protocol objects have a handful of keys: one allocation instead of growing 1, 2, 4, 8.
        pairs.reserveCapacity(8)
        while true {
            guard try peek() == Byte.quote else { throw failure("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard try peek() == Byte.colon else { throw failure("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()

            // RFC 8259 leaves duplicate keys undefined; rejecting them means no two readers can disagree.
            if var keys = seen {
                seen = nil  // keeps the set uniquely referenced while it is mutated
                let inserted = keys.insert(key).inserted
                seen = keys
                guard inserted else { throw JSONParseError(offset: keyOffset, message: "duplicate key") }
            } else {
                for pair in pairs where pair.key == key {
                    throw JSONParseError(offset: keyOffset, message: "duplicate key")
                }
                if pairs.count == Self.linearDuplicateCheckLimit {
                    seen = Set(pairs.map(\.key) + [key])
                }
            }
            pairs.append((key, value))

            skipWhitespace()
            switch try peek() {
            case Byte.comma:
                index += 1
                skipWhitespace()
            case Byte.closeBrace:
                index += 1
                depth -= 1
                return JSONObject(uniquePairs: pairs)
            default:
                throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        try enterContainer()
        index += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if try peek() == Byte.closeBracket {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch try peek() {
            case Byte.comma:
                index += 1
                skipWhitespace()
            case Byte.closeBracket:
                index += 1
                depth -= 1
                return elements
            default:
                throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("invalid literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == Byte.minus
        if negative { index += 1 }

        // Integer part: "0" or a non-zero digit then digits. The magnitude is kept while it fits.
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[index] == Byte.zero {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw failure("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let digit = UInt64(bytes[index] &- Byte.zero)
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                overflow = overflow || o1 || o2
                magnitude = sum
                index += 1
            }
        }

        var isInteger = true
        if index < bytes.count, bytes[index] == Byte.dot {
            isInteger = false
            index += 1
            try skipDigits()
        }
        if index < bytes.count, bytes[index] == Byte.e || bytes[index] == Byte.upperE {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
            try skipDigits()
        }

        if isInteger, !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        // The grammar is checked above, so Double's own parser (strtod) sees only valid text.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(offset: start, message: "number out of range")
        }
        return .double(value)
    }

    /// One or more digits.
    private mutating func skipDigits() throws(JSONParseError) {
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= Byte.zero && byte <= Byte.nine
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // "
        let start = index
        // Fast path: no escapes, so the result is the bytes between the quotes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return value
            }
            if byte == Byte.backslash { break }
            if byte < 0x20 { throw failure("unescaped control character in a string") }
            if byte < 0x80 {
                index += 1
            } else {
                index += try utf8SequenceLength(at: index)
            }
        }
        guard index < bytes.count else { throw failure("unterminated string") }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == Byte.backslash {
                try appendEscape()
            } else if byte < 0x20 {
                throw failure("unescaped control character in a string")
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let length = try utf8SequenceLength(at: index)
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]))
                index += length
            }
        }
        throw failure("unterminated string")
    }

    /// Decodes the escape at `index` (a backslash) into `scratch`.
    private mutating func appendEscape() throws(JSONParseError) {
        let escapeOffset = index
        index += 1
        guard index < bytes.count else { throw failure("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case Byte.quote, Byte.backslash, Byte.slash: scratch.append(byte)
        case Byte.b: scratch.append(0x08)
        case Byte.f: scratch.append(0x0C)
        case Byte.n: scratch.append(0x0A)
        case Byte.r: scratch.append(0x0D)
        case Byte.t: scratch.append(0x09)
        case Byte.u:
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate is valid only as the first half of a \uXXXX\uXXXX pair.
                guard bytes.count - index >= 6, bytes[index] == Byte.backslash, bytes[index + 1] == Byte.u else {
                    throw JSONParseError(offset: escapeOffset, message: "unpaired surrogate escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(offset: escapeOffset, message: "unpaired surrogate escape")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONParseError(offset: escapeOffset, message: "unpaired surrogate escape")
            }
            // Surrogates were excluded above, so this always succeeds.
            guard let unicodeScalar = Unicode.Scalar(scalar) else {
                throw JSONParseError(offset: escapeOffset, message: "invalid escape")
            }
            if let encoded = UTF8.encode(unicodeScalar) { scratch.append(contentsOf: encoded) }
        default:
            throw JSONParseError(offset: escapeOffset, message: "invalid escape")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Length of the well-formed UTF-8 sequence at `offset` (Unicode 15, table 3-7): rejects overlong
    /// forms, encoded surrogates and code points above U+10FFFF.
    private func utf8SequenceLength(at offset: Int) throws(JSONParseError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw JSONParseError(offset: offset, message: "invalid UTF-8")
        }
        guard bytes.count - offset >= length, secondRange.contains(bytes[offset + 1]) else {
            throw JSONParseError(offset: offset, message: "invalid UTF-8")
        }
        for continuation in 2..<length where bytes[offset + continuation] & 0xC0 != 0x80 {
            throw JSONParseError(offset: offset, message: "invalid UTF-8")
        }
        return length
    }

    // MARK: - Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn: index += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        return bytes[index]
    }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(offset: index, message: message)
    }
}
