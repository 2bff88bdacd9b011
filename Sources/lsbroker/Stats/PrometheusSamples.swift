/// The samples of a Prometheus text exposition (version 0.0.4), as `/metrics` writes them:
/// `name{label="value",…} value` per line; comments and blank lines skipped.
struct PrometheusSamples {
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let samples: [Sample]

    init(parsing text: String) {
        samples = text.split(whereSeparator: \.isNewline).compactMap { Self.sample(String($0)) }
    }

    /// The samples of `name` whose labels include `labels`.
    func matching(_ name: String, _ labels: [String: String] = [:]) -> [Sample] {
        samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
    }

    /// The sum of the samples of `name` whose labels include `labels`; 0 when there are none.
    func total(_ name: String, _ labels: [String: String] = [:]) -> Double {
        matching(name, labels).reduce(0) { $0 + $1.value }
    }

    private static func sample(_ line: String) -> Sample? {
        guard !line.hasPrefix("#"), let valueStart = line.lastIndex(of: " "),
              let value = Double(line[line.index(after: valueStart)...]) else { return nil }
        let series = line[..<valueStart]
        guard let open = series.firstIndex(of: "{") else {
            return Sample(name: String(series), labels: [:], value: value)
        }
        guard series.last == "}" else { return nil }
        let name = String(series[..<open])
        return Sample(name: name, labels: labels(series[series.index(after: open)..<series.index(before: series.endIndex)]),
                      value: value)
    }

    /// `a="x",b="y \"quoted\""` with the format's escapes (\\, \", \n).
    private static func labels(_ text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else { break }
            let key = text[index..<equals].trimmingCharacters(in: [",", " "])
            var value = ""
            var position = text.index(equals, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            while position < text.endIndex, text[position] != "\"" {
                if text[position] == "\\", text.index(after: position) < text.endIndex {
                    position = text.index(after: position)
                    value.append(text[position] == "n" ? "\n" : text[position])
                } else {
                    value.append(text[position])
                }
                position = text.index(after: position)
            }
            labels[key] = value
            index = text.index(position, offsetBy: 1, limitedBy: text.endIndex) ?? text.endIndex
        }
        return labels
    }
}

extension PrometheusSamples {
    /// The `q` quantile of histogram `name` (its `_bucket` series) among series with `labels`,
    /// interpolated within its bucket as PromQL's `histogram_quantile` does; nil with no observations.
    func quantile(_ q: Double, of name: String, _ labels: [String: String] = [:]) -> Double? {
        var cumulative: [Double: Double] = [:]
        for sample in matching(name + "_bucket", labels) {
            guard let bound = sample.labels["le"].flatMap({ $0 == "+Inf" ? Double.infinity : Double($0) }) else { continue }
            cumulative[bound, default: 0] += sample.value
        }
        let buckets = cumulative.sorted { $0.key < $1.key }
        guard let total = buckets.last?.value, total > 0 else { return nil }
        let rank = q * total
        var (lowerBound, lowerCount) = (0.0, 0.0)
        for (bound, count) in buckets {
            if count >= rank {
                // Past the last finite bound nothing is known but that bound.
                guard bound.isFinite else { return lowerBound }
                guard count > lowerCount else { return bound }
                return lowerBound + (bound - lowerBound) * (rank - lowerCount) / (count - lowerCount)
            }
            (lowerBound, lowerCount) = (bound, count)
        }
        return lowerBound
    }
}
