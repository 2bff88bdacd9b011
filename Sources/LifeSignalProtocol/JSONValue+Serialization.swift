extension JSONValue {
    /// Compact JSON (no whitespace), object keys in `JSONObject` order.
    public func serialized() -> [UInt8] {
        ByteSink.collect { write(to: &$0) }
    }

    /// Appends compact JSON to `buffer`; the broker writes frames straight into a connection's output.
    ///
    /// Non-finite doubles, which JSON cannot express, are written as `null`.
    public func write(into buffer: inout [UInt8]) {
        write(to: &buffer)
    }

    func write<Output: JSONOutput>(to output: inout Output) {
        switch self {
        case .null:
            output.write("null")
        case .bool(let value):
            output.write(value ? "true" : "false")
        case .int(let value):
            Self.writeInt(value, into: &output)
        case .double(let value):
            Self.writeDouble(value, into: &output)
        case .string(let value):
            Self.writeString(value, into: &output)
        case .array(let elements):
            output.write(Byte.openBracket)
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.write(Byte.comma) }
                element.write(to: &output)
            }
            output.write(Byte.closeBracket)
        case .object(let object):
            Self.writeObject(object, into: &output)
        }
    }

    static func writeObject<Output: JSONOutput>(_ object: JSONObject, into output: inout Output) {
        output.write(Byte.openBrace)
        var first = true
        for (key, value) in object {
            if !first { output.write(Byte.comma) }
            first = false
            writeString(key, into: &output)
            output.write(Byte.colon)
            value.write(to: &output)
        }
        output.write(Byte.closeBrace)
    }

    static func writeInt<Output: JSONOutput>(_ value: Int64, into output: inout Output) {
        if value < 0 { output.write(Byte.minus) }
        var magnitude = value.magnitude
        // Up to 19 digits, written backwards into a stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = Byte.zero + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.write(UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }

    static func writeDouble<Output: JSONOutput>(_ value: Double, into output: inout Output) {
        guard value.isFinite else {
            output.write("null")
            return
        }
        // Swift prints the shortest text that parses back to the same Double ("0.1", "1.0", "1e+20"),
        // and every such text is a valid JSON number; the ".0" keeps integral doubles doubles.
        var text = value.description
        text.withUTF8 { output.write($0) }
    }

    /// Writes a quoted string, escaping `"`, `\` and control characters (as `\u00XX`). The runs
    /// between escapes, usually the whole string, are found eight bytes at a time and copied at once.
    static func writeString<Output: JSONOutput>(_ value: String, into output: inout Output) {
        output.write(Byte.quote)
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            while true {
                let escaped = firstToEscape(in: utf8, from: runStart)
                output.write(UnsafeBufferPointer(rebasing: utf8[runStart..<escaped]))
                guard escaped < utf8.count else { break }
                let byte = utf8[escaped]
                output.write(Byte.backslash)
                if byte < 0x20 {
                    output.write("u00")
                    output.write(hexDigits[Int(byte >> 4)])
                    output.write(hexDigits[Int(byte & 0x0F)])
                } else {
                    output.write(byte)
                }
                runStart = escaped + 1
            }
        }
        output.write(Byte.quote)
    }

    /// The index of the first byte at or after `start` that JSON must escape, or `utf8.count`.
    @inline(__always)
    private static func firstToEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = utf8.baseAddress {
            let bytes = UnsafeRawPointer(base)
            while utf8.count - index >= 8,
                  !mayNeedEscape(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        // Past the whole words: the word that holds the escape, or the last few bytes.
        while index < utf8.count, !needsEscape(utf8[index]) { index += 1 }
        return index
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == Byte.quote || byte == Byte.backslash
    }

    /// Whether any of the word's eight bytes is below 0x20, a quote or a backslash. Exact, never
    /// a false alarm: a byte below `n` leaves its high bit set in `word - n` and clear in `word`
    /// (for `n` ≤ 0x80), and one equal to `c` is a zero byte of `word ^ c`.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ limit: UInt8, _ word: UInt64) -> Bool {
            (word &- ones &* UInt64(limit)) & ~word & highBits != 0
        }
        return hasByteBelow(0x20, word) || hasByteBelow(1, word ^ (ones &* UInt64(Byte.quote)))
            || hasByteBelow(1, word ^ (ones &* UInt64(Byte.backslash)))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON, as sent on the wire.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { JSONValue.object(self).description }
}
