/// Incremental decoder for length-prefixed frames (PROTOCOL.md §1): a 4-byte big-endian length `L`,
/// then `L` bytes of body, with `2 <= L <= maxFrameBytes`.
///
/// Reads split or merge frames at any byte. Bodies that arrive whole inside one `feed` are handed out
/// without copying; only a frame that straddles reads is buffered, and its body buffer is allocated
/// only once its length has been checked, so a peer cannot make the decoder allocate more than
/// `maxFrameBytes` per connection.
public struct FrameDecoder: Sendable {
    public let maxFrameBytes: Int

    /// Bytes of a length prefix received so far, and how many (0…4). Once `failed`, the bad
    /// length, from which every later call makes the same error again instead of keeping it.
    private var header: UInt32 = 0
    /// Beside `header`, where they take no room of their own (a decoder per connection).
    private var stopped = false
    private var failed = false
    private var headerCount: UInt8 = 0
    /// Body of the incomplete frame; allocated only once `header` is complete and checked.
    private var body: [UInt8] = []
    /// Checked length of the incomplete frame; 0 until its prefix is complete and checked.
    private var bodyLength = 0

    public init(maxFrameBytes: Int = 65_536) {
        precondition(maxFrameBytes >= 2, "a frame body holds at least 2 bytes")
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes held for an incomplete frame (length prefix included).
    public var bufferedByteCount: Int { Int(headerCount) + body.count }

    /// True once a bad length was seen or `onFrame` stopped the decoder: further input is ignored.
    public var isFinished: Bool { failed || stopped }

    /// Feeds bytes as they arrive and calls `onFrame` with each complete body, in order.
    ///
    /// The body pointer is valid only during the call. `onFrame` returns false to stop: the rest of the
    /// input is discarded, and so is any later input. If `onFrame` throws, the decoder stops likewise
    /// and the error propagates.
    /// - Throws: `ProtocolError(.frameTooLarge)` for `L > maxFrameBytes` and `ProtocolError(.badFrame)`
    ///   for `L < 2`, as soon as the 4 length bytes are in and before any body byte is awaited. The
    ///   decoder then stays failed: every later call throws the same error.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer,
        onFrame: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        if failed, let error = lengthError(header) { throw error }
        if stopped { return }
        var offset = 0

        // First complete the frame a previous read left unfinished.
        if headerCount > 0 {
            while headerCount < 4, offset < bytes.count {
                header = header << 8 | UInt32(bytes[offset])
                headerCount += 1
                offset += 1
            }
            guard headerCount == 4 else { return }
            if bodyLength == 0 {  // the length prefix just completed
                bodyLength = try checkedLength(header)
                body.reserveCapacity(bodyLength)
            }
            let take = min(bodyLength - body.count, bytes.count - offset)
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            offset += take
            guard body.count == bodyLength else { return }

            let completed = body
            reset()
            guard try deliver(completed, onFrame) else { return }
        }

        // Then every frame that lies whole in the input, straight from the caller's memory.
        while bytes.count - offset >= 4 {
            let length = try checkedLength(Self.readLength(bytes, at: offset))
            guard bytes.count - offset - 4 >= length else { break }
            let frame = UnsafeRawBufferPointer(rebasing: bytes[offset + 4..<offset + 4 + length])
            offset += 4 + length
            guard try deliver(frame, onFrame) else { return }
        }

        // Keep what is left of an incomplete frame; its length, if complete, is already checked.
        guard offset < bytes.count else { return }
        let remaining = bytes.count - offset
        if remaining >= 4 {
            header = Self.readLength(bytes, at: offset)
            headerCount = 4
            bodyLength = Int(header)
            body.reserveCapacity(bodyLength)
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset + 4..<bytes.count]))
        } else {
            for index in offset..<bytes.count {
                header = header << 8 | UInt32(bytes[index])
                headerCount += 1
            }
        }
    }

    private mutating func deliver(
        _ frame: UnsafeRawBufferPointer,
        _ onFrame: (UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Bool {
        do {
            if try onFrame(frame) { return true }
        } catch {
            stopped = true
            throw error
        }
        stopped = true
        return false
    }

    private mutating func deliver(
        _ frame: [UInt8],
        _ onFrame: (UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Bool {
        try frame.withUnsafeBytes { try deliver($0, onFrame) }
    }

    /// Validates a length prefix; a bad one fails the decoder for good.
    private mutating func checkedLength(_ length: UInt32) throws(ProtocolError) -> Int {
        if let error = lengthError(length) {
            reset()
            header = length
            failed = true
            throw error
        }
        return Int(length)
    }

    /// What a length prefix is wrong with, if anything.
    private func lengthError(_ length: UInt32) -> ProtocolError? {
        if length > maxFrameBytes {
            return .frameTooLarge("frame length \(length) exceeds maxFrameBytes \(maxFrameBytes)")
        }
        if length < 2 {
            return .badFrame("frame length \(length) is below 2")
        }
        return nil
    }

    /// Drops the partial frame and its buffer, so an idle connection holds no large allocation.
    private mutating func reset() {
        header = 0
        headerCount = 0
        bodyLength = 0
        body = []
    }

    private static func readLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
