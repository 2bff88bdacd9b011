import LifeSignalPostgres
import Testing

@Suite struct PostgresURLTests {
    @Test func aFullURLIsRead() throws {
        let url = try PostgresURL(parsing: "postgres://ls:secret@db.example:6543/lifesignal?pool=4")
        #expect(url == PostgresURL(host: "db.example", port: 6543, username: "ls", password: "secret",
                                   database: "lifesignal", poolSize: 4))
        #expect(!url.description.contains("secret"))
    }

    @Test func defaultsAndIPv6() throws {
        let url = try PostgresURL(parsing: "postgresql://postgres@[::1]/lifesignal")
        #expect(url.host == "::1" && url.port == 5432 && url.password == nil)
        #expect(url.poolSize == PostgresURL.defaultPoolSize)
    }

    @Test(arguments: [
        "", "mysql://u@h/d", "postgres://h/d", "postgres://u@h", "postgres://u@h/", "postgres://u@h:0/d",
        "postgres://u@h:65536/d", "postgres://u@h:x/d", "postgres://@h/d", "postgres://u@/d", "postgres://u@h/d?pool=0",
        "postgres://u@h/d?size=3",
    ])
    func badURLsAreRefusedWithoutThePassword(_ text: String) {
        #expect(throws: PostgresStoreError.self) { try PostgresURL(parsing: text) }
        do {
            _ = try PostgresURL(parsing: text.replacingOccurrences(of: "u@", with: "u:hunter2@"))
        } catch {
            #expect(!"\(error)".contains("hunter2"))
        }
    }
}
