import ArgumentParser

/// A check-in interval as people write it, and as lsclient prints it (`Readable.duration`): "90s",
/// "30m", "1h", "2d", units together from the largest ("1h30m"), or plain seconds ("3600").
struct CheckInInterval: ExpressibleByArgument, Equatable {
    let seconds: Int64

    init(seconds: Int64) {
        self.seconds = seconds
    }

    init?(argument: String) {
        guard let seconds = Self.seconds(in: argument) else { return nil }
        self.seconds = seconds
    }

    private static let units: [(suffix: Character, seconds: Int64)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// nil for anything else, and for zero: an interval has to be some time.
    static func seconds(in text: String) -> Int64? {
        if let plain = Int64(text) { return plain > 0 ? plain : nil }
        var total: Int64 = 0
        var number: Int64?
        // Each unit at most once, larger ones first: "30m1h" and "1h1h" are typos, not intervals.
        var nextUnit = units.startIndex
        for character in text {
            if let digit = character.asciiDigit {
                let (shifted, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                number = shifted + digit
            } else if let count = number,
                      let index = units[nextUnit...].firstIndex(where: { $0.suffix == character }) {
                let (part, overflow) = count.multipliedReportingOverflow(by: units[index].seconds)
                let (sum, sumOverflow) = total.addingReportingOverflow(part)
                guard !overflow, !sumOverflow else { return nil }
                total = sum
                number = nil
                nextUnit = index + 1
            } else {
                return nil
            }
        }
        guard number == nil, total > 0 else { return nil }
        return total
    }
}

extension Character {
    /// 0…9 for an ASCII digit (not other scripts' digits, which Int64(_:) would refuse too).
    fileprivate var asciiDigit: Int64? {
        guard let ascii = asciiValue, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(ascii) else { return nil }
        return Int64(ascii - UInt8(ascii: "0"))
    }
}
