import LifeSignalEngine
import Testing

@Suite struct CredentialsTests {
    @Test func aTokenVerifiesOnlyAgainstItsOwnHash() {
        let token = Credentials.newToken()
        let hash = Credentials.hash(token: token)
        #expect(Credentials.verify(token: token, against: hash))
        #expect(!Credentials.verify(token: token + "x", against: hash))
        #expect(!Credentials.verify(token: Credentials.newToken(), against: hash))
        #expect(!Credentials.verify(token: token, against: []))
    }

    @Test func aHashDifferingInAnyByteDoesNotMatch() throws {
        let token = Credentials.newToken()
        let hash = Credentials.hash(token: token)
        for index in hash.indices {
            var other = hash
            other[index] ^= 0x01
            #expect(!Credentials.verify(token: token, against: other))
        }
        #expect(TokenHash(Array(hash.prefix(31))) == nil)
        #expect(try #require(TokenHash(hash)).matches(try #require(TokenHash(hash))))
    }

    @Test func secretsAreFreshEachTime() {
        let tokens = Set((0..<1_000).map { _ in Credentials.newToken() })
        #expect(tokens.count == 1_000)
        #expect(tokens.allSatisfy { $0.count == 52 })
    }

    @Test func idsAndCodesHaveTheirShape() {
        let id = Credentials.newUserID()
        #expect(id.hasPrefix("u_") && id.count <= 64)
        let qr = Credentials.newQRCode()
        #expect(qr.count == 12)
        #expect(qr.allSatisfy { "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains($0) })
    }
}

@Suite struct SortableIDTests {
    @Test func laterIDsSortAfterEarlierOnesEvenWithinAMillisecondOrWhenTheClockStepsBack() {
        let times: [Int64] = [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001,
                              1_699_999_999_000, 1_800_000_000_000]
        let ids = times.map { Credentials.newID(prefix: "n", nowMs: $0) }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func idsAreUniqueOpaqueAndShort() {
        let ids = (0..<100_000).map { _ in Credentials.newID(prefix: "n") }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0.hasPrefix("n_") && $0.count == 27 && $0.count <= 64 })
        // The random tails of consecutive ids differ: nothing about the next id follows from this one.
        let tails = Set(ids.map { $0.suffix(13) })
        #expect(tails.count == ids.count)
    }

    @Test func orderDigitsKeepNumericOrderAsText() {
        let orders: [UInt64] = [0, 1, 31, 32, 1 << 40, (1 << 57) - 1, 1 << 57]
        let ids = orders.map { Credentials.id(prefix: "n", order: $0, random: 0) }
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0.count == 27 })
        #expect(ids[1] == "n_222222222223aaaaaaaaaaaaa")
    }

    @Test func theRandomTailIsTheBase32OfItsBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let random = generator.next() as UInt64
            let bytes = (0..<8).reversed().map { UInt8(truncatingIfNeeded: random >> UInt64(8 * $0)) }
            let id = Credentials.id(prefix: "p", order: generator.next() >> 7, random: random)
            #expect(id.suffix(13) == Credentials.encode(bytes, alphabet: Credentials.base32Lower))
            #expect(id.hasPrefix("p_") && id.count == 27)
        }
    }
}
