import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

@Suite struct ClientErrorTests {
    @Test func serverErrorsKeepTheBrokersCodeAndMessage() {
        let error = LifeSignalClientError.server(.notFound("no user has that QR code"))
        #expect(error.code == "not_found")
        #expect(error.message == "no user has that QR code")
        #expect(error.description == "not_found: no user has that QR code")
    }

    @Test func onlyCredentialAndDeviceErrorsStopReconnecting() {
        let final: [ProtocolError.Code] = [.unauthenticated, .replaced, .unsupportedVersion, .tooManyDevices]
        for code in ProtocolError.Code.allV1 {
            #expect(LifeSignalClient.isFinal(.server(ProtocolError(code, ""))) == final.contains(code))
        }
        #expect(!LifeSignalClient.isFinal(.connectionLost("reset")))
        #expect(!LifeSignalClient.isFinal(.sequenceGap(expected: 2, received: 3)))
    }
}
