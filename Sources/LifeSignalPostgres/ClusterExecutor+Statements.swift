import PostgresNIO

extension ClusterExecutor {
    /// Runs one statement on a leased connection (bounded wait: `ClusterDatabase.withConnection`);
    /// its rows, if any, are not needed.
    package func execute(_ query: PostgresQuery) async throws {
        let logger = self.logger
        try await database.withConnection { try await $0.query(query, logger: logger).drain() }
    }

    /// Runs one query on a leased connection; each row as `decode` makes it.
    package func collect<T: Sendable>(_ query: PostgresQuery, _ decode: @escaping @Sendable (PostgresRow) throws -> T)
        async throws -> [T]
    {
        let logger = self.logger
        return try await database.withConnection { connection in
            var values: [T] = []
            for try await row in try await connection.query(query, logger: logger) { values.append(try decode(row)) }
            return values
        }
    }

    /// Runs one prepared statement on a leased connection; each row as `decode` makes it.
    package func collect<Text, T: Sendable>(_ statement: Prepared<Text>,
                                    _ decode: @escaping @Sendable (PostgresRow) throws -> T) async throws -> [T] {
        let logger = self.logger
        return try await database.withConnection { connection in
            var values: [T] = []
            for try await row in try await connection.run(statement, logger: logger) { values.append(try decode(row)) }
            return values
        }
    }
}
