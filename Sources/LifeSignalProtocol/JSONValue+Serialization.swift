extension JSONValue {
    /// Compact JSON (no whitespace), object keys in `JSONObject` order.
    public func serialized() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        write(into: &buffer)
        return buffer
    }

    /// Appends compact JSON to `buffer`; the broker writes frames straight into a connection's output.
    ///
    /// Non-finite doubles, which JSON cannot express, are written as `null`.
    public func write(into buffer: inout [UInt8]) {
        switch self {
        case .null:
            buffer.append(contentsOf: "null".utf8)
        case .bool(let value):
            buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .int(let value):
            Self.writeInt(value, into: &buffer)
        case .double(let value):
            Self.writeDouble(value, into: &buffer)
        case .string(let value):
            Self.writeString(value, into: &buffer)
        case .array(let elements):
            buffer.append(Byte.openBracket)
            for (offset, element) in elements.enumerated() {
                if offset > 0 { buffer.append(Byte.comma) }
                element.write(into: &buffer)
            }
            buffer.append(Byte.closeBracket)
        case .object(let object):
            Self.writeObject(object, into: &buffer)
        }
    }

    static func writeObject(_ object: JSONObject, into buffer: inout [UInt8]) {
        buffer.append(Byte.openBrace)
        var first = true
        for (key, value) in object {
            if !first { buffer.append(Byte.comma) }
            first = false
            writeString(key, into: &buffer)
            buffer.append(Byte.colon)
            value.write(into: &buffer)
        }
        buffer.append(Byte.closeBrace)
    }

    static func writeInt(_ value: Int64, into buffer: inout [UInt8]) {
        if value < 0 { buffer.append(Byte.minus) }
        var magnitude = value.magnitude
        // Up to 19 digits, written backwards into a stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = Byte.zero + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }

    static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(contentsOf: "null".utf8)
            return
        }
        // Swift prints the shortest text that parses back to the same Double ("0.1", "1.0", "1e+20"),
        // and every such text is a valid JSON number; the ".0" keeps integral doubles doubles.
        buffer.append(contentsOf: value.description.utf8)
    }

    /// Writes a quoted string, escaping `"`, `\` and control characters (as `\u00XX`).
    static func writeString(_ value: String, into buffer: inout [UInt8]) {
        buffer.append(Byte.quote)
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == Byte.quote || byte == Byte.backslash else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                buffer.append(Byte.backslash)
                if byte < 0x20 {
                    buffer.append(contentsOf: "u00".utf8)
                    buffer.append(hexDigits[Int(byte >> 4)])
                    buffer.append(hexDigits[Int(byte & 0x0F)])
                } else {
                    buffer.append(byte)
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        buffer.append(Byte.quote)
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
