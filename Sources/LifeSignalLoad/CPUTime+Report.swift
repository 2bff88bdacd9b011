import LifeSignalProtocol

package extension CPUTime {
    /// "2.92 s (user 2.35, system 0.57; 29% of a core; 0.52 µs per response)", as load reports show it.
    func reportText(over seconds: Double, microsecondsPerResponse: Double? = nil) -> String {
        var text = "\(NumberFormat.fixed(total, 2)) s (user \(NumberFormat.fixed(user, 2)), "
            + "system \(NumberFormat.fixed(system, 2))"
        if seconds > 0 { text += "; \(Int((total / seconds * 100).rounded()))% of a core" }
        if let microsecondsPerResponse {
            text += "; \(NumberFormat.fixed(microsecondsPerResponse, 2)) µs per response"
        }
        return text + ")"
    }

    /// `cpuSec`, `userSec`, `systemSec` and, when given, `cpuUsPerResponse`.
    func reportJSON(microsecondsPerResponse: Double? = nil) -> JSONObject {
        var fields: JSONObject = [
            "cpuSec": .double(NumberFormat.rounded(total, 3)),
            "userSec": .double(NumberFormat.rounded(user, 3)),
            "systemSec": .double(NumberFormat.rounded(system, 3)),
        ]
        if let microsecondsPerResponse {
            fields["cpuUsPerResponse"] = .double(NumberFormat.rounded(microsecondsPerResponse, 3))
        }
        return fields
    }
}
