/// `# HELP` lines for `/metrics`. The registry writes only `# TYPE` for metrics made through
/// swift-metrics (its factory has no help text, and registering a family with help first makes the
/// factory's later, help-less registration a mismatch), so each `# TYPE NAME` line of the
/// exposition gets its `# HELP NAME` line from MetricName.help before it.
enum MetricHelp {
    static func annotated(_ exposition: String) -> String {
        var text = ""
        text.reserveCapacity(exposition.utf8.count + MetricName.help.count * 80)
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first,
               let help = MetricName.help[String(name)] {
                text += "# HELP \(name) \(help)\n"
            }
            text += line
            text += "\n"
        }
        text.removeLast()
        return text
    }
}
