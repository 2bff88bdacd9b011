/// A document that names its fields once, in PROTOCOL.md §4's order, for both ways out: a
/// `JSONValue` tree (`json`) and bytes appended straight to a frame (`write(into:)`), with no
/// tree in between. The broker writes every ping's, check-in's and notification's events so.
public protocol JSONFields {
    func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer)
}

/// Takes a document's fields in order. A nil optional is written as `null`. Keys are the
/// documents' own literals, plain ASCII that needs no escaping, copied as they are.
public protocol JSONFieldWriter {
    mutating func field(_ key: StaticString, _ value: String?)
    mutating func field(_ key: StaticString, _ value: Int64?)
    mutating func field(_ key: StaticString, _ value: Bool)
    mutating func field(_ key: StaticString, strings: [String])
    mutating func field<Document: JSONFields>(_ key: StaticString, _ value: Document?)
    mutating func field<Document: JSONFields>(_ key: StaticString, documents: [Document])
    /// A field of an object built at run time: its key is escaped like any string.
    mutating func field(named key: String, _ value: JSONValue)
}

extension JSONFields {
    public var json: JSONValue {
        var tree = JSONTreeWriter()
        writeFields(to: &tree)
        return .object(JSONObject(uniquePairs: tree.pairs))
    }

    /// Compact JSON, byte for byte what `json.serialized()` gives.
    public func serialized() -> [UInt8] {
        ByteSink.collect { write(to: &$0) }
    }

    /// Appends the document as compact JSON, byte for byte what `json.write(into:)` appends.
    public func write(into buffer: inout [UInt8]) {
        write(to: &buffer)
    }

    func write<Output: JSONOutput>(to output: inout Output) {
        withUnsafeMutablePointer(to: &output) { output in
            var writer = JSONByteWriter(output)
            output.pointee.write(Byte.openBrace)
            writeFields(to: &writer)
            output.pointee.write(Byte.closeBrace)
        }
    }
}

/// Collects the fields as the pairs of a `JSONObject`.
struct JSONTreeWriter: JSONFieldWriter {
    var pairs: [JSONObject.Element] = []

    init() { pairs.reserveCapacity(16) }

    mutating func field(_ key: StaticString, _ value: String?) { add(key, value.map(JSONValue.string) ?? .null) }
    mutating func field(_ key: StaticString, _ value: Int64?) { add(key, value.map(JSONValue.int) ?? .null) }
    mutating func field(_ key: StaticString, _ value: Bool) { add(key, .bool(value)) }
    mutating func field(_ key: StaticString, strings: [String]) { add(key, .array(strings.map(JSONValue.string))) }
    mutating func field<Document: JSONFields>(_ key: StaticString, _ value: Document?) { add(key, value?.json ?? .null) }
    mutating func field<Document: JSONFields>(_ key: StaticString, documents: [Document]) {
        add(key, .array(documents.map(\.json)))
    }

    mutating func field(named key: String, _ value: JSONValue) { pairs.append((key, value)) }

    private mutating func add(_ key: StaticString, _ value: JSONValue) { pairs.append((key.description, value)) }
}

/// Writes the fields as compact JSON to an output it is lent for the call, commas between them.
struct JSONByteWriter<Output: JSONOutput>: JSONFieldWriter {
    private let output: UnsafeMutablePointer<Output>
    private var first = true

    init(_ output: UnsafeMutablePointer<Output>) { self.output = output }

    private mutating func key(_ key: StaticString) {
        separate()
        output.pointee.write(Byte.quote)
        output.pointee.write(key)
        output.pointee.write(Byte.quote)
        output.pointee.write(Byte.colon)
    }

    private mutating func separate() {
        if !first { output.pointee.write(Byte.comma) }
        first = false
    }

    mutating func field(named key: String, _ value: JSONValue) {
        separate()
        JSONValue.writeString(key, into: &output.pointee)
        output.pointee.write(Byte.colon)
        value.write(to: &output.pointee)
    }

    private func null() { output.pointee.write("null") }

    mutating func field(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { JSONValue.writeString(value, into: &output.pointee) } else { null() }
    }

    mutating func field(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        if let value { JSONValue.writeInt(value, into: &output.pointee) } else { null() }
    }

    mutating func field(_ key: StaticString, _ value: Bool) {
        self.key(key)
        output.pointee.write(value ? "true" : "false")
    }

    mutating func field(_ key: StaticString, strings: [String]) {
        self.key(key)
        output.pointee.write(Byte.openBracket)
        for (offset, string) in strings.enumerated() {
            if offset > 0 { output.pointee.write(Byte.comma) }
            JSONValue.writeString(string, into: &output.pointee)
        }
        output.pointee.write(Byte.closeBracket)
    }

    mutating func field<Document: JSONFields>(_ key: StaticString, _ value: Document?) {
        self.key(key)
        if let value { value.write(to: &output.pointee) } else { null() }
    }

    mutating func field<Document: JSONFields>(_ key: StaticString, documents: [Document]) {
        self.key(key)
        output.pointee.write(Byte.openBracket)
        for (offset, document) in documents.enumerated() {
            if offset > 0 { output.pointee.write(Byte.comma) }
            document.write(to: &output.pointee)
        }
        output.pointee.write(Byte.closeBracket)
    }
}
