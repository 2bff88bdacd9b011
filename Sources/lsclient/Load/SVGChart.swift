import Foundation

/// One line chart of an SVG document: a title, two labelled axes with ticks, and a polyline per
/// series, each carrying its run's name (`data-run`) so that a reader (or a test) finds its points.
struct SVGChart {
    struct Series {
        let name: String
        let color: String
        /// In the axes' units; the x axis maps them through `Axis.position`.
        let points: [(x: Double, y: Double)]
    }

    /// A linear axis from `lower` to `upper`, or a logarithmic one (base 10) when `logarithmic`,
    /// with the ticks and labels given (a percentile axis names its own).
    struct Axis {
        let label: String
        let lower: Double
        let upper: Double
        var logarithmic = false
        var ticks: [(value: Double, label: String)]

        func position(_ value: Double) -> Double {
            let (v, lo, hi) = logarithmic
                ? (log10(max(value, lower)), log10(lower), log10(upper))
                : (value, lower, upper)
            return hi > lo ? min(1, max(0, (v - lo) / (hi - lo))) : 0
        }

        /// About five round steps over `0...upper`: 1, 2 or 5 times a power of ten.
        static func linear(_ label: String, upTo maximum: Double, format: (Double) -> String) -> Axis {
            let top = maximum > 0 ? maximum : 1
            let raw = top / 5
            let magnitude = pow(10, floor(log10(raw)))
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
            let upper = ceil(top / step) * step
            let ticks = stride(from: 0.0, through: upper + step / 2, by: step).map { ($0, format($0)) }
            return Axis(label: label, lower: 0, upper: upper, ticks: ticks)
        }
    }

    let title: String
    let x: Axis
    let y: Axis
    let series: [Series]

    static let width = 900.0
    static let height = 300.0
    private static let margin = (left: 80.0, right: 30.0, top: 40.0, bottom: 50.0)

    /// The chart as an SVG group, its top edge at `top` in the document.
    func svg(top: Double) -> String {
        let m = Self.margin
        let (plotWidth, plotHeight) = (Self.width - m.left - m.right, Self.height - m.top - m.bottom)
        func px(_ value: Double) -> Double { m.left + x.position(value) * plotWidth }
        func py(_ value: Double) -> Double { m.top + (1 - y.position(value)) * plotHeight }
        var out = "<g transform=\"translate(0,\(Self.number(top)))\">\n"
        out += "<text x=\"\(Self.number(m.left))\" y=\"24\" font-size=\"16\" font-weight=\"bold\">\(Self.escaped(title))</text>\n"
        out += "<rect x=\"\(Self.number(m.left))\" y=\"\(Self.number(m.top))\" width=\"\(Self.number(plotWidth))\" "
            + "height=\"\(Self.number(plotHeight))\" fill=\"none\" stroke=\"#999\"/>\n"
        for tick in x.ticks {
            let at = Self.number(px(tick.value))
            out += "<line x1=\"\(at)\" y1=\"\(Self.number(m.top))\" x2=\"\(at)\" y2=\"\(Self.number(m.top + plotHeight))\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(at)\" y=\"\(Self.number(m.top + plotHeight + 18))\" font-size=\"11\" text-anchor=\"middle\">\(Self.escaped(tick.label))</text>\n"
        }
        for tick in y.ticks {
            let at = Self.number(py(tick.value))
            out += "<line x1=\"\(Self.number(m.left))\" y1=\"\(at)\" x2=\"\(Self.number(m.left + plotWidth))\" y2=\"\(at)\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(Self.number(m.left - 6))\" y=\"\(at)\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Self.escaped(tick.label))</text>\n"
        }
        out += "<text x=\"\(Self.number(m.left + plotWidth / 2))\" y=\"\(Self.number(Self.height - 8))\" font-size=\"12\" text-anchor=\"middle\">\(Self.escaped(x.label))</text>\n"
        out += "<text x=\"16\" y=\"\(Self.number(m.top + plotHeight / 2))\" font-size=\"12\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 16 \(Self.number(m.top + plotHeight / 2)))\">\(Self.escaped(y.label))</text>\n"
        for (index, line) in series.enumerated() {
            let points = line.points.map { "\(Self.number(px($0.x))),\(Self.number(py($0.y)))" }.joined(separator: " ")
            out += "<polyline data-run=\"\(Self.escaped(line.name))\" fill=\"none\" "
                + "stroke=\"\(line.color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
            let legendY = Self.number(m.top + 14 + Double(index) * 16)
            let legendX = m.left + plotWidth - 200
            out += "<line x1=\"\(Self.number(legendX))\" y1=\"\(legendY)\" x2=\"\(Self.number(legendX + 20))\" y2=\"\(legendY)\" stroke=\"\(line.color)\" stroke-width=\"2\"/>\n"
            out += "<text x=\"\(Self.number(legendX + 26))\" y=\"\(legendY)\" font-size=\"12\" dominant-baseline=\"middle\">\(Self.escaped(line.name))</text>\n"
        }
        return out + "</g>\n"
    }

    /// A whole document of `charts`, one under the other.
    static func document(_ charts: [SVGChart]) -> String {
        let total = Double(charts.count) * height
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(width))\" height=\"\(number(total))\" "
            + "viewBox=\"0 0 \(number(width)) \(number(total))\" font-family=\"sans-serif\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        for (index, chart) in charts.enumerated() { out += chart.svg(top: Double(index) * height) }
        return out + "</svg>\n"
    }

    /// Coordinates with two decimals at most: a plot of an hour's seconds stays small.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
