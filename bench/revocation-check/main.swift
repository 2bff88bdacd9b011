// What the revocation check costs every event on its way to its user's connections
// (DeviceRevocation.revokedDevice, PROTOCOL §12): the shipped code, compiled here from
// Sources/LifeSignalProtocol, against the generic slice comparison it replaced (kept here only), so
// that one -O build times both on one frame.
// Run: bench/revocation-check.sh
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

@inline(never) func shipped(_ frame: [UInt8]) -> Bool {
    DeviceRevocation.revokedDevice(inEventFrame: frame) != nil
}

/// The form replaced: `ArraySlice.elementsEqual` on the envelope and the event's name.
let envelopeStart = Array(#"{"op":"event","seq":"#.utf8)
let eventName = Array(#","event":"devices.changed""#.utf8)

@inline(never) func slices(_ frame: [UInt8]) -> Bool {
    var index = 4 + envelopeStart.count
    guard frame.count > index + eventName.count, frame[4..<index].elementsEqual(envelopeStart) else { return false }
    while index < frame.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(frame[index]) { index += 1 }
    return frame.count >= index + eventName.count && frame[index..<(index + eventName.count)].elementsEqual(eventName)
}

func nowNs() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

// A ping's notification.added, as the broker frames it.
let body = Array(#"{"op":"event","seq":123456,"event":"notification.added","data":{"notification":{"id":"n_01hzzq3k","type":"ping","title":"Ping","message":"Bob pinged you.","timestamp":1764063667123,"isRead":false}}}"#.utf8)
let frame = [0, 0, 0, UInt8(body.count)] + body
let rounds = 10_000_000
for (name, check) in [("shipped (memcmp)", shipped), ("slice comparison", slices), ("shipped (memcmp)", shipped)] {
    var hits = 0
    let start = nowNs()
    for _ in 0..<rounds where check(frame) { hits += 1 }
    let ns = Double(nowNs() - start) / Double(rounds)
    print("\(name): \((ns * 10).rounded() / 10) ns per event checked (\(hits) revocations)")
}
