import PostgresNIO

/// The text of one statement of the hot path, with `$1`… for its bindings.
package protocol StatementText {
    static var sql: String { get }
}

/// A statement parsed and planned once per connection rather than once per use: postgres-nio
/// prepares it under the name of its text's type the first time a connection runs it. The hot
/// path runs a few statements thousands of times a second, and parsing and planning each anew
/// was a third of PostgreSQL's time (docs/BENCHMARKS.md, "Cluster").
package struct Prepared<Text: StatementText>: PostgresPreparedStatement {
    package static var name: String { String(reflecting: Text.self) }
    package static var sql: String { Text.sql }

    package let bindings: PostgresBindings

    package init(_ values: any PostgresDynamicTypeEncodable...) { self.init(values) }

    package init(_ values: [any PostgresDynamicTypeEncodable]) {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        self.bindings = bindings
    }

    package func makeBindings() -> PostgresBindings { bindings }
    package func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// Runs a prepared statement; its rows.
    package func run<Text>(_ statement: Prepared<Text>, logger: Logger) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        try await execute(statement, logger: logger)
    }
}
