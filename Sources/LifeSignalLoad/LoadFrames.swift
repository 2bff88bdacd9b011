import LifeSignalProtocol

/// The cheap reading of the answers the load generator gets most.
///
/// Measured (perf, 100 devices × 16 keepalives in flight, release): `ServerMessage.parse` of each
/// `ok` took 32% of the generator's CPU, CPU the broker then lacks on 2 shared cores. So an `ok`
/// whose fields nobody reads is recognized by its prefix.
package enum LoadFrames {
    /// The rid of a body that starts `{"op":"ok","rid":N,` or `…N}`, which is how the broker writes
    /// every `ok` (`Outbound.appendOK`); nil for anything else, which then gets a full parse.
    package static func okRid(_ body: UnsafeRawBufferPointer) -> Int64? {
        let prefix = okPrefix
        guard body.count > prefix.count else { return nil }
        for index in 0..<prefix.count where body[index] != prefix[index] { return nil }
        var index = prefix.count
        var rid: Int64 = 0
        var digits = 0
        while index < body.count, body[index] >= UInt8(ascii: "0"), body[index] <= UInt8(ascii: "9"), digits < 18 {
            rid = rid * 10 + Int64(body[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0, index < body.count, body[index] == UInt8(ascii: ",") || body[index] == UInt8(ascii: "}")
        else { return nil }
        return rid
    }

    private static let okPrefix: [UInt8] = Array(#"{"op":"ok","rid":"#.utf8)
}
