import Foundation
import LifeSignalPostgres
import Testing

@Suite struct PostgresURLTests {
    @Test func aFullURLIsRead() throws {
        let url = try PostgresURL(parsing: "postgres://ls:secret@db.example:6543/lifesignal?pool=4&sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(url == PostgresURL(host: "db.example", port: 6543, username: "ls", password: "secret",
                                   database: "lifesignal", poolSize: 4, sslMode: .verifyFull,
                                   sslRootCertificate: "/etc/ca.pem"))
        #expect(!url.description.contains("secret"))
    }

    @Test func defaultsAndIPv6() throws {
        let url = try PostgresURL(parsing: "postgresql://postgres@[::1]/lifesignal")
        #expect(url.host == "::1" && url.port == 5432 && url.password == nil)
        #expect(url.poolSize == PostgresURL.defaultPoolSize)
        #expect(url.sslMode == .prefer && url.sslRootCertificate == nil)  // libpq's default
    }

    @Test(arguments: PostgresURL.SSLMode.allCases)
    func everySSLModeIsRead(_ mode: PostgresURL.SSLMode) throws {
        #expect(try PostgresURL(parsing: "postgres://u@h/d?sslmode=\(mode.rawValue)").sslMode == mode)
    }

    @Test(arguments: [
        "", "mysql://u@h/d", "postgres://h/d", "postgres://u@h", "postgres://u@h/", "postgres://u@h:0/d",
        "postgres://u@h:65536/d", "postgres://u@h:x/d", "postgres://@h/d", "postgres://u@/d", "postgres://u@h/d?pool=0",
        "postgres://u@h/d?size=3", "postgres://u@h/d?sslmode=allow", "postgres://u@h/d?sslmode=on",
        "postgres://u@h/d?sslmode",
    ])
    func badURLsAreRefusedWithoutThePassword(_ text: String) {
        #expect(throws: PostgresStoreError.self) { try PostgresURL(parsing: text) }
        do {
            _ = try PostgresURL(parsing: text.replacingOccurrences(of: "u@", with: "u:hunter2@"))
        } catch {
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    /// However the URL is mistyped, the error never shows its password.
    @Test(arguments: [
        "postgres:/ls:hunter2@db/ls", "postgres//ls:hunter2@db/ls", "ls:hunter2@db/ls", "postgres:ls:hunter2@db/ls",
        "postgress://ls:hunter2@db/ls", "POSTGRES://ls:hunter2@db/ls", " postgres://ls:hunter2@db/ls",
        "postgres://ls:hunter2@db", "postgres://ls:hunter2/ls", "postgres://ls:hunter2", "ls:hunter2",
        "postgres://ls:hunter2@db:x/ls", "postgres://ls:hunter2@db/ls?sslmode=bogus", "postgres://ls:hun@ter2@db/ls?x=1",
        "postgres://ls:hunter2@/ls", "postgres://ls:hun?ter2@db/ls", "http://ls:hunter2@db/ls",
    ])
    func aMalformedURLNeverShowsItsPassword(_ text: String) {
        #expect {
            try PostgresURL(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return !message.contains("hunter2") && !message.contains("ter2") && message.contains("bad PostgreSQL URL")
        }
    }

    @Test func aMalformedURLWithoutAPasswordIsShownAsTyped() {
        #expect {
            try PostgresURL(parsing: "postgres://ls@db:5433")
        } throws: { error in
            "\(error)".contains("'postgres://ls@db:5433'")
        }
    }
}
