import LifeSignalProtocol

package extension LoadReport {
    /// One of a scenario's own results (idle's broker RSS per device, storm's missed events…):
    /// a row of the table and a field of the JSON document.
    struct Figure {
        let key: String
        let label: String
        let json: JSONValue
        let text: String

        static func count(_ key: String, _ label: String, _ value: some BinaryInteger) -> Figure {
            Figure(key: key, label: label, json: .int(Int64(value)), text: NumberFormat.grouped(value))
        }

        static func perSecond(_ key: String, _ label: String, _ value: Double) -> Figure {
            Figure(key: key, label: label, json: .double(NumberFormat.rounded(value, 1)),
                   text: NumberFormat.grouped(Int(value.rounded())))
        }

        static func seconds(_ key: String, _ label: String, _ value: Double) -> Figure {
            Figure(key: key, label: label, json: .double(NumberFormat.rounded(value, 3)),
                   text: NumberFormat.fixed(value, 2) + " s")
        }

        /// Whole bytes; nil (not measured) is null with `missing` as its text.
        static func bytes(_ key: String, _ label: String, _ value: Double?, missing: String) -> Figure {
            guard let value else { return Figure(key: key, label: label, json: .null, text: missing) }
            let rounded = Int(value.rounded())
            return Figure(key: key, label: label, json: .int(Int64(rounded)), text: NumberFormat.grouped(rounded) + " B")
        }

        /// KiB, shown as MiB when large; nil (not measured) is null with `missing` as its text.
        static func kibibytes(_ key: String, _ label: String, _ value: Double?, missing: String) -> Figure {
            guard let value else { return Figure(key: key, label: label, json: .null, text: missing) }
            let text = abs(value) >= 10 * 1024
                ? NumberFormat.fixed(value / 1024, 1) + " MiB"
                : NumberFormat.fixed(value, 1) + " KiB"
            return Figure(key: key, label: label, json: .double(NumberFormat.rounded(value, 1)), text: text)
        }
    }
}
