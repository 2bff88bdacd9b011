#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which device a framed event revokes (§12): a `devices.changed` event naming `revoked`. Each
/// delivery of an event to a user's connections (on whichever broker holds them) reads this once,
/// and the revoked device's connections are closed with `revoked` instead of being sent it.
public enum DeviceRevocation {
    /// The `revoked` device of a framed `devices.changed` event, nil for any other frame. Every
    /// event passes here, so the others are told apart by the bytes after the seq, unparsed.
    public static func revokedDevice(inEventFrame frame: [UInt8]) -> String? {
        guard isDevicesChanged(frame) else { return nil }
        let body = frame.dropFirst(4)
        guard case .object(let event)? = try? body.withUnsafeBytes({ try JSONValue.parse($0) }),
              case .object(let data)? = event["data"] else { return nil }
        return data[FieldName.revoked]?.stringValue
    }

    /// The framed body starts as `Outbound` writes every event: `{"op":"event","seq":N,"event":"devices.changed"`.
    /// Compared with memcmp: 2.6× cheaper than a generic slice comparison, about 16 ns an event
    /// (bench/revocation-check.sh; docs/BENCHMARKS.md, "The revocation check").
    private static func isDevicesChanged(_ frame: [UInt8]) -> Bool {
        frame.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, bytes.count > 4 + envelopeStart.count + eventName.count,
                  memcmp(base + 4, envelopeStart, envelopeStart.count) == 0 else { return false }
            var index = 4 + envelopeStart.count
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return bytes.count >= index + eventName.count && memcmp(base + index, eventName, eventName.count) == 0
        }
    }

    private static let envelopeStart = Array(#"{"op":"event","seq":"#.utf8)
    private static let eventName = Array(#","event":"devices.changed""#.utf8)
}
