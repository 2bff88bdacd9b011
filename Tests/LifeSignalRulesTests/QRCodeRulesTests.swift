import LifeSignalProtocol
import LifeSignalRules
import Testing

/// §12 `qr.lookup`: the owner's id and name, nothing else; one's own code is refused as an add is.
@Suite struct QRCodeRulesTests {
    @Test func aLookupShowsTheOwnersIdAndNameOnly() throws {
        let answer = try QRCodeRules.lookUp(QRCodeOwner(id: "u_Bob", name: "Bob"), by: "u_Alice")
        #expect(answer == .qrCodeOwner(QRCodeOwner(id: "u_Bob", name: "Bob")))
        #expect(answer.fields == ["contact": .object(["id": "u_Bob", "name": "Bob"])])
    }

    @Test func onesOwnCodeIsABadRequest() {
        #expect(throws: ProtocolError.badRequest("that is your own QR code")) {
            try QRCodeRules.lookUp(QRCodeOwner(id: "u_Alice", name: "Alice"), by: "u_Alice")
        }
    }
}
