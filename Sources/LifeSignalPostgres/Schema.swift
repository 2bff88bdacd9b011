// The cluster schema (ARCHITECTURE.md, "The cluster"). PostgreSQL owns each user's seq: a request's
// transaction takes the head rows of the users it touches (`UPDATE users SET seq = seq + k …
// RETURNING seq`, in ascending id order), checks the rules against rows read under that lock and
// inserts the events, notifications and pushes; commit is the durability point. Times are
// milliseconds since the epoch (bigint), as on the wire.
extension SchemaMigration {
    public static let all: [SchemaMigration] = [v1, v2, v3]

    static let v1 = SchemaMigration(version: 1, name: "users, contacts, devices, events, notifications, pushes, presence",
                                    statements: [
        // One row per user: their document and their head (the last seq given out).
        """
        CREATE TABLE users (
            id text PRIMARY KEY,
            name text NOT NULL,
            phone text,
            qr_code text NOT NULL UNIQUE,
            token_hash bytea NOT NULL,
            check_in_interval_sec bigint NOT NULL,
            last_check_in_at bigint,
            check_in_deadline bigint,
            is_non_responsive boolean NOT NULL DEFAULT false,
            alert_id text,
            alert_started_at bigint,
            alert_message text,
            push_enabled boolean NOT NULL DEFAULT true,
            muted_types text NOT NULL DEFAULT '',
            created_at bigint NOT NULL,
            seq bigint NOT NULL DEFAULT 0,
            oldest_retained_seq bigint NOT NULL DEFAULT 1
        )
        """,
        // Every broker scans this each second: WHERE check_in_deadline <= now AND NOT
        // is_non_responsive … FOR UPDATE SKIP LOCKED.
        """
        CREATE INDEX users_pending_deadline ON users (check_in_deadline)
            WHERE check_in_deadline IS NOT NULL AND NOT is_non_responsive
        """,
        // One row per side of a relationship: (user, contact) is the user's view of the contact.
        """
        CREATE TABLE contacts (
            user_id text NOT NULL REFERENCES users(id),
            contact_id text NOT NULL REFERENCES users(id),
            is_responder boolean NOT NULL,
            is_dependent boolean NOT NULL,
            added_at bigint NOT NULL,
            incoming_ping_id text,
            incoming_ping_at bigint,
            outgoing_ping_id text,
            outgoing_ping_at bigint,
            PRIMARY KEY (user_id, contact_id)
        )
        """,
        // A user's devices and their push tokens; a token belongs to one device at a time.
        """
        CREATE TABLE devices (
            user_id text NOT NULL REFERENCES users(id),
            device_id text NOT NULL,
            platform text,
            push_token text UNIQUE,
            last_seen_at bigint,
            PRIMARY KEY (user_id, device_id)
        )
        """,
        // The event log: one gapless seq per user, bodies (JSON) as sent on the wire.
        """
        CREATE TABLE events (
            user_id text NOT NULL,
            seq bigint NOT NULL,
            body text NOT NULL,
            PRIMARY KEY (user_id, seq)
        )
        """,
        // Notification history, newest last by position.
        """
        CREATE TABLE notifications (
            position bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            user_id text NOT NULL REFERENCES users(id),
            type text NOT NULL,
            title text NOT NULL,
            message text NOT NULL,
            timestamp bigint NOT NULL,
            is_read boolean NOT NULL,
            related_contact_id text,
            related_alert_id text,
            related_ping_id text,
            contact_data text,
            alert_data text
        )
        """,
        "CREATE INDEX notifications_by_user ON notifications (user_id, position, is_read)",
        // Pushes recorded once, in the notification's own transaction (§7).
        """
        CREATE TABLE pushes (
            position bigserial PRIMARY KEY,
            user_id text NOT NULL,
            device_id text NOT NULL,
            token text NOT NULL,
            notification_id text NOT NULL,
            body text NOT NULL,
            created_at bigint NOT NULL,
            UNIQUE (notification_id, token)
        )
        """,
        "CREATE INDEX pushes_by_user ON pushes (user_id, position)",
        // The brokers of the cluster and when each last said it was alive; a broker whose
        // heartbeat is old is dead, and so are its presence rows.
        """
        CREATE TABLE brokers (
            broker_id text PRIMARY KEY,
            heartbeat_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        // Which broker holds which device's connection: where to send a hint (NOTIFY) after a
        // commit, and which devices are offline (pushed to).
        """
        CREATE TABLE presence (
            user_id text NOT NULL,
            device_id text NOT NULL,
            broker_id text NOT NULL REFERENCES brokers(broker_id) ON DELETE CASCADE,
            since timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (user_id, device_id)
        )
        """,
        "CREATE INDEX presence_by_broker ON presence (broker_id)",
    ])

    /// PROTOCOL §12: what each request with an `opId` came to, in the transaction of its effects.
    /// `op_id` sorts bytewise (COLLATE "C"), as SQLite and the embedded broker's memory sort it:
    /// a locale's collation would prune other outcomes among equal times.
    static let v2 = SchemaMigration(version: 2, name: "kept outcomes of requests with an opId", statements: [
        """
        CREATE TABLE kept_outcomes (
            user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            op_id text COLLATE "C" NOT NULL,
            op text NOT NULL,
            answer bytea NOT NULL,
            kept_at bigint NOT NULL,
            PRIMARY KEY (user_id, op_id)
        )
        """,
        "CREATE INDEX kept_outcomes_by_time ON kept_outcomes (user_id, kept_at)",
    ])

    /// PROTOCOL §12: each device's own credential, and the one-time codes that link a device.
    static let v3 = SchemaMigration(version: 3, name: "device credentials and link codes", statements: [
        """
        CREATE TABLE device_credentials (
            user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            device_id text NOT NULL,
            token_hash bytea NOT NULL,
            linked_at bigint NOT NULL,
            PRIMARY KEY (user_id, device_id)
        )
        """,
        """
        CREATE TABLE link_codes (
            code text PRIMARY KEY,
            user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            expires_at bigint NOT NULL
        )
        """,
        "CREATE INDEX link_codes_by_user ON link_codes (user_id)",
    ])
}
