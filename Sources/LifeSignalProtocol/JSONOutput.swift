/// Where JSON is written: an output buffer (`[UInt8]`, a connection's) or a `ByteSink`.
protocol JSONOutput {
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

extension JSONOutput {
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(bytes)) }

    mutating func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension Array: JSONOutput where Element == UInt8 {
    mutating func write(_ byte: UInt8) { append(byte) }
    mutating func write(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// Bytes written through a pointer into scratch memory, for a frame built on its own: a write
/// is one capacity check and a copy, where an `Array` append checks capacity and uniqueness
/// for every byte and copies a run through a generic path (a `Contact` is some 40 writes).
/// The frame is copied into an array once, at its exact size.
struct ByteSink: JSONOutput {
    private var start: UnsafeMutablePointer<UInt8>
    private var position: UnsafeMutablePointer<UInt8>
    private var end: UnsafeMutablePointer<UInt8>
    /// Owned memory, once the scratch was outgrown.
    private var grown: UnsafeMutablePointer<UInt8>?

    private init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        start = scratch.baseAddress!
        position = start
        end = start + scratch.count
    }

    /// What `write` writes into a sink that exists only during the call (stack scratch, on
    /// the heap past it), as an array.
    static func collect(_ write: (inout ByteSink) -> Void) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchSize) { scratch in
            var sink = ByteSink(scratch: scratch)
            write(&sink)
            defer { sink.grown?.deallocate() }
            return Array(UnsafeBufferPointer(start: sink.start, count: sink.count))
        }
    }

    /// Most frames fit (an event is 300–500 bytes); a snapshot grows onto the heap.
    private static let scratchSize = 1_024

    var count: Int { position - start }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        if position == end { grow(toHold: 1) }
        position.pointee = byte
        position += 1
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if end - position < bytes.count { grow(toHold: bytes.count) }
        UnsafeMutableRawPointer(position).copyMemory(from: source, byteCount: bytes.count)
        position += bytes.count
    }

    /// Overwrites the byte at `offset`, one already written (a frame's length).
    mutating func set(_ byte: UInt8, at offset: Int) {
        precondition(offset < count)
        start[offset] = byte
    }

    private mutating func grow(toHold needed: Int) {
        let count = self.count
        let capacity = max(2 * (end - start), count + needed)
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        memory.initialize(from: start, count: count)
        grown?.deallocate()
        (grown, start, position, end) = (memory, memory, memory + count, memory + capacity)
    }
}
