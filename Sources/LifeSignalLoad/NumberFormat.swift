/// Numbers for people, without Foundation: "1,234,567", "12.35" and "12.35 ms".
package enum NumberFormat {
    package static func grouped<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `value` rounded to `digits` decimals (digits 0…6).
    package static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(Int(scaled - Double(whole) * scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// A latency in the unit that suits it: "850 µs", "12.35 ms", "2.10 s".
    package static func latency<T: BinaryInteger>(microseconds: T) -> String {
        if microseconds < 1_000 { return "\(microseconds) µs" }
        if microseconds < 1_000_000 { return fixed(Double(microseconds) / 1e3, 2) + " ms" }
        return fixed(Double(microseconds) / 1e6, 2) + " s"
    }

    /// Rounded to `digits` decimals, as a JSON number.
    package static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
