import LifeSignalProtocol

/// One run of `FrameDecoder` over a stream fed in chunks, checking after every feed what the decoder
/// holds (PROTOCOL.md §1: the length is checked before anything is buffered for the body).
struct DecodePass {
    var frames: [[UInt8]] = []
    var error: ProtocolError?
    /// True once `onFrame` returned false.
    var stopped = false

    /// - Parameters:
    ///   - cuts: where to split the input (increasing offsets); each piece is one `feed`.
    ///   - stopAfter: `onFrame` returns false for this frame, so the decoder must stop there.
    init(
        _ input: UnsafeRawBufferPointer, maxFrameBytes: Int, cuts: [Int], stopAfter: Int? = nil
    ) throws(FuzzFailure) {
        var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        var start = 0
        var deliveredBytes = 0
        for end in cuts + [input.count] where end >= start {
            let chunk = UnsafeRawBufferPointer(rebasing: input[start..<end])
            start = end
            var frames = self.frames
            var badBody: Int?
            do {
                try decoder.feed(chunk) { body in
                    if !(2...maxFrameBytes).contains(body.count) { badBody = body.count }
                    frames.append(Array(body))
                    deliveredBytes += 4 + body.count
                    return frames.count != stopAfter
                }
            } catch let error as ProtocolError {
                self.frames = frames
                try expect(!stopped, "a stopped decoder threw \(error)")
                try expect(badBody == nil, "decoder delivered a body of \(badBody ?? 0) bytes")
                try expect(
                    error.code == .badFrame || error.code == .frameTooLarge,
                    "decoder threw \(error), not a §1 framing error")
                try expect(decoder.isFinished, "decoder threw but is not finished")
                try expect(decoder.bufferedByteCount == 0, "a failed decoder holds \(decoder.bufferedByteCount) bytes")
                try Self.expectStaysFailed(&decoder, with: error)
                self.error = error
                return
            } catch {
                throw FuzzFailure("decoder threw a non-protocol error: \(error)")
            }
            try expect(badBody == nil, "decoder delivered a body of \(badBody ?? 0) bytes")
            try expect(!stopped || frames.count == self.frames.count, "a stopped decoder delivered more frames")
            self.frames = frames
            if stopped || frames.count == stopAfter {
                stopped = true
                try expect(decoder.isFinished, "a stopped decoder is not finished")
                continue
            }
            // Everything fed so far is either delivered or held, and never more than one frame's worth.
            try expect(
                decoder.bufferedByteCount == start - deliveredBytes,
                "decoder holds \(decoder.bufferedByteCount) bytes, expected \(start - deliveredBytes)")
            try expect(
                decoder.bufferedByteCount < maxFrameBytes + 4,
                "decoder holds \(decoder.bufferedByteCount) bytes with maxFrameBytes \(maxFrameBytes)")
            try expect(!decoder.isFinished, "decoder finished without an error or a stop")
        }
    }

    /// A failed decoder ignores further input and throws the same error again.
    private static func expectStaysFailed(
        _ decoder: inout FrameDecoder, with error: ProtocolError
    ) throws(FuzzFailure) {
        let more: [UInt8] = [0, 0, 0, 2, 0x7B, 0x7D]
        var called = false
        do {
            try more.withUnsafeBytes { bytes in
                try decoder.feed(bytes) { _ in
                    called = true
                    return true
                }
            }
        } catch let again as ProtocolError {
            try expect(again == error, "a failed decoder threw \(again), first \(error)")
            try expect(!called, "a failed decoder delivered a frame")
            return
        } catch {
            throw FuzzFailure("a failed decoder threw \(error)")
        }
        throw FuzzFailure("a failed decoder accepted more input")
    }
}
