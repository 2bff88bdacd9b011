import Foundation
import LifeSignalLoad
import LifeSignalProtocol

/// What `load plot` draws of kept runs, overlaid: latency by percentile (HdrHistogram's plot, the
/// percentile axis logarithmic in 1/(1−p)), the throughput of each second, and each second's p99.
enum LoadPlot {
    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    static func svg(_ runs: [LoadRunRecord]) -> String {
        SVGChart.document([percentileChart(runs), throughputChart(runs), p99Chart(runs)])
    }

    private static func color(_ index: Int) -> String { colors[index % colors.count] }

    static func percentileChart(_ runs: [LoadRunRecord]) -> SVGChart {
        // As far right as the largest run resolves: 1/(1−p) up to its sample count, 100 at least.
        let samples = runs.map { Double($0.histogramUs.totalCount) }.max() ?? 1
        let decades = Int(min(6, max(2, ceil(log10(max(samples, 1))))))
        let upper = pow(10, Double(decades))
        let labels = ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"]
        let x = SVGChart.Axis(label: "percentile", lower: 1, upper: upper, logarithmic: true,
                              ticks: (0...decades).map { (pow(10, Double($0)), labels[$0]) })
        let series = runs.enumerated().map { index, run in
            let points = run.histogramUs.totalCount == 0 ? [] : run.histogramUs.percentiles(ticksPerHalfDistance: 5).map {
                point -> (x: Double, y: Double) in
                let level = point.percentileLevelIteratedTo / 100
                return (level < 1 ? min(upper, 1 / (1 - level)) : upper, Double(point.value) / 1_000)
            }
            return SVGChart.Series(name: run.name, color: color(index), points: points)
        }
        return SVGChart(title: "Latency by percentile", x: x, y: msAxis(series), series: series)
    }

    static func throughputChart(_ runs: [LoadRunRecord]) -> SVGChart {
        let series = runs.enumerated().map { index, run in
            // End-to-end runs (pings) count deliveries; the others answers.
            let key = run.report["delivered"] == nil ? "answered" : "delivered"
            return SVGChart.Series(name: run.name, color: color(index), points: perSecond(run) { second, length in
                second[key]?.doubleValue.map { $0 / length }
            })
        }
        let top = series.flatMap(\.points).map(\.y).max() ?? 0
        return SVGChart(title: "Throughput (answered, or delivered end to end, per second)", x: timeAxis(runs),
                        y: .linear("per second", upTo: top) { NumberFormat.grouped(Int64($0)) }, series: series)
    }

    static func p99Chart(_ runs: [LoadRunRecord]) -> SVGChart {
        let series = runs.enumerated().map { index, run in
            SVGChart.Series(name: run.name, color: color(index), points: perSecond(run) { second, _ in
                second["p99Us"]?.doubleValue.map { $0 / 1_000 }
            })
        }
        return SVGChart(title: "p99 latency of each second", x: timeAxis(runs), y: msAxis(series), series: series)
    }

    /// Each second's value at its end; a last fragment shorter than half a second is left out, as
    /// its rate would say little.
    private static func perSecond(_ run: LoadRunRecord, _ value: (JSONObject, Double) -> Double?)
        -> [(x: Double, y: Double)]
    {
        var previous = 0.0
        var points: [(x: Double, y: Double)] = []
        for second in run.series {
            guard let end = second["t"]?.doubleValue else { continue }
            defer { previous = end }
            let length = end - previous
            if length >= 0.5, let y = value(second, length) { points.append((end, y)) }
        }
        return points
    }

    private static func timeAxis(_ runs: [LoadRunRecord]) -> SVGChart.Axis {
        let end = runs.compactMap { $0.series.last?["t"]?.doubleValue }.max() ?? 1
        return .linear("seconds into the measured window", upTo: end, format: tickLabel)
    }

    private static func msAxis(_ series: [SVGChart.Series]) -> SVGChart.Axis {
        let top = series.flatMap(\.points).map(\.y).max() ?? 0
        return .linear("latency (ms)", upTo: top, format: tickLabel)
    }

    /// Whole numbers as such, steps below one with one decimal (0.5 ms).
    private static func tickLabel(_ value: Double) -> String {
        value == value.rounded() ? NumberFormat.grouped(Int64(value)) : NumberFormat.fixed(value, 1)
    }
}
