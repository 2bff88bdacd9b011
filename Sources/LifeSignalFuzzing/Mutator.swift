/// Byte-level mutations for the seeded run (libFuzzer has its own). Most mutate one frame's body
/// and re-frame the stream, so they reach the JSON parser; the rest mutate the raw stream, so
/// they reach the framing errors.
struct Mutator {
    static let maxInputBytes = 8_192

    private let seeds: [[UInt8]]
    private var random: SplitMix64

    init(seeds: [[UInt8]], seed: UInt64) {
        precondition(!seeds.isEmpty)
        self.seeds = seeds
        random = SplitMix64(seed: seed)
    }

    /// A mutated copy of a random seed: one mutation half the time (most bodies stay JSON), else up
    /// to four stacked.
    mutating func next() -> [UInt8] {
        var input = random.element(of: seeds)
        let count = random.chance(1, in: 2) ? 1 : 1 + random.below(4)
        for _ in 0..<count {
            var frames = Self.frames(of: input)
            if random.chance(3, in: 4), !frames.bodies.isEmpty {
                let index = random.below(frames.bodies.count)
                mutate(&frames.bodies[index])
                input = frames.bytes
            } else {
                mutateStream(&input)
            }
        }
        if input.count > Self.maxInputBytes { input.removeLast(input.count - Self.maxInputBytes) }
        return input
    }

    // MARK: - Mutations

    private mutating func mutate(_ bytes: inout [UInt8]) {
        switch random.below(9) {
        case 0 where !bytes.isEmpty:
            bytes[random.below(bytes.count)] ^= 1 << UInt8(random.below(8))
        case 1 where !bytes.isEmpty:
            bytes[random.below(bytes.count)] = random.element(of: Self.interestingBytes)
        case 2:
            bytes.insert(contentsOf: random.element(of: FuzzTokens.all), at: random.below(bytes.count + 1))
        case 3 where !bytes.isEmpty:
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(8)))
        case 4 where !bytes.isEmpty:
            // Copy a piece elsewhere: grows nesting and repeats keys.
            let start = random.below(bytes.count)
            let piece = bytes[start..<min(bytes.count, start + 1 + random.below(32))]
            bytes.insert(contentsOf: Array(piece), at: random.below(bytes.count + 1))
        case 5:
            // One token many times: deep nesting, long strings, long numbers.
            let token = random.element(of: FuzzTokens.all)
            let times = 1 + random.below(random.chance(1, in: 4) ? 400 : 20)
            bytes.insert(contentsOf: Array(repeating: token, count: times).joined(), at: random.below(bytes.count + 1))
        case 6:
            // Splice in a piece of another seed.
            let other = random.element(of: seeds)
            guard !other.isEmpty else { return }
            let start = random.below(other.count)
            let piece = other[start..<min(other.count, start + 1 + random.below(64))]
            let at = random.below(bytes.count + 1)
            bytes.replaceSubrange(at..<min(bytes.count, at + random.below(16)), with: piece)
        case 7 where !bytes.isEmpty:
            bytes.removeLast(1 + random.below(min(bytes.count, 8)))
        default:
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: random.below(bytes.count + 1))
        }
    }

    private mutating func mutateStream(_ stream: inout [UInt8]) {
        switch random.below(4) {
        case 0 where stream.count >= 4:
            // A length prefix around the limits, at a random place.
            let length = random.element(of: FuzzTokens.lengths)
            let at = random.below(stream.count - 3)
            for shift in 0..<4 { stream[at + shift] = UInt8(truncatingIfNeeded: length >> (24 - 8 * shift)) }
        case 1:
            stream += random.element(of: seeds)
        case 2 where !stream.isEmpty:
            stream.removeLast(1 + random.below(stream.count))
        default:
            mutate(&stream)
        }
    }

    private static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x2C, 0x2D, 0x2E, 0x30, 0x31, 0x39, 0x3A, 0x45, 0x5B,
        0x5C, 0x5D, 0x65, 0x75, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

    // MARK: - Frames

    /// A stream cut into its complete frames' bodies and what follows them.
    private struct Frames {
        var bodies: [[UInt8]]
        var rest: [UInt8]

        var bytes: [UInt8] {
            var stream: [UInt8] = []
            for body in bodies {
                let length = UInt32(truncatingIfNeeded: body.count)
                stream += [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16),
                           UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
                stream += body
            }
            return stream + rest
        }
    }

    private static func frames(of stream: [UInt8]) -> Frames {
        stream.withUnsafeBytes { bytes in
            let framer = ReferenceFramer(bytes, maxFrameBytes: FuzzHarness.maxFrameBytes)
            let end = framer.frames.last?.upperBound ?? 0
            return Frames(bodies: framer.frames.map { Array(bytes[$0]) }, rest: Array(stream[end...]))
        }
    }
}
