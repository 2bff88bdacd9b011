import LifeSignalProtocol

/// The framing rules of PROTOCOL.md §1 written the obvious way, over a whole stream at once: what
/// `FrameDecoder` must produce however the stream is split.
struct ReferenceFramer {
    /// Body ranges of the complete frames, in order.
    var frames: [Range<Int>] = []
    /// The error of the first bad length prefix; nothing after it is read.
    var error: ProtocolError.Code?
    /// Bytes of a trailing incomplete frame (its length, if complete, is valid).
    var partialByteCount = 0

    init(_ bytes: UnsafeRawBufferPointer, maxFrameBytes: Int) {
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            if length > maxFrameBytes {
                error = .frameTooLarge
                return
            }
            if length < 2 {
                error = .badFrame
                return
            }
            guard bytes.count - offset - 4 >= length else { break }
            frames.append(offset + 4..<offset + 4 + length)
            offset += 4 + length
        }
        partialByteCount = bytes.count - offset
    }
}
