import GRDB

/// The SQLite schema, one migration per step; GRDB's migrator records which have run.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, devices, events") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    phone TEXT,
                    qr_code TEXT NOT NULL UNIQUE,
                    token_hash BLOB NOT NULL,
                    check_in_interval_sec INTEGER NOT NULL,
                    last_check_in_at INTEGER,
                    check_in_deadline INTEGER,
                    is_non_responsive INTEGER NOT NULL DEFAULT 0,
                    alert_id TEXT,
                    alert_started_at INTEGER,
                    alert_message TEXT,
                    push_enabled INTEGER NOT NULL DEFAULT 1,
                    muted_types TEXT NOT NULL DEFAULT '',
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE devices (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    platform TEXT,
                    push_token TEXT UNIQUE,
                    last_seen_at INTEGER,
                    PRIMARY KEY (user_id, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE events (
                    user_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    PRIMARY KEY (user_id, seq)
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }
}
