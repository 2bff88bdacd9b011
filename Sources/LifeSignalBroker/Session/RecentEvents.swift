import DequeModule

/// A loaded user's newest committed events as the frames devices got, so that a device
/// resuming a little behind catches up from memory instead of a store read. Small on purpose:
/// it lives as long as the user is loaded, and idle devices must stay cheap (issue 5: 4 KiB each).
struct RecentEvents {
    static let maxEvents = 32
    static let maxBytes = 8 * 1024

    private var frames: Deque<(seq: Int64, frame: [UInt8])> = []
    private var bytes = 0

    /// Appends a committed event; events arrive in seq order (commits complete in order).
    mutating func append(seq: Int64, frame: [UInt8]) {
        if let last = frames.last, last.seq + 1 != seq {
            // A gap (a failed commit's seq): what is held no longer joins up with what follows.
            removeAll()
        }
        frames.append((seq, frame))
        bytes += frame.count
        while frames.count > Self.maxEvents || (bytes > Self.maxBytes && frames.count > 1) {
            bytes -= frames.removeFirst().frame.count
        }
    }

    /// The framed events `after + 1 … through`, or nil unless every one of them is held.
    func frames(after: Int64, through: Int64) -> [UInt8]? {
        if after == through { return [] }
        guard let first = frames.first, let last = frames.last,
              first.seq <= after + 1, last.seq == through, after < through
        else { return nil }
        var output: [UInt8] = []
        for entry in frames where entry.seq > after { output += entry.frame }
        return output
    }

    mutating func removeAll() {
        frames.removeAll()
        bytes = 0
    }
}
