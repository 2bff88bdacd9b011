import LifeSignalProtocol
import Testing

@Suite("FrameDecoder")
struct FrameDecoderTests {
    /// Bodies of assorted sizes, the smallest legal one included.
    static let bodies: [[UInt8]] = [
        Array(#"{"op":"hello","rid":1}"#.utf8),
        Array("{}".utf8),
        Array(#"{"op":"keepalive"}"#.utf8),
        Array(#"{"a":"é"}"#.utf8),
    ]

    static var stream: [UInt8] { bodies.flatMap(FrameEncoder.frame(body:)) }

    /// Feeds `chunks` in order and collects every body, checking that `bufferedByteCount` is what is left
    /// of the incomplete frame after each feed.
    static func decode(_ chunks: [ArraySlice<UInt8>], maxFrameBytes: Int = 65_536) throws -> [[UInt8]] {
        var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        var bodies: [[UInt8]] = []
        var consumed = 0
        var delivered = 0
        for chunk in chunks {
            try Array(chunk).withUnsafeBytes { bytes in
                try decoder.feed(bytes) { body in
                    bodies.append(Array(body))
                    delivered += 4 + body.count
                    return true
                }
            }
            consumed += chunk.count
            #expect(decoder.bufferedByteCount == consumed - delivered)
        }
        return bodies
    }

    @Test func mergedIntoOneBuffer() throws {
        #expect(try Self.decode([Self.stream[...]]) == Self.bodies)
    }

    @Test func splitAtEveryPosition() throws {
        let stream = Self.stream
        for split in 0...stream.count {
            let decoded = try Self.decode([stream[..<split], stream[split...]])
            #expect(decoded == Self.bodies, "split at \(split)")
        }
    }

    @Test func splitAtEveryPairOfPositions() throws {
        let stream = Self.stream
        for first in 0...stream.count {
            for second in first...stream.count {
                let decoded = try Self.decode([stream[..<first], stream[first..<second], stream[second...]])
                #expect(decoded == Self.bodies, "split at \(first) and \(second)")
            }
        }
    }

    @Test func oneByteAtATime() throws {
        let stream = Self.stream
        let chunks = stream.indices.map { stream[$0...$0] }
        #expect(try Self.decode(chunks) == Self.bodies)
    }

    @Test func bodiesWithinOneFeedAreNotCopied() throws {
        let stream = Self.stream
        var decoder = FrameDecoder()
        var offsets: [Int] = []
        try stream.withUnsafeBytes { bytes in
            try decoder.feed(bytes) { body in
                offsets.append(body.baseAddress! - bytes.baseAddress!)
                return true
            }
        }
        var expected: [Int] = []
        var offset = 0
        for body in Self.bodies {
            expected.append(offset + 4)
            offset += 4 + body.count
        }
        #expect(offsets == expected)
    }

    @Test func lengthOfExactlyMaxIsAccepted() throws {
        let body = [UInt8](repeating: 0x20, count: 65_536)
        #expect(try Self.decode([FrameEncoder.frame(body: body)[...]]) == [body])

        let small = Array(#"{"a":1}"#.utf8)
        #expect(try Self.decode([FrameEncoder.frame(body: small)[...]], maxFrameBytes: small.count) == [small])
    }

    @Test func lengthAboveMaxThrowsBeforeTheBodyArrives() throws {
        var decoder = FrameDecoder(maxFrameBytes: 100)
        var frames = 0
        let header: [UInt8] = [0, 0, 0, 101]
        // The first half of the length is not enough to judge; the second half is.
        try Array(header[..<2]).withUnsafeBytes { try decoder.feed($0) { _ in frames += 1; return true } }
        let error = #expect(throws: ProtocolError.self) {
            try Array(header[2...]).withUnsafeBytes { try decoder.feed($0) { _ in frames += 1; return true } }
        }
        #expect(error?.code == .frameTooLarge)
        #expect(frames == 0)
        #expect(decoder.bufferedByteCount == 0)
        let again = #expect(throws: ProtocolError.self) {
            try [UInt8]([0, 0]).withUnsafeBytes { try decoder.feed($0) { _ in frames += 1; return true } }
        }
        #expect(again == error)
    }

    @Test func hugeLengthIsRejectedWithoutAllocating() throws {
        var decoder = FrameDecoder()
        let error = #expect(throws: ProtocolError.self) {
            try [UInt8]([0xFF, 0xFF, 0xFF, 0xFF]).withUnsafeBytes { try decoder.feed($0) { _ in true } }
        }
        #expect(error?.code == .frameTooLarge)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test(arguments: [0, 1])
    func lengthBelowTwoIsBadFrame(length: UInt8) throws {
        var decoder = FrameDecoder()
        let error = #expect(throws: ProtocolError.self) {
            try [UInt8]([0, 0, 0, length, 0x7B]).withUnsafeBytes { try decoder.feed($0) { _ in true } }
        }
        #expect(error?.code == .badFrame)
        let again = #expect(throws: ProtocolError.self) {
            try FrameEncoder.frame(body: Array("{}".utf8)).withUnsafeBytes { try decoder.feed($0) { _ in true } }
        }
        #expect(again == error)
    }

    @Test func framesBeforeABadLengthAreDeliveredThenTheDecoderStaysFailed() throws {
        var decoder = FrameDecoder(maxFrameBytes: 64)
        var bodies: [[UInt8]] = []
        let good = FrameEncoder.frame(body: Array("{}".utf8))
        let input = good + [0, 0, 0, 65] + good
        let first = #expect(throws: ProtocolError.self) {
            try input.withUnsafeBytes { try decoder.feed($0) { bodies.append(Array($0)); return true } }
        }
        #expect(bodies == [Array("{}".utf8)])
        #expect(decoder.isFinished)

        // Valid input afterwards is refused with the same error, and nothing is delivered.
        let second = #expect(throws: ProtocolError.self) {
            try good.withUnsafeBytes { try decoder.feed($0) { bodies.append(Array($0)); return true } }
        }
        #expect(first == second)
        #expect(bodies.count == 1)
    }

    @Test func onFrameReturningFalseStops() throws {
        var decoder = FrameDecoder()
        var count = 0
        let stream = Self.stream
        try stream.withUnsafeBytes { try decoder.feed($0) { _ in count += 1; return count < 2 } }
        #expect(count == 2)
        #expect(decoder.isFinished)
        #expect(decoder.bufferedByteCount == 0)

        // Later input is discarded without error.
        try stream.withUnsafeBytes { try decoder.feed($0) { _ in count += 1; return true } }
        #expect(count == 2)
    }

    @Test func onFrameReturningFalseStopsForABufferedFrame() throws {
        var decoder = FrameDecoder()
        var count = 0
        let stream = Self.stream
        let split = 6  // inside the first frame's body, so it completes from the buffer
        try Array(stream[..<split]).withUnsafeBytes { try decoder.feed($0) { _ in count += 1; return false } }
        try Array(stream[split...]).withUnsafeBytes { try decoder.feed($0) { _ in count += 1; return false } }
        #expect(count == 1)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func anErrorFromOnFrameStopsTheDecoder() throws {
        struct Stop: Error {}
        var decoder = FrameDecoder()
        var count = 0
        let stream = Self.stream
        #expect(throws: Stop.self) {
            try stream.withUnsafeBytes { try decoder.feed($0) { _ in count += 1; throw Stop() } }
        }
        try stream.withUnsafeBytes { try decoder.feed($0) { _ in count += 1; return true } }
        #expect(count == 1)
    }

    @Test func bufferEmptiesAfterCompleteFrames() throws {
        var decoder = FrameDecoder()
        let frame = FrameEncoder.frame(body: Array(#"{"op":"keepalive"}"#.utf8))
        try Array(frame[..<7]).withUnsafeBytes { try decoder.feed($0) { _ in true } }
        #expect(decoder.bufferedByteCount == 7)
        try Array(frame[7...]).withUnsafeBytes { try decoder.feed($0) { _ in true } }
        #expect(decoder.bufferedByteCount == 0)
        try frame.withUnsafeBytes { try decoder.feed($0) { _ in true } }
        #expect(decoder.bufferedByteCount == 0)
        try [UInt8]().withUnsafeBytes { try decoder.feed($0) { _ in true } }
        #expect(decoder.bufferedByteCount == 0)
    }
}
