/// When a user's next check-in is due (PROTOCOL §5, §8). Pure, so the rule is testable alone.
public enum CheckInRules {
    /// The deadline counted from the last check-in, or from now where that has already passed:
    /// changing the interval never makes a user non-responsive at once. None before the first
    /// check-in.
    public static func deadline(lastCheckInAt: Int64?, intervalSec: Int64, now: Int64) -> Int64? {
        guard let lastCheckInAt else { return nil }
        let fromLastCheckIn = lastCheckInAt + intervalSec * 1000
        return fromLastCheckIn > now ? fromLastCheckIn : now + intervalSec * 1000
    }
}
