import GRDB

/// The SQLite schema, one migration per step; GRDB's migrator records which have run.
package enum SQLiteSchema {
    package static var migrator: DatabaseMigrator {
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
        migrator.registerMigration("v2: contacts, notifications") { db in
            try db.execute(sql: """
                CREATE TABLE contacts (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    contact_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    is_responder INTEGER NOT NULL,
                    is_dependent INTEGER NOT NULL,
                    added_at INTEGER NOT NULL,
                    incoming_ping_at INTEGER,
                    incoming_ping_id TEXT,
                    outgoing_ping_at INTEGER,
                    outgoing_ping_id TEXT,
                    PRIMARY KEY (user_id, contact_id)
                ) WITHOUT ROWID;
                CREATE TABLE notifications (
                    position INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    title TEXT NOT NULL,
                    message TEXT NOT NULL,
                    timestamp INTEGER NOT NULL,
                    is_read INTEGER NOT NULL,
                    related_contact_id TEXT,
                    related_alert_id TEXT,
                    related_ping_id TEXT,
                    contact_data TEXT
                );
                CREATE INDEX notifications_by_user ON notifications (user_id, position);
                CREATE INDEX notifications_unread ON notifications (user_id) WHERE is_read = 0;
                """)
        }
        migrator.registerMigration("v3: pushes, deadlines") { db in
            try db.execute(sql: """
                CREATE TABLE pushes (
                    position INTEGER PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    notification_id TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    UNIQUE (notification_id, token)
                );
                CREATE INDEX pushes_by_user ON pushes (user_id, position);
                CREATE INDEX users_pending_deadline ON users (check_in_deadline)
                    WHERE check_in_deadline IS NOT NULL AND is_non_responsive = 0;
                """)
        }
        migrator.registerMigration("v4: one index of notifications by user") { db in
            // Each insert went into two indexes by user, each dirtying a page of that user. The
            // unread one only served `readAll` and the unread count; this one answers both from
            // the index alone.
            try db.execute(sql: """
                DROP INDEX notifications_unread;
                DROP INDEX notifications_by_user;
                CREATE INDEX notifications_by_user ON notifications (user_id, position, is_read);
                """)
        }
        migrator.registerMigration("v5: the alert an alert notification is about") { db in
            try db.execute(sql: "ALTER TABLE notifications ADD COLUMN alert_data TEXT")
        }
        migrator.registerMigration("v6: notification ids in the index by user") { db in
            // A load reads the order, read state and id of each of the user's notifications (the
            // ledger that prunes the history, §10): from the index alone, not a table row each.
            try db.execute(sql: """
                DROP INDEX notifications_by_user;
                CREATE INDEX notifications_by_user ON notifications (user_id, position, is_read, id);
                """)
        }
        migrator.registerMigration("v7: one row per relationship") { db in
            // The two sides of a relationship mirror each other (my responder is the one I am a
            // dependent of; my outgoing ping is their incoming one), so one row holds both: a ping
            // writes one row instead of two, on one page instead of two. Each side reads it through
            // the `contacts` view, as the table of one row per side read before.
            try db.execute(sql: """
                CREATE TABLE relationships (
                    low_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    high_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    high_watches_low INTEGER NOT NULL,
                    low_watches_high INTEGER NOT NULL,
                    added_at INTEGER NOT NULL,
                    ping_to_low_at INTEGER,
                    ping_to_low_id TEXT,
                    ping_to_high_at INTEGER,
                    ping_to_high_id TEXT,
                    PRIMARY KEY (low_id, high_id),
                    CHECK (low_id < high_id)
                ) WITHOUT ROWID;
                CREATE INDEX relationships_by_high ON relationships (high_id);
                INSERT INTO relationships
                    SELECT user_id, contact_id, is_responder, is_dependent, added_at,
                           incoming_ping_at, incoming_ping_id, outgoing_ping_at, outgoing_ping_id
                    FROM contacts WHERE user_id < contact_id;
                INSERT OR IGNORE INTO relationships
                    SELECT contact_id, user_id, is_dependent, is_responder, added_at,
                           outgoing_ping_at, outgoing_ping_id, incoming_ping_at, incoming_ping_id
                    FROM contacts WHERE user_id > contact_id;
                DROP TABLE contacts;
                CREATE VIEW contacts (user_id, contact_id, is_responder, is_dependent, added_at,
                                      incoming_ping_at, incoming_ping_id, outgoing_ping_at, outgoing_ping_id) AS
                    SELECT low_id, high_id, high_watches_low, low_watches_high, added_at,
                           ping_to_low_at, ping_to_low_id, ping_to_high_at, ping_to_high_id FROM relationships
                    UNION ALL
                    SELECT high_id, low_id, low_watches_high, high_watches_low, added_at,
                           ping_to_high_at, ping_to_high_id, ping_to_low_at, ping_to_low_id FROM relationships;
                """)
        }
        migrator.registerMigration("v8: the readiness probe's row") { db in
            try db.execute(sql: "CREATE TABLE readiness_probe (id INTEGER PRIMARY KEY CHECK (id = 1), probed_at INTEGER NOT NULL)")
        }
        migrator.registerMigration("v9: kept outcomes of requests with an opId") { db in
            try db.execute(sql: """
                CREATE TABLE kept_outcomes (
                    user_id TEXT NOT NULL, op_id TEXT NOT NULL, op TEXT NOT NULL, answer BLOB NOT NULL,
                    kept_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, op_id)
                ) WITHOUT ROWID;
                CREATE INDEX kept_outcomes_by_time ON kept_outcomes (user_id, kept_at);
                """)
        }
        migrator.registerMigration("v10: device credentials and link codes") { db in
            try db.execute(sql: """
                CREATE TABLE device_credentials (
                    user_id TEXT NOT NULL, device_id TEXT NOT NULL, token_hash BLOB NOT NULL, linked_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE link_codes (
                    code TEXT PRIMARY KEY NOT NULL, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX link_codes_by_user ON link_codes (user_id);
                """)
        }
        return migrator
    }
}
