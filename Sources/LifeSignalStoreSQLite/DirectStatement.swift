import GRDB
import GRDBSQLite

/// A statement prepared once on the writer's connection and run through SQLite's C API. For
/// the small rows of every request, GRDB's `StatementArguments` (an existential box and a
/// `DatabaseValue` per value) and its statement cache (the SQL text hashed on each lookup) cost
/// about as much as SQLite's own work; binding straight from Swift values does not.
package struct DirectStatement {
    package let statement: Statement

    package init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds the parameters in order through `bind`, steps to completion and resets.
    package func run(_ db: Database, _ bind: (inout Binder) -> Void) throws {
        try forEachRow(db, bind) { _ in true }
    }

    /// Binds values to the next parameter, from the first.
    package struct Binder {
        package let handle: OpaquePointer
        private var index: Int32 = 0

        package init(handle: OpaquePointer) { self.handle = handle }

        package mutating func add(_ value: Int64) {
            index += 1
            sqlite3_bind_int64(handle, index, value)
        }

        package mutating func add(_ value: Bool) { add(value ? 1 : 0 as Int64) }

        package mutating func add(_ value: Int64?) {
            guard let value else { return addNull() }
            add(value)
        }

        package mutating func add(_ value: String?) {
            guard var value else { return addNull() }
            index += 1
            _ = value.withUTF8 { text in
                sqlite3_bind_text(handle, index, text.baseAddress, Int32(text.count), transient)
            }
        }

        package mutating func add(bytes: ArraySlice<UInt8>) {
            index += 1
            // An empty buffer may have no address, which SQLite would take for NULL.
            guard !bytes.isEmpty else {
                sqlite3_bind_zeroblob(handle, index, 0)
                return
            }
            _ = bytes.withUnsafeBytes { blob in
                sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), transient)
            }
        }

        private mutating func addNull() {
            index += 1
            sqlite3_bind_null(handle, index)
        }

        /// SQLITE_TRANSIENT: SQLite copies the value before the call returns.
        private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
