import Crypto
import Glibc
import LifeSignalRules
import LifeSignalUV

/// Makes the broker's secrets and ids, and checks presented tokens.
///
/// Randomness comes from swift-crypto (`SymmetricKey` draws from the system CSPRNG);
/// a token is stored only as its SHA-256 hash and compared in constant time.
public enum Credentials {
    /// QR codes avoid look-alike characters (0/O, 1/I) because people read them off screens.
    package static let qrAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
    package static let base32Lower = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// Secret random bytes (tokens, QR codes, user ids), from swift-crypto.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8))
        return key.withUnsafeBytes { Array($0) }
    }

    /// Base32 digits in ASCII order, so that fixed-width numbers written with them sort as text
    /// (SQLite's default collation compares bytes).
    package static let sortableBase32 = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    /// The ids made on every request (notifications, pings, alerts, sessions) draw from one
    /// 4 KiB pool of the OS generator: swift-crypto makes a system call per 8 bytes here.
    private static let ids = Locked(IDSource())

    private struct IDSource: ~Copyable {
        package var bytes = [UInt8](repeating: 0, count: 4096)
        package var next = 4096
        /// The last order value given out: ids made later in this process sort after it.
        package var lastOrder: UInt64 = 0

        /// The next 64 random bits, the pool's bytes read in order (most significant first).
        package mutating func take64() -> UInt64 {
            if next + 8 > bytes.count {
                // glibc's arc4random_buf: the kernel CSPRNG (getrandom), one call for the whole refill.
                bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                next = 0
            }
            defer { next += 8 }
            return bytes[next..<(next + 8)].reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// Milliseconds since 1970 above a 16-bit count, never below the last one: strictly
        /// increasing within the process even if the clock steps back.
        package mutating func order(nowMs: Int64) -> UInt64 {
            lastOrder = max(UInt64(max(nowMs, 0)) << 16, lastOrder + 1)
            return lastOrder
        }
    }
    /// 256 random bits, base32: the bearer secret a device presents in `hello`.
    public static func newToken() -> String { encode(randomBytes(32), alphabet: base32Lower) }

    /// `u_` + 128 random bits; opaque and well under the 64-character id limit.
    public static func newUserID() -> String { "u_" + encode(randomBytes(16), alphabet: base32Lower) }

    /// A prefixed opaque id for notifications, pings, alerts and sessions: 12 characters that
    /// grow with time (`IDSource.order`), then 64 random bits. Later ids sort after earlier
    /// ones, so the unique indexes that hold them (notifications, pushes) grow at their right
    /// edge instead of dirtying a random page per insert; the random part keeps them from
    /// being guessed (ownership is checked anyway). At most 2 + 1 + 12 + 13 characters.
    public static func newID(prefix: String) -> String { newID(prefix: prefix, nowMs: WallClock.nowMs()) }

    package static func newID(prefix: String, nowMs: Int64) -> String {
        let (order, random) = ids.withLock { source in (source.order(nowMs: nowMs), source.take64()) }
        return id(prefix: prefix, order: order, random: random)
    }

    /// `prefix_`, `order` as 12 digits of `sortableBase32` (60 bits; order values need 57) most
    /// significant first, then `random` in base32 as `encode` writes its 8 bytes: written
    /// straight into the string's storage, the one allocation an id costs (two per ping).
    package static func id(prefix: String, order: UInt64, random: UInt64) -> String {
        let prefix = prefix.utf8
        return String(unsafeUninitializedCapacity: prefix.count + 1 + 12 + 13) { out in
            var count = 0
            func put(_ byte: UInt8) {
                out[count] = byte
                count += 1
            }
            for byte in prefix { put(byte) }
            put(UInt8(ascii: "_"))
            for shift in stride(from: 55, through: 0, by: -5) { put(sortableBase32[Int(order >> UInt64(shift) & 31)]) }
            for shift in stride(from: 59, through: 4, by: -5) { put(base32Lower[Int(random >> UInt64(shift) & 31)]) }
            put(base32Lower[Int(random & 15) << 1])
            return count
        }
    }

    /// 12 characters of a 32-letter alphabet: 60 bits, unguessable by trying.
    public static func newQRCode() -> String {
        String(decoding: randomBytes(12).map { qrAlphabet[Int($0) & 31] }, as: UTF8.self)
    }

    public static func hash(token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    public static func verify(token: String, against storedHash: [UInt8]) -> Bool {
        verify(token: token, against: TokenHash(storedHash))
    }

    /// Constant-time (`TokenHash.matches`); a malformed stored hash (nil) matches no token.
    package static func verify(token: String, against storedHash: TokenHash?) -> Bool {
        guard let storedHash, let presented = TokenHash(hash(token: token)) else { return false }
        return presented.matches(storedHash)
    }

    package static func encode(_ bytes: [UInt8], alphabet: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 8 / 5 + 1)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The rules' ids and QR codes in production: time-ordered random ids, random QR codes.
public struct RandomIDs: IDSource {
    public init() {}
    public func newID(prefix: String, nowMs: Int64) -> String { Credentials.newID(prefix: prefix, nowMs: nowMs) }
    public func newQRCode() -> String { Credentials.newQRCode() }
}
