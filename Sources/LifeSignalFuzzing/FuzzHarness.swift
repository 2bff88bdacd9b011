import LifeSignalProtocol

/// Feeds one fuzz input through what the broker and the client do with bytes from the network, and
/// checks invariants: the input is a byte stream of frames (PROTOCOL.md §1).
///
/// Framing: `FrameDecoder` fed whole, split at input-derived points, byte by byte with a small
/// input-derived `maxFrameBytes`, and stopped after an input-derived frame must all agree with
/// `ReferenceFramer`. Each body: JSON round trip, `Request.parse` and the broker's field rules, and
/// `ServerMessage.parse` (what a client does with a broker frame).
public enum FuzzHarness {
    public static let maxFrameBytes = 65_536

    @discardableResult
    public static func check(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) -> FuzzStats {
        var random = SplitMix64(seed: SplitMix64.seed(from: input))
        var stats = FuzzStats()
        stats.inputs = 1

        let expected = ReferenceFramer(input, maxFrameBytes: maxFrameBytes)
        let whole = try DecodePass(input, maxFrameBytes: maxFrameBytes, cuts: [])
        try expectMatches(whole, expected, input, "fed whole")
        let cuts = randomCuts(input.count, &random)
        try expectMatches(
            try DecodePass(input, maxFrameBytes: maxFrameBytes, cuts: cuts), expected, input, "split at \(cuts)")

        let smallMax = 2 + random.below(300)
        let small = try DecodePass(input, maxFrameBytes: smallMax, cuts: Array(0...input.count))
        try expectMatches(small, ReferenceFramer(input, maxFrameBytes: smallMax), input, "bytewise, max \(smallMax)")

        let stopAfter = 1 + random.below(4)
        let stopped = try DecodePass(input, maxFrameBytes: maxFrameBytes, cuts: cuts, stopAfter: stopAfter)
        try expect(stopped.frames == Array(whole.frames.prefix(stopAfter)), "stopped after \(stopAfter): other frames")
        try expect(
            stopped.stopped == (whole.frames.count >= stopAfter),
            "stopped after \(stopAfter) of \(whole.frames.count) frames: stopped is \(stopped.stopped)")
        try expect(stopped.stopped || stopped.error == whole.error, "stopped pass: other error")

        stats.frames = whole.frames.count
        stats.framingErrors = whole.error == nil ? 0 : 1
        for body in whole.frames {
            try BodyChecks.check(body, &stats)
        }
        return stats
    }

    @discardableResult
    public static func check(_ input: [UInt8]) throws(FuzzFailure) -> FuzzStats {
        // withUnsafeBytes rethrows untyped errors; carry the typed one out by hand.
        let result: Result<FuzzStats, FuzzFailure> = input.withUnsafeBytes { bytes in
            do throws(FuzzFailure) {
                return .success(try check(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func expectMatches(
        _ pass: DecodePass, _ expected: ReferenceFramer, _ input: UnsafeRawBufferPointer,
        _ how: @autoclosure () -> String
    ) throws(FuzzFailure) {
        try expect(
            pass.frames.count == expected.frames.count,
            "\(how()): \(pass.frames.count) frames, expected \(expected.frames.count)")
        for (frame, range) in zip(pass.frames, expected.frames) {
            try expect(frame.elementsEqual(input[range]), "\(how()): a frame differs")
        }
        try expect(pass.error?.code == expected.error, "\(how()): error \(String(describing: pass.error))")
    }

    /// Mostly small pieces, sometimes large ones, sometimes none: increasing offsets inside the input.
    private static func randomCuts(_ count: Int, _ random: inout SplitMix64) -> [Int] {
        var cuts: [Int] = []
        var offset = 0
        while offset < count {
            offset += random.chance(1, in: 4) ? 1 + random.below(count) : 1 + random.below(8)
            if offset < count { cuts.append(offset) }
        }
        return cuts
    }
}
