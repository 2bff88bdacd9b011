import ArgumentParser

extension ArgumentHelp {
    /// The help of a setting that falls back to `LSBROKER_<NAME>`, then to its default, which is
    /// shown here because ArgumentParser shows only the defaults it holds itself:
    /// "TCP port. (default: 7420) [env: LSBROKER_PORT]".
    static func setting(_ text: String, env name: String, default value: String) -> ArgumentHelp {
        ArgumentHelp("\(text) (default: \(value)) [env: LSBROKER_\(name)]")
    }

    static func setting(_ text: String, env name: String, default value: some BinaryInteger) -> ArgumentHelp {
        setting(text, env: name, default: "\(value)")
    }

    /// Rates: 200, not 200.0.
    static func setting(_ text: String, env name: String, default value: Double) -> ArgumentHelp {
        setting(text, env: name, default: value == value.rounded() ? "\(Int64(value))" : "\(value)")
    }
}
