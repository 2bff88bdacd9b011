import Crypto
import Glibc
import Synchronization

/// Makes the broker's secrets and ids, and checks presented tokens.
///
/// Randomness comes from swift-crypto (`SymmetricKey` draws from the system CSPRNG);
/// a token is stored only as its SHA-256 hash and compared in constant time.
public enum Credentials {
    /// QR codes avoid look-alike characters (0/O, 1/I) because people read them off screens.
    static let qrAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
    static let base32Lower = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// Secret random bytes (tokens, QR codes, user ids), from swift-crypto.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8))
        return key.withUnsafeBytes { Array($0) }
    }

    /// Random bytes for opaque ids made on every request (notifications, pings, sessions): the
    /// same OS generator, 4 KiB per system call. swift-crypto draws 8 bytes per system call
    /// here, which cost several syscalls per notification.
    static func idBytes(_ count: Int) -> [UInt8] {
        idPool.withLock { pool in pool.take(count) }
    }

    private static let idPool = Mutex(IDPool())

    private struct IDPool: ~Copyable {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var next = 4096

        mutating func take(_ count: Int) -> [UInt8] {
            precondition(count <= bytes.count)
            if next + count > bytes.count {
                // glibc's arc4random_buf: the kernel CSPRNG (getrandom), one call for the whole refill.
                bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                next = 0
            }
            defer { next += count }
            return Array(bytes[next..<(next + count)])
        }
    }

    /// 256 random bits, base32: the bearer secret a device presents in `hello`.
    public static func newToken() -> String { encode(randomBytes(32), alphabet: base32Lower) }

    /// `u_` + 128 random bits; opaque and well under the 64-character id limit.
    public static func newUserID() -> String { "u_" + encode(randomBytes(16), alphabet: base32Lower) }

    /// A prefixed random id for notifications, alerts and pings.
    public static func newID(prefix: String) -> String { prefix + "_" + encode(idBytes(12), alphabet: base32Lower) }

    /// 12 characters of a 32-letter alphabet: 60 bits, unguessable by trying.
    public static func newQRCode() -> String {
        String(decoding: randomBytes(12).map { qrAlphabet[Int($0) & 31] }, as: UTF8.self)
    }

    public static func hash(token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    /// Constant-time: the time taken does not depend on where the hashes first differ.
    public static func verify(token: String, against storedHash: [UInt8]) -> Bool {
        let presented = hash(token: token)
        guard presented.count == storedHash.count else { return false }
        var difference: UInt8 = 0
        for index in presented.indices { difference |= presented[index] ^ storedHash[index] }
        return difference == 0
    }

    static func encode(_ bytes: [UInt8], alphabet: [UInt8]) -> String {
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
