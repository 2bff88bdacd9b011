@testable import LifeSignalBroker
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

    @Test func sortableDigitsKeepNumericOrderAsText() {
        let values: [UInt64] = [0, 1, 31, 32, 1 << 40, (1 << 57) - 1, 1 << 57]
        let encoded = values.map(Credentials.sortable)
        #expect(encoded == encoded.sorted())
        #expect(encoded.allSatisfy { $0.count == 12 })
    }
}
