import LifeSignalProtocol

/// Where fuzzing starts: one frame of every request op (PROTOCOL.md §3, §5), broker frames, JSON
/// edge cases, streams with several frames or bad length prefixes, and requests with a string at
/// and just over each §10 bound (BoundaryRequests). Each seed is a byte stream, the harness's
/// input format; `lsfuzz write-seeds DIR` writes them out for libFuzzer.
public enum SeedCorpus {
    public static var all: [(name: String, bytes: [UInt8])] {
        forMutation + BoundaryRequests.atEachBound.enumerated().map { index, request in
            ("bound-\(index)", request.frame)
        }
    }

    /// What the seeded run mutates: all but the boundary requests, which it makes fresh instead
    /// (BoundaryRequests.random); mutating their kilobytes made its inputs half as fast again.
    public static var forMutation: [(name: String, bytes: [UInt8])] {
        let named = requests.map { ("request", $0) } + brokerFrames.map { ("broker", $0) }
            + json.map { ("json", $0) }
        var seeds = named.map { name, body in (name, FrameEncoder.frame(body: Array(body.utf8))) }
        seeds += rawBodies.map { ("bytes", FrameEncoder.frame(body: $0)) }
        seeds += streams.map { ("stream", $0) }
        return seeds.enumerated().map { index, seed in ("\(seed.0)-\(index)", seed.1) }
    }

    // MARK: - Requests, every op (valid unless said otherwise)

    static let requests = [
        #"{"op":"register","rid":1,"name":"Alice","phone":"+15550100"}"#,
        #"{"op":"register","name":"  Zoë 🇫🇷  ","phone":null}"#,
        #"{"op":"hello","rid":2,"version":1,"user":"u_abc","token":"t0k3n","device":"alice-phone","platform":"ios","resume":40}"#,
        #"{"op":"hello","rid":3,"version":2,"user":"u_abc","token":"","device":"a.b_c:d-e"}"#,
        #"{"op":"keepalive","rid":4}"#,
        #"{"op":"bye"}"#,
        #"{"op":"profile.update","rid":5,"name":"Bob","phone":"","checkInIntervalSec":3600,"preferences":{"push":false,"mutedTypes":["ping","alert","ping"]}}"#,
        #"{"op":"profile.update","rid":6,"phone":null,"preferences":{}}"#,
        #"{"op":"qr.rotate","rid":7}"#,
        #"{"op":"qr.lookup","rid":27,"qrCode":"K3F9QZ2M8WXA"}"#,
        #"{"op":"device.register","rid":8,"token":"fcm:APA91b","platform":"android"}"#,
        #"{"op":"device.unregister","rid":9}"#,
        #"{"op":"devices.list","rid":10}"#,
        #"{"op":"contacts.add","rid":11,"qrCode":"K3F9QZ2M8WXA","isResponder":true,"isDependent":false}"#,
        #"{"op":"contacts.remove","rid":12,"contactId":"u_bob"}"#,
        #"{"op":"contacts.setRoles","rid":13,"contactId":"u_bob","isResponder":false,"isDependent":true}"#,
        #"{"op":"contacts.list","rid":14}"#,
        #"{"op":"ping.send","rid":15,"contactId":"u_carol"}"#,
        #"{"op":"ping.respond","rid":16,"contactId":"u_alice"}"#,
        #"{"op":"ping.clear","rid":17,"contactId":"u_carol"}"#,
        #"{"op":"checkin","rid":18}"#,
        #"{"op":"alert.trigger","rid":19,"message":"Help!\nI fell."}"#,
        #"{"op":"alert.cancel","rid":20}"#,
        #"{"op":"notifications.list","rid":21,"limit":10,"before":"n_42"}"#,
        #"{"op":"notifications.read","rid":22,"id":"n_42"}"#,
        #"{"op":"notifications.readAll","rid":23}"#,
        #"{"op":"notifications.delete","rid":24,"id":"n_42"}"#,
        // Refusals: unknown op, missing op, bad rid, wrong types, out of range.
        #"{"op":"contacts.explode","rid":25}"#,
        #"{"rid":26,"name":"x"}"#,
        #"{"op":"keepalive","rid":"27"}"#,
        #"{"op":"keepalive","rid":1.5}"#,
        #"{"op":7,"rid":-9223372036854775808}"#,
        #"{"op":"contacts.add","qrCode":"Q","isResponder":"yes","isDependent":0}"#,
        #"{"op":"notifications.list","limit":0}"#,
        #"{"op":"profile.update","checkInIntervalSec":59,"name":"\u0000"}"#,
        #"{"op":"profile.update","preferences":{"push":1,"mutedTypes":["nope"]}}"#,
    ]

    // MARK: - Broker frames (what a client parses)

    static let brokerFrames = [
        #"{"op":"ok","rid":2,"session":"s_1","lastSeq":41,"heartbeatMs":30000,"maxFrameBytes":65536,"serverTime":1763800000000}"#,
        #"{"op":"error","rid":7,"code":"not_found","message":"no user has that QR code"}"#,
        #"{"op":"error","code":"some_future_code"}"#,
        #"{"op":"event","seq":42,"event":"notification.added","data":{"notification":{"id":"n_1"}}}"#,
        #"{"op":"snapshot","seq":41,"user":{"id":"u_a","name":"Alice","phone":null,"qrCode":"Q","checkInIntervalSec":86400,"lastCheckInAt":1,"checkInDeadline":2,"isNonResponsive":false,"alert":{"id":"a_1","startedAt":3,"message":null},"preferences":{"push":true,"mutedTypes":["checkIn"]},"createdAt":0},"contacts":[{"id":"u_b","name":"Bob","isResponder":true,"isDependent":true,"role":"both","addedAt":5,"incomingPingAt":null,"outgoingPingAt":6,"lastCheckInAt":null,"checkInDeadline":null,"isNonResponsive":false,"hasActiveAlert":false}],"notifications":[{"id":"n_1","type":"ping","title":"Ping","message":"Bob pinged you.","timestamp":7,"isRead":false,"relatedContactID":"u_b","relatedAlertID":null,"relatedPingID":"p_1","contactData":{"id":"u_b","name":"Bob","role":"both","action":"ping"}}],"unreadCount":1}"#,
        #"{"op":"snapshot","seq":0,"user":{"id":"u","name":"n","qrCode":"q","checkInIntervalSec":60,"isNonResponsive":true,"preferences":{"push":false,"mutedTypes":[]},"createdAt":-1},"contacts":[],"notifications":[],"unreadCount":0}"#,
    ]

    // MARK: - JSON edge cases

    static let json: [String] = [
        "{}", "[]", "null", "0", "\"\"", " \t\r\n{ \"op\" : \"keepalive\" } \n",
        String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        "{\"op\":\"keepalive\",\"x\":" + String(repeating: "{\"a\":", count: 63) + "1" + String(repeating: "}", count: 64),
        String(repeating: "[", count: 2_000),
        #"{"a":1,"a":2}"#,
        "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}",
        #"{"op":"register","name":"\ud83d\ude00 \u00e9\u20AC \uD834\uDD1E"}"#,
        #"{"s":"\ud800"}"#, #"{"s":"\udc00\ud800"}"#, #"{"s":"\ud800\u0041"}"#,
        #"{"s":"\"\\\/\b\f\n\r\t\u0000\u001f\u007f"}"#,
        #"{"n":[0,-0,-0.0,1e308,4.9e-324,1.7976931348623157e308,9223372036854775807,-9223372036854775808]}"#,
        #"{"n":[9223372036854775808,-9223372036854775809,18446744073709551616,1e400]}"#,
        #"{"n":123456789012345678901234567890123456789012345678901234567890.5e-10}"#,
        #"{"n":[01,1.,.5,1e,-,+1,0x10,NaN,Infinity]}"#,
        // The same key spelled NFC and NFD: Swift's String == calls them equal (canonical equivalence).
        "{\"op\":\"register\",\"name\":\"x\",\"\u{E9}\":1,\"e\u{301}\":2}",
        #"{"op":"register","name":"\u0085Zoë\u2028","phone":"\u3000 +33 \u00a0"}"#,
        "{\"op\":\"register\",\"name\":\"" + String(repeating: "👩‍👩‍👧‍👦", count: 100) + "\"}",
        "{\"op\":\"alert.trigger\",\"message\":\"" + String(repeating: "e\u{301}", count: 500) + "\"}",
        "{\"op\":\"device.register\",\"token\":\"" + String(repeating: "t", count: 4_096) + "\"}",
        "{\"op\":\"hello\",\"version\":1,\"user\":\"u\",\"token\":\"t\",\"device\":\"" + String(repeating: "d", count: 65) + "\"}",
        #"{"op":"keepalive"} trailing"#, #"{"op":"keepalive""#, #"{"op" "keepalive"}"#, "{'op':'keepalive'}",
        "\u{FEFF}{}", "{\"a\":tru}", "{\"a\":nul}", "[1,]", "{\"a\":1,}",
    ]

    /// Bodies that are not valid UTF-8 or hold raw control bytes.
    static let rawBodies: [[UInt8]] = [
        Array(#"{"name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
        Array(#"{"name":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
        Array(#"{"name":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8),
        Array(#"{"name":""#.utf8) + [0xE0, 0x80, 0xAF, 0x0A] + Array(#""}"#.utf8),
        [0x7B, 0x7D, 0x00], [0xFF, 0xFE],
    ]

    // MARK: - Streams

    static var streams: [[UInt8]] {
        let frames = requests.prefix(6).map { FrameEncoder.frame(body: Array($0.utf8)) }
        let keepalive = frames[4]
        return [
            frames.flatMap { $0 },
            keepalive + [0, 0, 0, 0] + keepalive,  // L = 0: bad_frame
            keepalive + [0, 0, 0, 1, 0x7B],  // L = 1: bad_frame
            keepalive + [0, 1, 0, 1] + keepalive,  // L = 65,537: frame_too_large
            [0xFF, 0xFF, 0xFF, 0xFF],  // L = 4 GiB - 1: must not allocate
            keepalive + [0, 1, 0, 0] + Array(repeating: 0x20, count: 100),  // a 64 KiB frame begun
            keepalive + Array(keepalive.prefix(7)),  // a frame cut short
            FrameEncoder.frame(body: Array("{}".utf8)) + [0, 0, 0],  // a length cut short
            [],
        ]
    }
}
