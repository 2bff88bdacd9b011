import GRDB
import GRDBSQLite

extension DirectStatement {
    /// Binds the parameters through `bind`, then calls `body` with each row while SQLite is on
    /// it until `body` returns false, and resets. A GRDB cursor builds a dictionary of the statement's column names for
    /// every run; a user's load runs six statements, thousands of times in a storm of hellos.
    package func forEachRow(_ db: Database, _ bind: (inout Binder) -> Void, _ body: (Columns) throws -> Bool) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        var binder = Binder(handle: handle)
        bind(&binder)
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW {
            guard try body(Columns(handle: handle)) else { return }
            code = sqlite3_step(handle)
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// Each row mapped by `transform`, in order.
    package func rows<T>(_ db: Database, _ bind: (inout Binder) -> Void, _ transform: (Columns) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(db, bind) { row in
            rows.append(try transform(row))
            return true
        }
        return rows
    }

    /// The values of the row a statement is on, by column position (from 0, in SELECT order).
    package struct Columns {
        package let handle: OpaquePointer

        package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

        package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

        package func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

        package func bool(_ index: Int32) -> Bool { int64(index) != 0 }

        package func string(_ index: Int32) -> String {
            guard let text = sqlite3_column_text(handle, index) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))),
                          as: UTF8.self)
        }

        package func optionalString(_ index: Int32) -> String? { isNull(index) ? nil : string(index) }

        /// The size of a blob or text value, in bytes.
        package func byteCount(_ index: Int32) -> Int32 { sqlite3_column_bytes(handle, index) }

        package func bytes(_ index: Int32) -> [UInt8] {
            guard let blob = sqlite3_column_blob(handle, index) else { return [] }
            return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, index))))
        }
    }
}
