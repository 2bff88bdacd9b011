import Foundation
import LifeSignalPostgres
import Testing

/// Where the password comes from when it is not in the URL: `--postgres-password-file`, or
/// PGPASSWORD and the libpq password file.
@Suite struct PostgresPasswordTests {
    let url = PostgresURL(host: "db.internal", port: 5432, username: "lifesignal", database: "lifesignal")

    @Test func thePasswordFileGivesThePasswordLessItsLineEnd() throws {
        let file = try PrivateFile("s3cret:with@odd?chars\n")
        #expect(try url.withPassword(fromFile: file.path).password == "s3cret:with@odd?chars")
        #expect(try url.withPassword(fromFile: nil).password == nil)
    }

    @Test(arguments: [0o644, 0o640, 0o604])
    func aPasswordFileOthersMayReadIsRefused(_ mode: Int) throws {
        let file = try PrivateFile("s3cret\n", mode: mode)
        #expect {
            try url.withPassword(fromFile: file.path)
        } throws: { error in
            "\(error)".contains("chmod 600") && !"\(error)".contains("s3cret")
        }
    }

    @Test func aPasswordInTheURLAndAFileIsRefused() throws {
        let file = try PrivateFile("s3cret\n")
        var withPassword = url
        withPassword.password = "other"
        #expect(throws: PostgresStoreError.self) { try withPassword.withPassword(fromFile: file.path) }
        #expect(throws: PostgresStoreError.self) { try url.withPassword(fromFile: file.path + ".missing") }
        #expect(throws: PostgresStoreError.self) { try url.withPassword(fromFile: try PrivateFile("\n").path) }
    }

    @Test func pgpasswordIsUsedWhenTheURLHasNone() throws {
        #expect(try url.resolvingPassword(environment: ["PGPASSWORD": "fromenv"]).password == "fromenv")
        var withPassword = url
        withPassword.password = "inurl"
        #expect(try withPassword.resolvingPassword(environment: ["PGPASSWORD": "fromenv"]).password == "inurl")
        #expect(try url.resolvingPassword(environment: [:]).password == nil)
    }

    @Test func theFirstMatchingLineOfPGPASSFILEGivesThePassword() throws {
        let file = try PrivateFile("""
            # comment:5432:lifesignal:lifesignal:no
            other.host:5432:lifesignal:lifesignal:wrong-host
            db.internal:6543:*:*:wrong-port
            db.internal:5432:*:lifesignal:pass\\:with\\\\escapes
            *:*:*:*:too-late
            """)
        let password = try url.resolvingPassword(environment: ["PGPASSFILE": file.path]).password
        #expect(password == "pass:with\\escapes")
        var otherUser = url
        otherUser.username = "admin"
        #expect(try otherUser.resolvingPassword(environment: ["PGPASSFILE": file.path]).password == "too-late")
        // PGPASSWORD comes first, as in libpq.
        #expect(try url.resolvingPassword(environment: ["PGPASSFILE": file.path, "PGPASSWORD": "env"]).password == "env")
    }

    @Test func thePasswordFileInHOMEIsReadWhenPGPASSFILEIsUnset() throws {
        let home = try PrivateFile.directory()
        #expect(try url.resolvingPassword(environment: ["HOME": home]).password == nil)  // no ~/.pgpass: none
        try "*:*:*:*:homepass\n".write(toFile: home + "/.pgpass", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: home + "/.pgpass")
        #expect(try url.resolvingPassword(environment: ["HOME": home]).password == "homepass")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: home + "/.pgpass")
        #expect(throws: PostgresStoreError.self) { try url.resolvingPassword(environment: ["HOME": home]) }
    }

    @Test func aMissingPGPASSFILEIsAnError() {
        #expect(throws: PostgresStoreError.self) {
            try url.resolvingPassword(environment: ["PGPASSFILE": "/nonexistent/pgpass"])
        }
    }
}

/// A file of a test's own in a fresh directory, mode 600 unless told.
struct PrivateFile {
    let path: String

    init(_ contents: String, mode: Int = 0o600) throws {
        path = try Self.directory() + "/secret"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
